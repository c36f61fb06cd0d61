#!/usr/bin/python3
"""psycopg2 against mallard: psycopg2 interpolates parameters on the client and
speaks only the simple query protocol, so this exercises how the server reads
Postgres literals (E'\\\\x..'::bytea, ARRAY[...], '...'::interval)."""

import collections
import logging

import psycopg2
import psycopg2.extensions
import psycopg2.extras

from scenario import (any_array_checks, description_numeric_typmod, description_types, COLUMNS, INTERVAL_PY, INTERVAL_SQL, NAMES, NULL_ROW, ROW,
                      Checker, compare_oids, compare_row, create_types_sql,
                      expect, expect_sqlstate, DBNAME, HOST, PORT, USER)

CLIENT = "psycopg2"
TABLE = "py2_types"
SENT = collections.deque(maxlen=1)


class _Recorder(logging.Handler):
    def emit(self, record):
        msg = record.msg
        if isinstance(msg, bytes):
            msg = msg.decode("utf-8", "backslashreplace")
        SENT.append(msg)


def last_sent():
    return ["sent: " + " ".join(str(s).split())[:2000] for s in SENT]


def connect():
    """A connection that records each statement it sends, as sent."""
    conn = psycopg2.connect(host=HOST, port=PORT, user=USER, dbname=DBNAME,
                            connection_factory=psycopg2.extras.LoggingConnection)
    logger = logging.getLogger("psycopg2.sent")
    logger.setLevel(logging.DEBUG)
    logger.propagate = False
    if not logger.handlers:
        logger.addHandler(_Recorder())
    conn.initialize(logger)
    return conn


def params(row):
    values = [row[name] for name in NAMES]
    if row["c_json"] is not None:
        values[NAMES.index("c_json")] = psycopg2.extras.Json(row["c_json"])
    return values


def create(conn):
    with conn.cursor() as cur:
        cur.execute(f"DROP TABLE IF EXISTS {TABLE}")
        cur.execute(create_types_sql(TABLE))


def insert(conn):
    marks = ", ".join(["%s"] * len(NAMES))
    with conn.cursor() as cur:
        cur.execute(f"INSERT INTO {TABLE} ({', '.join(NAMES)}) VALUES ({marks})", params(ROW))
        expect(cur.rowcount, 1, "rowcount")
        cur.executemany(f"INSERT INTO {TABLE} ({', '.join(NAMES)}) VALUES ({marks})", [params(NULL_ROW)])


def select_row(conn, row_id, want):
    with conn.cursor(cursor_factory=psycopg2.extras.RealDictCursor) as cur:
        cur.execute(f"SELECT {', '.join(NAMES)} FROM {TABLE} WHERE id = %s", (row_id,))
        rows = cur.fetchall()
    expect(len(rows), 1, "row count")
    compare_row(rows[0], want)


def description(conn):
    description_types(conn, TABLE)


def numeric_typmod(conn):
    description_numeric_typmod(conn, TABLE)


def where_params(conn):
    """Each parameter is compared with a stored value in the server."""
    keys = ["c_bool", "c_int8", "c_float8", "c_numeric", "c_text", "c_bytea", "c_date",
            "c_time", "c_timestamp", "c_timestamptz", "c_interval", "c_uuid", "c_int_array"]
    cond = " AND ".join(f"{k} = %s" for k in keys)
    with conn.cursor() as cur:
        cur.execute(f"SELECT id FROM {TABLE} WHERE {cond}", [ROW[k] for k in keys])
        expect(cur.fetchall(), [(1,)], "rows matching every parameter")


def any_arrays(conn):
    """A Python list as the array of = ANY(%s): psycopg2 inlines it as
    ARRAY[...] of literals."""
    def execute(sql, params):
        with conn.cursor() as cur:
            cur.execute(sql, params)
            return cur.fetchall()
    any_array_checks(execute, TABLE, "%s")


def interval_months(conn):
    with conn.cursor() as cur:
        cur.execute(f"SELECT {INTERVAL_SQL}")
        expect(cur.fetchone()[0], INTERVAL_PY, "interval")


