package catalog_test

// sampleDDL is run on Mallard and on PostgreSQL alike: the catalog facts the
// tests compare come from it. Every column's type is one Mallard presents
// as PostgreSQL would (no varchar(n), whose length DuckDB does not keep, and
// no enum column, which Mallard presents as text).
var sampleDDL = []string{
	`CREATE TABLE parent (id integer PRIMARY KEY, code text UNIQUE NOT NULL, price numeric(10,2) DEFAULT 0, note text)`,
	`COMMENT ON TABLE parent IS 'parents'`,
	`COMMENT ON COLUMN parent.note IS 'free text'`,
	`CREATE TABLE child (id bigint PRIMARY KEY, parent_id integer REFERENCES parent(id), ts timestamp,
		tstz timestamptz, d date, f double precision, r real, b boolean, s smallint, tags integer[],
		u uuid, j json, bin bytea, iv interval, t time, CHECK (f > 0))`,
	`CREATE INDEX child_ts_idx ON child (ts, d)`,
	`CREATE VIEW parent_v AS SELECT id, code FROM parent`,
}
