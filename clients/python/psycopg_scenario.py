#!/usr/bin/python3
"""psycopg 3 against mallard: server-side parameters in the extended protocol,
sent in binary (%b) and read back both in binary and in text, prepared
statements, pipelined executemany, COPY, and psycopg's TypeInfo lookup."""

import os
import tempfile

import psycopg
from psycopg import pq
from psycopg.types import TypeInfo
from psycopg.types.json import Json

from scenario import (any_array_checks, description_numeric_typmod, description_types, INTERVAL_PY, INTERVAL_SQL, NAMES, NULL_ROW, ROW, Checker,
                      compare_oids, compare_row, create_types_sql, expect,
                      expect_sqlstate, DBNAME, HOST, PORT, USER)

CLIENT = "psycopg"
TABLE = "py3_types"
TRACE = tempfile.NamedTemporaryFile(prefix="psycopg-trace-", suffix=".log", delete=False)


def last_sent():
    """The last protocol messages of the traced connection, as libpq logged them."""
    TRACE.flush()
    with open(TRACE.name, encoding="utf-8", errors="backslashreplace") as f:
        lines = f.read().splitlines()
    return ["wire: " + line.replace("\t", " ")[:600] for line in lines[-12:]]


def connect(trace=False):
    conn = psycopg.connect(host=HOST, port=PORT, user=USER, dbname=DBNAME, autocommit=True)
    if trace:
        conn.pgconn.trace(TRACE.fileno())
        conn.pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS)
    return conn


def params(row):
    values = [row[name] for name in NAMES]
    if row["c_json"] is not None:
        values[NAMES.index("c_json")] = Json(row["c_json"])
    return values


def create(conn):
    conn.execute(f"DROP TABLE IF EXISTS {TABLE}")
    conn.execute(create_types_sql(TABLE))


def insert(conn):
    marks = ", ".join(["%b"] * len(NAMES))
    with conn.cursor() as cur:
        cur.execute(f"INSERT INTO {TABLE} ({', '.join(NAMES)}) VALUES ({marks})", params(ROW))
        expect(cur.rowcount, 1, "rowcount")
        cur.execute(f"INSERT INTO {TABLE} ({', '.join(NAMES)}) VALUES ({marks})", params(NULL_ROW))


def select_row(conn, row_id, want, binary):
    with conn.cursor(row_factory=psycopg.rows.dict_row) as cur:
        cur.execute(f"SELECT {', '.join(NAMES)} FROM {TABLE} WHERE id = %b", (row_id,), binary=binary)
        rows = cur.fetchall()
    expect(len(rows), 1, "row count")
    compare_row(rows[0], want)


def description(conn):
    description_types(conn, TABLE)


def numeric_typmod(conn):
    description_numeric_typmod(conn, TABLE)


def select_params(conn):
    """Parameters that come back as result columns keep their value and type."""
    keys = ["c_bool", "c_int8", "c_float8", "c_numeric", "c_text", "c_bytea", "c_date",
            "c_time", "c_timestamp", "c_timestamptz", "c_interval", "c_uuid", "c_int_array",
            "c_text_array"]
    marks = ", ".join("%b" for _ in keys)
    with conn.cursor() as cur:
        cur.execute(f"SELECT {marks}", [ROW[k] for k in keys], binary=True)
        row = cur.fetchone()
    got = [normal(v) for v in row]
    expect(got, [ROW[k] for k in keys], "parameters echoed")


def normal(v):
    return v.tobytes() if isinstance(v, memoryview) else v


def where_params(conn):
    """psycopg sends a list of small ints as int2[], which Postgres does not
    compare with integer[] without the cast."""
    keys = ["c_bool", "c_int8", "c_float8", "c_numeric", "c_text", "c_bytea", "c_date",
            "c_time", "c_timestamp", "c_timestamptz", "c_interval", "c_uuid", "c_int_array"]
    cond = " AND ".join(f"{k} = %b" for k in keys).replace("c_int_array = %b", "c_int_array = %b::integer[]")
    rows = conn.execute(f"SELECT id FROM {TABLE} WHERE {cond}", [ROW[k] for k in keys]).fetchall()
    expect(rows, [(1,)], "rows matching every parameter")


