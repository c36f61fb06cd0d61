#!/usr/bin/python3
"""SQLAlchemy 1.4 (postgresql+psycopg2) against mallard: the statements its
dialect sends on first connect, Core table creation, inserts and selects of
every type, the Inspector (tables, columns, primary key, indexes, unique,
foreign key and check constraints) and table reflection, errors and
transactions."""

import re

import psycopg2
import psycopg2.extras
import sqlalchemy as sa
from sqlalchemy.dialects import postgresql as pg

from scenario import (NAMES, NULL_ROW, ROW, Checker, compare_row, expect,
                      expect_sqlstate, DBNAME, HOST, PORT, USER)

CLIENT = "sqlalchemy"
TABLE = "sqla_types"
URL = f"postgresql+psycopg2://{USER}@{HOST}:{PORT}/{DBNAME}"

# The reflected type each column must come back as (get_columns), and what
# Core's column type is. DuckDB has one string type, so a text and a
# varchar column may reflect as either.
TYPES = {
    "id": (pg.INTEGER, sa.Integer()),
    "c_bool": (pg.BOOLEAN, sa.Boolean()),
    "c_int2": (pg.SMALLINT, sa.SmallInteger()),
    "c_int4": (pg.INTEGER, sa.Integer()),
    "c_int8": (pg.BIGINT, sa.BigInteger()),
    "c_float4": (pg.REAL, pg.REAL()),
    "c_float8": (pg.DOUBLE_PRECISION, pg.DOUBLE_PRECISION()),
    "c_numeric": (pg.NUMERIC, sa.Numeric(10, 2)),
    "c_text": ((pg.TEXT, pg.VARCHAR), sa.Text()),
    "c_varchar": ((pg.TEXT, pg.VARCHAR), sa.String(20)),
    "c_bytea": (pg.BYTEA, pg.BYTEA()),
    "c_date": (pg.DATE, sa.Date()),
    "c_time": (pg.TIME, sa.Time()),
    "c_timestamp": (pg.TIMESTAMP, sa.DateTime()),
    "c_timestamptz": (pg.TIMESTAMP, sa.DateTime(timezone=True)),
    "c_interval": (pg.INTERVAL, sa.Interval()),
    "c_uuid": (pg.UUID, pg.UUID(as_uuid=True)),
    "c_json": (pg.JSON, sa.JSON()),
    "c_int_array": (pg.ARRAY, pg.ARRAY(sa.Integer())),
    "c_text_array": (pg.ARRAY, pg.ARRAY(sa.Text())),
}


def table(metadata):
    """The types table. Its id is not autoincrement, so its DDL has no SERIAL:
    serial_table tests that separately."""
    cols = [sa.Column(name, TYPES[name][1], primary_key=(name == "id"), autoincrement=False)
            for name in NAMES]
    return sa.Table(TABLE, metadata, *cols)


def serial_table(engine):
    """An Integer primary key is SERIAL in SQLAlchemy's DDL, and an insert
    without id reads the generated key back with RETURNING."""
    metadata = sa.MetaData()
    tbl = sa.Table("sqla_serial", metadata, sa.Column("id", sa.Integer, primary_key=True),
                   sa.Column("name", sa.Text))
    metadata.drop_all(engine)
    metadata.create_all(engine)
    with engine.begin() as conn:
        first = conn.execute(tbl.insert(), {"name": "a"}).inserted_primary_key
        second = conn.execute(tbl.insert(), {"name": "b"}).inserted_primary_key
    expect((tuple(first), tuple(second)), ((1,), (2,)), "generated keys")


def raw(sql):
    """Runs sql as SQLAlchemy's dialect does on first connect, in a psycopg2
    transaction, and returns the first value."""
    conn = psycopg2.connect(host=HOST, port=PORT, user=USER, dbname=DBNAME)
    try:
        with conn.cursor() as cur:
            cur.execute(sql)
            return cur.fetchone()[0]
    finally:
        conn.close()


