"""Shared pieces of the Python client scenarios: the connection settings, the
row every client writes and reads back, and a Checker that prints one line
per check ("PASS client: name" or "FAIL client: name: why") and exits non-zero
when any check failed.

The programs beside this file are run by scripts/test-clients.sh with the
system python3 (/usr/bin/python3), against a mallard server it started; the
connection comes from PGHOST, PGPORT, PGUSER and PGDATABASE.
"""

import os
import sys
import traceback
import uuid
from datetime import date, datetime, time, timedelta, timezone
from decimal import Decimal

HOST = os.environ.get("PGHOST", "127.0.0.1")
PORT = int(os.environ.get("PGPORT", "5433"))
USER = os.environ.get("PGUSER", "mallard")
DBNAME = os.environ.get("PGDATABASE", "mallard")

# COLUMNS lists the types table's columns: name, SQL type, and the OID
# PostgreSQL reports for a column of that type in RowDescription.
COLUMNS = [
    ("id", "integer PRIMARY KEY", 23),
    ("c_bool", "boolean", 16),
    ("c_int2", "smallint", 21),
    ("c_int4", "integer", 23),
    ("c_int8", "bigint", 20),
    ("c_float4", "real", 700),
    ("c_float8", "double precision", 701),
    ("c_numeric", "numeric(10,2)", 1700),
    ("c_text", "text", 25),
    ("c_varchar", "varchar(20)", 1043),
    ("c_bytea", "bytea", 17),
    ("c_date", "date", 1082),
    ("c_time", "time", 1083),
    ("c_timestamp", "timestamp", 1114),
    ("c_timestamptz", "timestamptz", 1184),
    ("c_interval", "interval", 1186),
    ("c_uuid", "uuid", 2950),
    ("c_json", "json", 114),
    ("c_int_array", "integer[]", 1007),
    ("c_text_array", "text[]", 1009),
]
NAMES = [c[0] for c in COLUMNS]

# STRING_OIDS: DuckDB has one string type, so a text and a varchar column are
# indistinguishable to the server; either string OID is accepted for both.
STRING_OIDS = {25, 1043}

# ROW is the fully populated row (id 1); row 2 has NULL in every other column.
ROW = {
    "id": 1,
    "c_bool": True,
    "c_int2": 32767,
    "c_int4": -2147483648,
    "c_int8": 9223372036854775807,
    "c_float4": 3.5,
    "c_float8": 2.718281828459045,
    "c_numeric": Decimal("12345678.90"),
    "c_text": 'héllo, "wörld" \\ 🦆',
    "c_varchar": "mallard",
    "c_bytea": bytes([0x00, 0x01, 0xDE, 0xAD, 0xBE, 0xEF, 0xFF]),
    "c_date": date(2024, 2, 29),
    "c_time": time(13, 45, 30, 123456),
    "c_timestamp": datetime(2024, 2, 29, 13, 45, 30, 123456),
    "c_timestamptz": datetime(2024, 2, 29, 13, 45, 30, 123456, tzinfo=timezone.utc),
    "c_interval": timedelta(days=3, hours=4, minutes=5, seconds=6, microseconds=500000),
    "c_uuid": uuid.UUID("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"),
    "c_json": {"a": [1, 2, {"b": None}], "c": "d"},
    "c_int_array": [1, None, -3],
    "c_text_array": ["plain", "with space", "with,comma", 'with "quote"', "", None],
}
NULL_ROW = {name: None for name in NAMES}

# ANY_COLUMNS are the columns a scenario compares with = ANY(parameter),
# passing a list that holds ROW's value and one other (issue 22: psycopg 3
# sends a list of strings untyped, and Postgres types it by the column).
ANY_COLUMNS = ["c_text", "c_varchar", "c_date", "c_numeric", "c_uuid", "c_bool", "c_int4", "c_float8"]
ANY_OTHER = {
    "c_text": "zz", "c_varchar": "zz", "c_date": date(2001, 1, 1), "c_numeric": Decimal("0.50"),
    "c_uuid": uuid.UUID("b0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"), "c_bool": False, "c_int4": 7, "c_float8": 0.5,
}


def any_array_checks(execute, table, marker):
    """execute(sql, params) returns the rows of name = ANY(marker) for each
    ANY_COLUMNS name with [ROW[name], ANY_OTHER[name]]: row 1 must match."""
    for name in ANY_COLUMNS:
        rows = execute(f"SELECT id FROM {table} WHERE {name} = ANY({marker}) ORDER BY id",
                       [[ROW[name], ANY_OTHER[name]]])
        expect([tuple(r) for r in rows], [(1,)], f"{name} = ANY({marker})")
NULL_ROW["id"] = 2