def any_arrays(conn, marker):
    """A Python list as the array of = ANY(%s): psycopg sends a list of
    strings untyped in text, other lists with their array type; %b sends
    every list typed, in binary."""
    any_array_checks(lambda sql, params: conn.execute(sql, params).fetchall(), TABLE, marker)


def interval_months(conn, binary):
    cur = conn.cursor(binary=binary)
    expect(cur.execute(f"SELECT {INTERVAL_SQL}").fetchone()[0], INTERVAL_PY, "interval")


def prepared(conn):
    """psycopg prepares a query on the server once it has run prepare_threshold
    (5) times; ten runs with changing parameters each return their own row."""
    conn.execute("DROP TABLE IF EXISTS py3_prep")
    conn.execute("CREATE TABLE py3_prep (id integer PRIMARY KEY, label text, ts timestamptz)")
    base = ROW["c_timestamptz"]
    with conn.cursor() as cur:
        cur.executemany("INSERT INTO py3_prep VALUES (%b, %b, %b)",
                        [(i, f"label {i}", base.replace(minute=i)) for i in range(1, 11)])
    for i in range(1, 11):
        row = conn.execute("SELECT id, label, ts, %b::bigint * id FROM py3_prep WHERE id = %b",
                           (1000, i), binary=True).fetchone()
        expect(row, (i, f"label {i}", base.replace(minute=i), 1000 * i), f"run {i}")


def ddl_after_prepare(conn):
    """After DDL psycopg drops its prepared statements with DEALLOCATE ALL,
    sent before the next statement; that statement must then run."""
    conn.execute("DROP TABLE IF EXISTS py3_gone")
    expect(conn.execute("SELECT 42").fetchone(), (42,), "statement after DDL")


def executemany_count(conn):
    expect(conn.execute("SELECT count(*), sum(id) FROM py3_prep").fetchone(), (10, 55), "count, sum")


def copy_roundtrip():
    with connect() as conn:
        copy_rows(conn)


def copy_rows(conn):
    conn.execute("DROP TABLE IF EXISTS py3_copy")
    conn.execute("CREATE TABLE py3_copy (id integer, name text, day date)")
    rows = [(1, "tab\there", ROW["c_date"]), (2, None, None), (3, "back\\slash", ROW["c_date"])]
    with conn.cursor() as cur:
        with cur.copy("COPY py3_copy (id, name, day) FROM STDIN") as copy:
            for r in rows:
                copy.write_row(r)
        got = []
        with cur.copy("COPY (SELECT id, name, day FROM py3_copy ORDER BY id) TO STDOUT") as copy:
            copy.set_types(["int4", "text", "date"])
            got = list(copy.rows())
    expect(got, rows, "rows")


def type_info(conn):
    info = TypeInfo.fetch(conn, "uuid")
    if info is None:
        raise AssertionError("TypeInfo.fetch(conn, 'uuid') found nothing")
    expect((info.oid, info.array_oid), (2950, 2951), "uuid oid, array oid")


def errors(conn, sql, code):
    expect_sqlstate(code, conn.execute, sql)


def aborted_transaction(conn):
    try:
        with conn.transaction():
            expect_sqlstate("42P01", conn.execute, "SELECT * FROM py3_no_such_table")
            expect_sqlstate("25P02", conn.execute, "SELECT 1")
            raise _Rollback
    except _Rollback:
        pass


class _Rollback(Exception):
    pass


def count(conn, where):
    return conn.execute(f"SELECT count(*) FROM {TABLE} WHERE {where}").fetchone()[0]