def probe_version():
    v = raw("select pg_catalog.version()")
    if not re.match(r".*(?:PostgreSQL|EnterpriseDB) (\d+)\.?(\d+)?(?:\.(\d+))?(?:\.\d+)?(?:devel|beta)?", v):
        raise AssertionError(f"version() = {v!r}: SQLAlchemy cannot read a PostgreSQL version from it")


def probe_schema():
    v = raw("select current_schema()")
    if not v:
        raise AssertionError(f"current_schema() = {v!r}")


def probe_isolation():
    v = raw("show transaction isolation level")
    expect(v in ("read committed", "repeatable read", "serializable", "read uncommitted"), True,
           f"transaction isolation level {v!r} is a Postgres level")


def probe_scs():
    expect(raw("show standard_conforming_strings"), "on", "standard_conforming_strings")


def probe_hstore():
    """psycopg2's HstoreAdapter.get_oids: a pg_type lookup the dialect makes."""
    conn = psycopg2.connect(host=HOST, port=PORT, user=USER, dbname=DBNAME)
    try:
        expect(psycopg2.extras.HstoreAdapter.get_oids(conn), ((), ()), "hstore oids")
    finally:
        conn.close()


def engine_connect(engine):
    with engine.connect() as conn:
        expect(conn.execute(sa.text("SELECT 1")).scalar(), 1, "SELECT 1")


def create(engine, tbl):
    with engine.begin() as conn:
        conn.execute(sa.text(f"DROP TABLE IF EXISTS {TABLE}"))
    tbl.metadata.create_all(engine)


def insert(engine, tbl):
    with engine.begin() as conn:
        result = conn.execute(tbl.insert(), [ROW, NULL_ROW])
        expect(result.rowcount, 2, "rowcount")


def select_rows(engine, tbl):
    with engine.connect() as conn:
        rows = conn.execute(sa.select(tbl).order_by(tbl.c.id)).mappings().all()
    expect(len(rows), 2, "rows")
    compare_row(rows[0], ROW)
    compare_row(rows[1], NULL_ROW)


def where_params(engine, tbl):
    keys = ["c_bool", "c_int8", "c_numeric", "c_text", "c_bytea", "c_date", "c_timestamptz", "c_uuid"]
    cond = sa.and_(*[tbl.c[k] == ROW[k] for k in keys])
    with engine.connect() as conn:
        expect(conn.execute(sa.select(tbl.c.id).where(cond)).scalars().all(), [1], "ids")


def table_names(engine):
    names = sa.inspect(engine).get_table_names()
    if TABLE not in names:
        raise AssertionError(f"get_table_names() = {names}, want it to include {TABLE}")


def has_table(engine):
    insp = sa.inspect(engine)
    expect((insp.has_table(TABLE), insp.has_table("sqla_no_such_table")), (True, False), "has_table")


def columns(engine):
    cols = sa.inspect(engine).get_columns(TABLE)
    expect([c["name"] for c in cols], NAMES, "column names")
    diffs = []
    for c in cols:
        want = TYPES[c["name"]][0]
        if not isinstance(c["type"], want):
            diffs.append(f"{c['name']}: {c['type']!r}")
    by_name = {c["name"]: c for c in cols}
    numeric = by_name["c_numeric"]["type"]
    if (getattr(numeric, "precision", None), getattr(numeric, "scale", None)) != (10, 2):
        diffs.append(f"c_numeric: {numeric!r}, want NUMERIC(10, 2)")
    if by_name["c_timestamptz"]["type"].timezone is not True:
        diffs.append("c_timestamptz: timezone is not True")
    if by_name["c_timestamp"]["type"].timezone is not False:
        diffs.append("c_timestamp: timezone is not False")
    for name in ("c_int_array", "c_text_array"):
        item = by_name[name]["type"].item_type if isinstance(by_name[name]["type"], pg.ARRAY) else None
        want = pg.INTEGER if name == "c_int_array" else (pg.TEXT, pg.VARCHAR)
        if not isinstance(item, want):
            diffs.append(f"{name}: item type {item!r}")
    if by_name["id"]["nullable"] is not False:
        diffs.append("id: nullable, want NOT NULL (primary key)")
    if diffs:
        raise AssertionError("; ".join(diffs))