# A literal interval with months: Python drivers turn a year into 365 days and
# a month into 30 (they document it), so this is what they must return.
INTERVAL_SQL = "interval '1 year 2 months 3 days 04:05:06.5'"
INTERVAL_PY = timedelta(days=365 + 2 * 30 + 3, hours=4, minutes=5, seconds=6, microseconds=500000)


def create_types_sql(table):
    cols = ", ".join(f"{name} {typ}" for name, typ, _ in COLUMNS)
    return f"CREATE TABLE {table} ({cols})"


def normalise(value):
    """Returns value in a form that compares by content (memoryview to bytes)."""
    if isinstance(value, memoryview):
        return value.tobytes()
    return value


def compare_row(got, want):
    """Raises AssertionError naming every column whose value differs."""
    diffs = []
    for name in NAMES:
        g = normalise(got[name])
        w = want[name]
        if g != w or (w is not None and type(g) is not type(w)):
            diffs.append(f"{name}: got {g!r} ({type(g).__name__}), want {w!r}")
    if diffs:
        raise AssertionError("; ".join(diffs))


def compare_oids(got):
    """got maps column name to type OID; checks them against COLUMNS."""
    diffs = []
    for name, _, oid in COLUMNS:
        want = STRING_OIDS if oid in STRING_OIDS else {oid}
        if got.get(name) not in want:
            diffs.append(f"{name}: got OID {got.get(name)}, want {oid}")
    if diffs:
        raise AssertionError("; ".join(diffs))


def description_types(conn, table):
    """cursor.description reports each column's type OID (DB-API, both psycopgs)."""
    with conn.cursor() as cur:
        cur.execute(f"SELECT {', '.join(NAMES)} FROM {table} WHERE false")
        got = {col.name: col.type_code for col in cur.description}
    compare_oids(got)


def description_numeric_typmod(conn, table):
    """cursor.description reports numeric(10,2)'s precision and scale."""
    with conn.cursor() as cur:
        cur.execute(f"SELECT c_numeric FROM {table} WHERE false")
        col = cur.description[0]
    expect((col.precision, col.scale), (10, 2), "numeric(10,2) precision, scale")


def expect(got, want, what="value"):
    if got != want:
        raise AssertionError(f"{what}: got {got!r}, want {want!r}")


class Checker:
    """Runs named checks, prints one line for each, and counts failures."""

    def __init__(self, client, sent=None):
        self.client = client
        self.sent = sent  # optional: returns lines telling what was last sent
        self.failed = 0
        self.passed = 0

    def check(self, name, fn, *args):
        """Runs fn(*args); returns its result, or None when it raised."""
        try:
            result = fn(*args)
        except Exception as exc:  # every failure is reported, none is fatal
            self.failed += 1
            print(f"FAIL {self.client}: {name}: {describe(exc)}", flush=True)
            lines = details(exc)
            if self.sent is not None and not getattr(exc, "statement", None):
                lines.extend(self.sent())
            for line in lines:
                print(f"    {line}", flush=True)
            return None
        self.passed += 1
        print(f"PASS {self.client}: {name}", flush=True)
        return result

    def finish(self):
        sys.exit(1 if self.failed else 0)


def sqlstate_of(exc):
    """The SQLSTATE a driver error carries, looking through SQLAlchemy's wrapper."""
    for e in (exc, getattr(exc, "orig", None)):
        if e is None:
            continue
        code = getattr(e, "sqlstate", None) or getattr(e, "pgcode", None)
        if code:
            return code
    return None


def describe(exc):
    text = str(getattr(exc, "orig", None) or exc).strip().splitlines()
    first = text[0] if text else type(exc).__name__
    code = sqlstate_of(exc)
    prefix = type(exc).__name__
    return f"{prefix}: {first}" + (f" [SQLSTATE {code}]" if code else "")


def details(exc):
    """Extra lines for a failure: the statement a driver sent, and where an
    unexpected Python error came from."""
    lines = []
    stmt = getattr(exc, "statement", None)
    if stmt:
        lines.append("sql: " + " ".join(str(stmt).split())[:2000])
    orig = getattr(exc, "orig", None) or exc
    full = str(orig).strip().splitlines()
    lines.extend(full[1:6])
    if not isinstance(exc, AssertionError) and sqlstate_of(exc) is None:
        tb = traceback.extract_tb(exc.__traceback__)
        lines.extend(f"at {f.filename}:{f.lineno} {f.line}" for f in tb[-3:])
    return lines


def expect_sqlstate(want, fn, *args):
    """Runs fn(*args), which must fail with SQLSTATE want."""
    try:
        fn(*args)
    except Exception as exc:
        got = sqlstate_of(exc)
        if got != want:
            raise AssertionError(f"got SQLSTATE {got} ({describe(exc)}), want {want}") from None
        return
    raise AssertionError(f"no error, want SQLSTATE {want}")