def transaction(conn, other):
    try:
        with conn.transaction():
            conn.execute(f"INSERT INTO {TABLE} (id, c_text) VALUES (%b, %b)", (100, "rolled back"))
            expect(count(conn, "id = 100"), 1, "own uncommitted row")
            expect(count(other, "id = 100"), 0, "other session sees uncommitted row")
            raise _Rollback
    except _Rollback:
        pass
    expect(count(conn, "id = 100"), 0, "rows after rollback")
    with conn.transaction():
        conn.execute(f"INSERT INTO {TABLE} (id, c_text) VALUES (%b, %b)", (101, "committed"))
    expect(count(other, "id = 101"), 1, "other session sees committed row")


def mallard_setup(conn):
    """A small long table and its wide pivot, which the Mallard checks train on."""
    conn.execute("DROP TABLE IF EXISTS py3_sales")
    conn.execute("DROP TABLE IF EXISTS py3_wide")
    conn.execute("DROP TABLE IF EXISTS py3_ratings")
    conn.execute("""CREATE TABLE py3_sales AS SELECT i // 3 AS period, 'e' || (i % 3) AS entity,
                    sin(i // 3 * 0.7 + i % 3) * 10 + i % 5 AS units FROM range(150) t(i)""")
    conn.execute("""CREATE TABLE py3_wide AS SELECT * FROM pivot_entity_time('py3_sales', entity := 'entity',
                    time := 'period', value := 'units')""")
    conn.execute("""CREATE TABLE py3_ratings AS SELECT i % 20 AS user_id, (i * 7) % 30 AS item_id,
                    (i % 5 + 1)::double AS rating FROM range(600) t(i) WHERE i < 600""")


def train_gat_params(conn, prepare):
    """train_gat with its source, model and epochs as bind parameters."""
    model = "py3_gat_prep" if prepare else "py3_gat"
    rows = conn.execute("SELECT epoch, train_mse FROM train_gat(%s, model := %s, epochs := %s, window := 4, season := 1)",
                        ("py3_wide", model, 2), prepare=prepare).fetchall()
    expect([r[0] for r in rows], [1, 2], "epochs")


def forecast_params(conn, prepare):
    """The statement of the issue: forecast's model as a parameter."""
    with conn.cursor() as cur:
        cur.execute("SELECT step, entity, prediction FROM forecast(%s, steps := 1)", ("py3_gat",), prepare=prepare)
        rows = cur.fetchall()
        expect([d.name for d in cur.description], ["step", "entity", "prediction"], "columns")
    expect(sorted(r[1] for r in rows), ["e0", "e1", "e2"], "entities")
    expect(all(isinstance(r[2], float) for r in rows), True, "predictions are floats")


def describe_before_bind(conn):
    """A statement described before any Bind (libpq's PQprepare, then
    PQdescribePrepared: Parse, then Describe and Sync): forecast with its steps
    as a parameter has the columns and types its rows will have; with its model
    as a parameter, on whose value its columns depend, it has none until a
    portal of it is described."""
    pg = conn.pgconn
    pg.prepare(b"py3_described", b"SELECT * FROM forecast('py3_gat', steps := $1::int)")
    res = pg.describe_prepared(b"py3_described")
    described = [(res.fname(i).decode(), res.ftype(i)) for i in range(res.nfields)]
    expect((res.nparams, res.param_type(0)), (1, 23), "one int4 parameter")
    expect(described[:4], [("step", 20), ("period", 20), ("entity", 25), ("prediction", 701)], "columns before Bind")
    with conn.cursor() as cur:
        cur.execute("SELECT * FROM forecast('py3_gat', steps := %s::int)", (2,))
        expect([(d.name, d.type_code) for d in cur.description], described, "the rows' columns")
        expect(len(cur.fetchall()), 6, "rows")
    pg.prepare(b"py3_undescribed", b"SELECT * FROM forecast($1, steps := 1)")
    expect(pg.describe_prepared(b"py3_undescribed").nfields, 0, "no columns while they depend on the model")
    conn.execute("DEALLOCATE py3_described")
    conn.execute("DEALLOCATE py3_undescribed")