def pk_constraint(engine):
    pk = sa.inspect(engine).get_pk_constraint(TABLE)
    expect(pk["constrained_columns"], ["id"], "constrained_columns")


# The reflection tables: a parent, and a child with a primary key, a
# two-column unique constraint, an index on two columns in another order than
# the table's, a foreign key and a check constraint. The constraints are
# unnamed, so both servers name them as PostgreSQL does.
REFLECT_PARENT = "sqla_reflect_parent"
REFLECT = "sqla_reflect"
REFLECT_DDL = [
    f"DROP TABLE IF EXISTS {REFLECT}",
    f"DROP TABLE IF EXISTS {REFLECT_PARENT}",
    f"CREATE TABLE {REFLECT_PARENT} (id integer PRIMARY KEY, code text)",
    f"""CREATE TABLE {REFLECT} (id integer PRIMARY KEY,
        parent_id integer NOT NULL REFERENCES {REFLECT_PARENT} (id),
        a integer, b text, c integer CHECK (c > 0), UNIQUE (a, b))""",
    f"CREATE INDEX {REFLECT}_b_a_idx ON {REFLECT} (b, a)",
]


def reflect_schema(engine):
    with engine.begin() as conn:
        for stmt in REFLECT_DDL:
            conn.execute(sa.text(stmt))


def indexes(engine):
    """get_indexes splits indkey::varchar and indoption::varchar on spaces
    and joins pg_attribute ON attnum = ANY(indkey): each index's columns in
    index order, the unique constraint's index marked as its duplicate, the
    primary key's left out."""
    got = sorted(sa.inspect(engine).get_indexes(REFLECT), key=lambda i: i["name"])
    no_include = {"postgresql_include": []}
    expect(got, [
        {"name": f"{REFLECT}_a_b_key", "unique": True, "column_names": ["a", "b"], "include_columns": [],
         "duplicates_constraint": f"{REFLECT}_a_b_key", "dialect_options": no_include},
        {"name": f"{REFLECT}_b_a_idx", "unique": False, "column_names": ["b", "a"], "include_columns": [],
         "dialect_options": no_include},
    ], "get_indexes")


def unique_constraints(engine):
    got = sa.inspect(engine).get_unique_constraints(REFLECT)
    expect(got, [{"name": f"{REFLECT}_a_b_key", "column_names": ["a", "b"]}], "get_unique_constraints")


def foreign_keys(engine):
    got = sa.inspect(engine).get_foreign_keys(REFLECT)
    expect(got, [{"name": f"{REFLECT}_parent_id_fkey", "constrained_columns": ["parent_id"],
                  "referred_schema": None, "referred_table": REFLECT_PARENT, "referred_columns": ["id"],
                  "options": {}}], "get_foreign_keys")


def check_constraints(engine):
    got = sa.inspect(engine).get_check_constraints(REFLECT)
    expect(got, [{"name": f"{REFLECT}_c_check", "sqltext": "c > 0"}], "get_check_constraints")


def autoload(engine):
    """Table(..., autoload_with=engine) runs every Inspector method above and
    reflects the referenced table too."""
    metadata = sa.MetaData()
    tbl = sa.Table(REFLECT, metadata, autoload_with=engine)
    got = {
        "columns": [c.name for c in tbl.columns],
        "primary key": [c.name for c in tbl.primary_key],
        "foreign keys": sorted(fk.target_fullname for fk in tbl.foreign_keys),
        "indexes": sorted((i.name, i.unique, [c.name for c in i.columns]) for i in tbl.indexes),
        "unique constraints": sorted((u.name, [c.name for c in u.columns])
                                     for u in tbl.constraints if isinstance(u, sa.UniqueConstraint)),
        "check constraints": sorted(str(k.sqltext) for k in tbl.constraints if isinstance(k, sa.CheckConstraint)),
        "tables": sorted(metadata.tables),
    }
    expect(got, {
        "columns": ["id", "parent_id", "a", "b", "c"],
        "primary key": ["id"],
        "foreign keys": [f"{REFLECT_PARENT}.id"],
        "indexes": [(f"{REFLECT}_b_a_idx", False, ["b", "a"])],
        "unique constraints": [(f"{REFLECT}_a_b_key", ["a", "b"])],
        "check constraints": ["c > 0"],
        "tables": [REFLECT, REFLECT_PARENT],
    }, "reflected table")


