#!/usr/bin/python3
"""pandas against mallard through a SQLAlchemy engine (postgresql+psycopg2):
read_sql into a DataFrame with the dtypes pandas gives Postgres columns, and
DataFrame.to_sql back into a new table."""

import numpy as np
import pandas as pd
import sqlalchemy as sa

from scenario import (NAMES, NULL_ROW, ROW, Checker, create_types_sql, expect,
                      DBNAME, HOST, PORT, USER)

CLIENT = "pandas"
TABLE = "pd_types"
URL = f"postgresql+psycopg2://{USER}@{HOST}:{PORT}/{DBNAME}"

# DTYPES: what read_sql makes of each column of the fully populated row
# (coerce_float, its default, turns numeric's Decimals into float64).
DTYPES = {
    "id": "int64", "c_bool": "bool", "c_int2": "int64", "c_int4": "int64", "c_int8": "int64",
    "c_float4": "float64", "c_float8": "float64", "c_numeric": "float64", "c_text": "object",
    "c_varchar": "object", "c_bytea": "object", "c_date": "object", "c_time": "object",
    "c_timestamp": "datetime64[ns]", "c_timestamptz": "datetime64[ns, UTC]",
    "c_interval": "timedelta64[ns]", "c_uuid": "object", "c_json": "object",
    "c_int_array": "object", "c_text_array": "object",
}


def setup(engine):
    """Creates and fills pd_types with bound parameters (psycopg2 %(name)s)."""
    with engine.begin() as conn:
        conn.execute(sa.text(f"DROP TABLE IF EXISTS {TABLE}"))
        conn.execute(sa.text(create_types_sql(TABLE)))
        cols = ", ".join(NAMES)
        binds = ", ".join(f":{n}" for n in NAMES)
        stmt = sa.text(f"INSERT INTO {TABLE} ({cols}) VALUES ({binds})").bindparams(
            sa.bindparam("c_json", type_=sa.JSON()))
        conn.execute(stmt, [ROW, NULL_ROW])


def read_dtypes(engine):
    df = pd.read_sql(f"SELECT {', '.join(NAMES)} FROM {TABLE} WHERE id = 1", engine)
    got = {name: str(dtype) for name, dtype in df.dtypes.items()}
    diffs = [f"{n}: {got.get(n)}, want {want}" for n, want in DTYPES.items() if got.get(n) != want]
    if diffs:
        raise AssertionError("; ".join(diffs))


def read_values(engine):
    df = pd.read_sql(f"SELECT {', '.join(NAMES)} FROM {TABLE} WHERE id = 1", engine)
    row = df.iloc[0]
    want = dict(ROW)
    want["c_timestamp"] = pd.Timestamp(ROW["c_timestamp"])
    want["c_timestamptz"] = pd.Timestamp(ROW["c_timestamptz"])
    want["c_interval"] = pd.Timedelta(ROW["c_interval"])
    want["c_numeric"] = float(ROW["c_numeric"])
    diffs = []
    for name in NAMES:
        got = row[name]
        if isinstance(got, memoryview):
            got = got.tobytes()
        if isinstance(got, np.generic):
            got = got.item()
        if got != want[name]:
            diffs.append(f"{name}: got {got!r}, want {want[name]!r}")
    if diffs:
        raise AssertionError("; ".join(diffs))


def read_nulls(engine):
    df = pd.read_sql(f"SELECT {', '.join(NAMES)} FROM {TABLE} WHERE id = 2", engine)
    row = df.iloc[0]
    not_null = [n for n in NAMES if n != "id" and not pd.isna(row[n])]
    if not_null:
        raise AssertionError(f"not null: {not_null}")


def read_many(engine):
    """pandas hands the text to psycopg2 with a parameter dict, so % is %%."""
    df = pd.read_sql("SELECT g AS n, g * 0.5 AS half, 'k' || (g %% 3) AS key "
                     "FROM generate_series(1, 1000) AS s(g) ORDER BY g", engine)
    expect(len(df), 1000, "rows")
    expect(int(df["n"].sum()), 500500, "sum of n")
    expect(df.groupby("key")["n"].count().to_dict(), {"k0": 333, "k1": 334, "k2": 333}, "groups")


def to_sql(engine):
    df = pd.DataFrame({
        "n": np.arange(1, 6, dtype="int64"),
        "x": [0.5, 1.5, np.nan, 3.5, 4.5],
        "name": ["a", "b", None, "d", "e"],
        "flag": [True, False, True, False, True],
        "seen_at": pd.to_datetime(["2024-02-29 13:45:30.123456"] * 5, utc=True),
    })
    df.to_sql("pd_out", engine, index=False, if_exists="replace")
    back = pd.read_sql("SELECT n, x, name, flag, seen_at FROM pd_out ORDER BY n", engine)
    pd.testing.assert_frame_equal(back, df, check_dtype=True)


def main():
    c = Checker(CLIENT)
    engine = sa.create_engine(URL)
    c.check("create and fill table through the engine", setup, engine)
    c.check("read_sql dtypes", read_dtypes, engine)
    c.check("read_sql values", read_values, engine)
    c.check("read_sql NULLs", read_nulls, engine)
    c.check("read_sql 1000 rows", read_many, engine)
    c.check("DataFrame.to_sql and read back", to_sql, engine)
    engine.dispose()
    c.finish()


if __name__ == "__main__":
    main()