def forecast_star_params(conn):
    """forecast's time column is the model's: Describe of the portal has it."""
    with conn.cursor() as cur:
        cur.execute("SELECT * FROM forecast(%s, steps := %s)", ("py3_gat", 2))
        rows = cur.fetchall()
        expect([d.name for d in cur.description][:4], ["step", "period", "entity", "prediction"], "columns")
    expect(sorted({r[1] for r in rows}), [50, 51], "periods")


def count_typed(conn):
    row = conn.execute("SELECT count(*) FROM forecast(%s, steps := 1)", ("py3_gat",)).fetchone()
    expect(row, (3,), "count(*) as an int")


def recommend_params(conn):
    conn.execute("""SELECT count(*) FROM train_recommender('py3_ratings', model := 'py3_rec', user := 'user_id',
                    item := 'item_id', epochs := 2, duplicates := 'avg')""")
    rows = conn.execute("SELECT rank, item, score FROM recommend('py3_rec', user_id := %s::int, k := %s)", (3, 2)).fetchall()
    expect([r[0] for r in rows], [1, 2], "ranks")
    rows = conn.execute("SELECT rank, item FROM recommend_for('py3_rec', history := %s, k := 2)", ([1, 2],)).fetchall()
    expect([r[0] for r in rows], [1, 2], "ranks from a history list")


def pivot_params(conn):
    rows = conn.execute("""SELECT * FROM pivot_entity_time('py3_sales', entity := 'entity', time := 'period',
                           value := %s) ORDER BY period LIMIT 2""", ("units",)).fetchall()
    expect([(r[0], len(r)) for r in rows], [(0, 4), (1, 4)], "period and three entity columns")


def named_cursor(prepare_params):
    """A server-side cursor read itersize rows at a time (DECLARE, then FETCH);
    its query may take parameters."""
    with psycopg.connect(host=HOST, port=PORT, user=USER, dbname=DBNAME) as conn:
        with conn.cursor("py3_cc") as cur:
            cur.itersize = 7
            if prepare_params:
                cur.execute("SELECT i, i * 2 AS twice FROM range(%s) t(i) ORDER BY i", (20,))
            else:
                cur.execute("SELECT i, i * 2 AS twice FROM range(20) t(i) ORDER BY i")
            rows = list(cur)
            expect([d.name for d in cur.description], ["i", "twice"], "columns")
        expect(rows, [(i, 2 * i) for i in range(20)], "rows")
        with conn.cursor("py3_cf") as cur:
            cur.execute("SELECT entity, prediction FROM forecast(%s, steps := 1)", ("py3_gat",))
            expect(len(cur.fetchmany(2)) + len(cur.fetchall()), 3, "forecast rows through a named cursor")


def named_cursor_pg_cursors():
    """pg_cursors lists an open named cursor; a named cursor whose query
    fails is closed by psycopg after it asks pg_cursors whether the cursor
    exists, and the connection works after the rollback."""
    with psycopg.connect(host=HOST, port=PORT, user=USER, dbname=DBNAME) as conn:
        with conn.cursor("Py3_Listed") as cur:
            cur.execute("SELECT i FROM range(3) t(i)")
            listed = conn.execute("SELECT name, is_holdable, is_scrollable FROM pg_cursors").fetchall()
            expect(listed, [("Py3_Listed", False, False)], "pg_cursors while the cursor is open")
            expect(cur.fetchall(), [(0,), (1,), (2,)], "rows of the quoted, mixed-case cursor name")
        try:
            with conn.cursor("py3_bad") as cur:
                cur.execute("SELECT * FROM py3_no_such_table")
        except psycopg.errors.UndefinedTable:
            pass
        else:
            raise AssertionError("no error from a missing table")
        conn.rollback()
        expect(conn.execute("SELECT count(*) FROM pg_cursors").fetchone(), (0,), "cursors after the rollback")