def missing_table(conn):
    with conn.cursor() as cur:
        expect_sqlstate("42P01", cur.execute, "SELECT * FROM py2_no_such_table")


def duplicate_key(conn):
    with conn.cursor() as cur:
        expect_sqlstate("23505", cur.execute, f"INSERT INTO {TABLE} (id) VALUES (%s)", (1,))


def syntax_error(conn):
    with conn.cursor() as cur:
        expect_sqlstate("42601", cur.execute, "SELEC 1")


def aborted_transaction(conn):
    """After an error inside a transaction, Postgres refuses work with 25P02."""
    conn.autocommit = False
    try:
        with conn.cursor() as cur:
            expect_sqlstate("42P01", cur.execute, "SELECT * FROM py2_no_such_table")
            expect_sqlstate("25P02", cur.execute, "SELECT 1")
    finally:
        conn.rollback()
        conn.autocommit = True


def count(conn, where):
    with conn.cursor() as cur:
        cur.execute(f"SELECT count(*) FROM {TABLE} WHERE {where}")
        return cur.fetchone()[0]


def transaction(conn, other):
    """psycopg2's default: the first statement opens a transaction."""
    conn.autocommit = False
    try:
        with conn.cursor() as cur:
            cur.execute(f"INSERT INTO {TABLE} (id, c_text) VALUES (%s, %s)", (100, "rolled back"))
            expect(count(conn, "id = 100"), 1, "own uncommitted row")
            expect(count(other, "id = 100"), 0, "other session sees uncommitted row")
        conn.rollback()
        expect(count(conn, "id = 100"), 0, "rows after rollback")
        with conn.cursor() as cur:
            cur.execute(f"INSERT INTO {TABLE} (id, c_text) VALUES (%s, %s)", (101, "committed"))
        conn.commit()
        expect(count(other, "id = 101"), 1, "other session sees committed row")
    finally:
        conn.rollback()
        conn.autocommit = True


def named_cursor(conn):
    """A named cursor is DECLARE ... CURSOR plus FETCH FORWARD itersize."""
    conn.autocommit = False
    try:
        with conn.cursor(name="py2_big") as cur:
            cur.itersize = 100
            cur.execute("SELECT g, 'row ' || g FROM generate_series(1, 1000) AS s(g) ORDER BY g")
            got = list(cur)
        expect(len(got), 1000, "rows")
        expect(got[0], (1, "row 1"), "first row")
        expect(got[-1], (1000, "row 1000"), "last row")
        expect([r[0] for r in got], list(range(1, 1001)), "ids")
    finally:
        conn.rollback()
        conn.autocommit = True


def main():
    c = Checker(CLIENT, sent=last_sent)
    conn = c.check("connect", connect)
    other = c.check("connect a second session", connect)
    if conn is None or other is None:
        c.finish()
    conn.autocommit = True
    other.autocommit = True
    psycopg2.extras.register_uuid(conn_or_curs=conn)
    c.check("create table", create, conn)
    c.check("insert with parameters", insert, conn)
    c.check("select all types back", select_row, conn, 1, ROW)
    c.check("select NULLs back", select_row, conn, 2, NULL_ROW)
    c.check("cursor.description type OIDs", description, conn)
    c.check("cursor.description numeric precision/scale", numeric_typmod, conn)
    c.check("parameters in WHERE", where_params, conn)
    c.check("lists as = ANY(%s) parameters", any_arrays, conn)
    c.check("interval with years and months", interval_months, conn)
    c.check("error 42P01 missing table", missing_table, conn)
    c.check("error 23505 duplicate primary key", duplicate_key, conn)
    c.check("error 42601 syntax", syntax_error, conn)
    c.check("error 25P02 in failed transaction", aborted_transaction, conn)
    c.check("transaction commit visible, rollback not", transaction, conn, other)
    c.check("named cursor fetches 1000 rows by 100", named_cursor, conn)
    conn.close()
    other.close()
    c.finish()


if __name__ == "__main__":
    main()
