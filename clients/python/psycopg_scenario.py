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
    conn.close()
    other.close()
    TRACE.close()
    os.unlink(TRACE.name)
    c.finish()


if __name__ == "__main__":
    main()