def pandas_params(conn):
    import warnings
    import pandas as pd
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # pandas prefers SQLAlchemy; a DBAPI connection works
        df = pd.read_sql("SELECT step, entity, prediction FROM forecast(%s, steps := 1)", conn, params=("py3_gat",))
        expect((list(df.columns), len(df), str(df["prediction"].dtype)), (["step", "entity", "prediction"], 3, "float64"),
               "columns, rows, dtype")
        chunks = list(pd.read_sql("SELECT i FROM range(%s) t(i)", conn, params=(25,), chunksize=10))
        expect([len(c) for c in chunks], [10, 10, 5], "chunk sizes")


def main():
    c = Checker(CLIENT, sent=last_sent)
    conn = c.check("connect", connect, True)
    other = c.check("connect a second session", connect)
    if conn is None or other is None:
        c.finish()
    c.check("create table", create, conn)
    c.check("insert with binary parameters", insert, conn)
    c.check("select all types back (text results)", select_row, conn, 1, ROW, False)
    c.check("select all types back (binary results)", select_row, conn, 1, ROW, True)
    c.check("select NULLs back (text results)", select_row, conn, 2, NULL_ROW, False)
    c.check("select NULLs back (binary results)", select_row, conn, 2, NULL_ROW, True)
    c.check("cursor.description type OIDs", description, conn)
    c.check("cursor.description numeric precision/scale", numeric_typmod, conn)
    c.check("binary parameters as result columns", select_params, conn)
    c.check("binary parameters in WHERE", where_params, conn)
    c.check("lists as = ANY(%s) parameters (text)", any_arrays, conn, "%s")
    c.check("lists as = ANY(%b) parameters (binary)", any_arrays, conn, "%b")
    c.check("interval with years and months (text)", interval_months, conn, False)
    c.check("interval with years and months (binary)", interval_months, conn, True)
    c.check("prepared statement run 10 times", prepared, conn)
    c.check("pipelined executemany", executemany_count, conn)
    c.check("statement after DDL once statements are prepared", ddl_after_prepare, conn)
    c.check("COPY FROM STDIN / TO STDOUT", copy_roundtrip)
    c.check("TypeInfo.fetch", type_info, conn)
    c.check("error 42P01 missing table", errors, conn, "SELECT * FROM py3_no_such_table", "42P01")
    c.check("error 23505 duplicate primary key", errors, conn,
            f"INSERT INTO {TABLE} (id) VALUES (1)", "23505")
    c.check("error 42601 syntax", errors, conn, "SELEC 1", "42601")
    c.check("error 25P02 in failed transaction", aborted_transaction, conn)
    c.check("transaction commit visible, rollback not", transaction, conn, other)
    c.check("Mallard: setup", mallard_setup, conn)
    c.check("Mallard: train_gat with bind parameters", train_gat_params, conn, False)
    c.check("Mallard: train_gat with bind parameters, prepared", train_gat_params, conn, True)
    c.check("Mallard: forecast with a bind parameter", forecast_params, conn, False)
    c.check("Mallard: forecast with a bind parameter, prepared", forecast_params, conn, True)
    c.check("Mallard: forecast's time column with bind parameters", forecast_star_params, conn)
    c.check("Mallard: forecast described before Bind", describe_before_bind, conn)
    c.check("Mallard: count(*) over forecast is an int", count_typed, conn)
    c.check("Mallard: recommend and recommend_for with bind parameters", recommend_params, conn)
    c.check("Mallard: pivot_entity_time with a bind parameter", pivot_params, conn)
    c.check("Mallard: pandas read_sql with params, and chunksize", pandas_params, conn)
    c.check("named cursor with itersize", named_cursor, False)
    c.check("named cursor with itersize and a bind parameter", named_cursor, True)
    c.check("named cursors in pg_cursors, and one whose query failed", named_cursor_pg_cursors)
    conn.close()
    other.close()
    TRACE.close()
    os.unlink(TRACE.name)
    c.finish()


if __name__ == "__main__":
    main()