def duplicate_key(engine, tbl):
    with engine.connect() as conn:
        expect_sqlstate("23505", conn.execute, tbl.insert(), {"id": 1})


def missing_table(engine):
    with engine.connect() as conn:
        expect_sqlstate("42P01", conn.execute, sa.text("SELECT * FROM sqla_no_such_table"))


def count(engine, tbl, row_id):
    with engine.connect() as conn:
        return conn.execute(sa.select(sa.func.count()).where(tbl.c.id == row_id)).scalar()


def transaction(engine, tbl):
    with engine.connect() as conn:
        tx = conn.begin()
        conn.execute(tbl.insert(), {"id": 100, "c_text": "rolled back"})
        expect(count(engine, tbl, 100), 0, "another connection sees uncommitted row")
        tx.rollback()
    expect(count(engine, tbl, 100), 0, "rows after rollback")
    with engine.begin() as conn:
        conn.execute(tbl.insert(), {"id": 101, "c_text": "committed"})
    expect(count(engine, tbl, 101), 1, "committed row")


def stream_results(engine):
    """stream_results reads through a server-side cursor (psycopg2's named
    cursor: DECLARE, then FETCH in batches), here with a bound parameter."""
    with engine.connect() as conn:
        result = conn.execution_options(stream_results=True, max_row_buffer=7).execute(
            sa.text("SELECT i, i * 2 AS twice FROM range(:n) t(i) ORDER BY i"), {"n": 30})
        rows = [tuple(r) for r in result]
    expect(rows, [(i, 2 * i) for i in range(30)], "rows")


def main():
    c = Checker(CLIENT)
    c.check("dialect init: select pg_catalog.version()", probe_version)
    c.check("dialect init: select current_schema()", probe_schema)
    c.check("dialect init: show transaction isolation level", probe_isolation)
    c.check("dialect init: show standard_conforming_strings", probe_scs)
    c.check("dialect init: hstore OID lookup", probe_hstore)
    engine = sa.create_engine(URL)
    tbl = table(sa.MetaData())
    c.check("engine connect", engine_connect, engine)
    c.check("MetaData.create_all", create, engine, tbl)
    c.check("SERIAL primary key with generated ids", serial_table, engine)
    c.check("insert with parameters (executemany)", insert, engine, tbl)
    c.check("select all types and NULLs back", select_rows, engine, tbl)
    c.check("parameters in WHERE", where_params, engine, tbl)
    c.check("Inspector.get_table_names", table_names, engine)
    c.check("Inspector.has_table", has_table, engine)
    c.check("Inspector.get_columns", columns, engine)
    c.check("Inspector.get_pk_constraint", pk_constraint, engine)
    c.check("reflection tables: primary, unique, foreign key, check, index", reflect_schema, engine)
    c.check("Inspector.get_indexes (indkey::varchar, = ANY(indkey))", indexes, engine)
    c.check("Inspector.get_unique_constraints", unique_constraints, engine)
    c.check("Inspector.get_foreign_keys", foreign_keys, engine)
    c.check("Inspector.get_check_constraints", check_constraints, engine)
    c.check("Table(autoload_with=engine)", autoload, engine)
    c.check("error 23505 duplicate primary key", duplicate_key, engine, tbl)
    c.check("error 42P01 missing table", missing_table, engine)
    c.check("transaction commit visible, rollback not", transaction, engine, tbl)
    c.check("stream_results (server-side cursor) with a parameter", stream_results, engine)
    engine.dispose()
    c.finish()


if __name__ == "__main__":
    main()
