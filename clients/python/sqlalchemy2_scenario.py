#!/usr/bin/python3
"""SQLAlchemy 2 on psycopg 3 (postgresql+psycopg) against mallard: the
dialect's first connect (which looks up hstore inside a savepoint), bind
parameters bound by the server, results streamed through a server-side
cursor (stream_results, yield_per, partitions), and nested transactions
(begin_nested, a SAVEPOINT) around a statement that fails.

Debian bookworm's python3-sqlalchemy is 1.4, which has no psycopg 3
dialect; scripts/install-deps.sh unpacks Debian trixie's SQLAlchemy 2 (pure
Python) and its typing_extensions into .deps/python, which
scripts/test-clients.sh puts on PYTHONPATH for this scenario only."""

import psycopg
import sqlalchemy as sa

from scenario import Checker, expect, expect_sqlstate, DBNAME, HOST, PORT, USER

CLIENT = "sqlalchemy2"
URL = f"postgresql+psycopg://{USER}@{HOST}:{PORT}/{DBNAME}"
ROWS = 100_000


def version():
    major = int(sa.__version__.split(".")[0])
    if major < 2:
        raise AssertionError(f"SQLAlchemy {sa.__version__}, want 2.x (the psycopg 3 dialect)")


def first_connect(engine):
    """The dialect's initialize runs psycopg's TypeInfo.fetch('hstore') in a
    savepoint; it must find no hstore and leave the connection usable."""
    with engine.connect() as conn:
        expect(conn.execute(sa.text("SELECT 1")).scalar(), 1, "SELECT 1")
        expect(engine.dialect._has_native_hstore, False, "dialect sees hstore")


def server_binds(engine):
    """psycopg 3 binds on the server: each value comes back with its type."""
    with engine.connect() as conn:
        got = conn.execute(sa.text("SELECT count(*) AS n, max(g) AS top FROM range(:n) t(g) WHERE g >= :lo"),
                           {"n": 50, "lo": 10}).one()
        expect((got.n, got.top), (40, 49), "count, max")
        expect(type(got.n), int, "type of count(*)")
        got = conn.execute(sa.text("SELECT :word || '!' AS w, :x * 2.0 AS d"), {"word": "hi", "x": 1.25}).one()
        expect((got.w, got.d), ("hi!", 2.5), "text and float parameters")


def stream(engine):
    """stream_results declares a server-side cursor (psycopg's ServerCursor)
    and fetches it in batches; every row arrives once, in order."""
    with engine.connect() as conn:
        result = conn.execution_options(stream_results=True, max_row_buffer=1000).execute(
            sa.text("SELECT g, g * 2 AS twice FROM range(:n) t(g) ORDER BY g"), {"n": ROWS})
        if not isinstance(result.cursor, psycopg.ServerCursor):
            raise AssertionError(f"cursor is {type(result.cursor).__name__}, want ServerCursor")
        parts, count, total, last = 0, 0, 0, -1
        for part in result.partitions(7_000):
            parts += 1
            for g, twice in part:
                if g != last + 1 or twice != 2 * g:
                    raise AssertionError(f"row {g}, {twice} after {last}")
                last, count, total = g, count + 1, total + g
        expect((parts, count, total), (15, ROWS, ROWS * (ROWS - 1) // 2), "partitions, rows, sum")


def yield_per(engine):
    """yield_per streams too, and the cursor may be left before its end."""
    with engine.connect() as conn:
        result = conn.execution_options(yield_per=500).execute(sa.text("SELECT g FROM range(:n) t(g)"), {"n": ROWS})
        first = [row.g for _, row in zip(range(1200), result)]
        result.close()
        expect(first[:3] + first[-1:], [0, 1, 2, 1199], "first rows")
        expect(conn.execute(sa.text("SELECT 2")).scalar(), 2, "the connection after closing the cursor")


def nested(engine):
    """begin_nested is a SAVEPOINT: a failing statement inside it is rolled
    back to the savepoint and the outer transaction commits what came before."""
    with engine.begin() as conn:
        conn.execute(sa.text("DROP TABLE IF EXISTS sa2_nested"))
        conn.execute(sa.text("CREATE TABLE sa2_nested (v INTEGER)"))
    with engine.begin() as conn:
        conn.execute(sa.text("INSERT INTO sa2_nested VALUES (1)"))
        try:
            with conn.begin_nested():
                conn.execute(sa.text("SELECT * FROM sa2_no_such_table"))
        except sa.exc.ProgrammingError as exc:
            expect(exc.orig.sqlstate, "42P01", "SQLSTATE of the failed statement")
        else:
            raise AssertionError("no error from a missing table")
        conn.execute(sa.text("INSERT INTO sa2_nested VALUES (2)"))
    with engine.connect() as conn:
        expect(conn.execute(sa.text("SELECT list(v ORDER BY v) FROM sa2_nested")).scalar(), [1, 2], "rows kept")


def nested_refused(engine):
    """A savepoint that would have to undo an INSERT cannot be honoured
    (DuckDB has no savepoints): 0A000, and the outer transaction commits
    nothing."""
    def run():
        with engine.begin() as conn:
            conn.execute(sa.text("INSERT INTO sa2_nested VALUES (3)"))
            nested_tx = conn.begin_nested()
            conn.execute(sa.text("INSERT INTO sa2_nested VALUES (4)"))
            nested_tx.rollback()
    expect_sqlstate("0A000", run)
    with engine.connect() as conn:
        expect(conn.execute(sa.text("SELECT count(*) FROM sa2_nested")).scalar(), 2, "rows after the refusal")


def main():
    c = Checker(CLIENT)
    c.check("SQLAlchemy 2", version)
    engine = sa.create_engine(URL)
    c.check("first connect (hstore lookup in a savepoint)", first_connect, engine)
    c.check("bind parameters bound by the server", server_binds, engine)
    c.check("stream_results over a server-side cursor", stream, engine)
    c.check("yield_per, closed early", yield_per, engine)
    c.check("begin_nested around a failing statement", nested, engine)
    c.check("begin_nested that would undo an insert: 0A000", nested_refused, engine)
    engine.dispose()
    c.finish()


if __name__ == "__main__":
    main()
