package catalog_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/mallard/mallard/storage"
)

func TestScratchAlias(t *testing.T) {
	ctx := context.Background()
	db, err := storage.Open(ctx, storage.Config{Path: storage.MemoryPath}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close(ctx)
	for _, q := range []string{
		"ATTACH ':memory:' AS mallard_catalog",
		"CREATE SCHEMA mallard_catalog.pg",
		"CREATE TYPE mallard_catalog.pg.int2vector AS SMALLINT[]",
		"CREATE TYPE mallard_catalog.pg.oid AS BIGINT",
		"USE mallard_catalog.pg",
		"CREATE VIEW v AS SELECT CAST([1,2] AS int2vector) AS k, CAST(5 AS oid) AS o",
		"CREATE VIEW v2 AS SELECT CAST([1,2] AS int2vector) AS k, CAST(5 AS oid) AS o UNION ALL SELECT [3]::int2vector, 6::oid",
		"CREATE VIEW v3 AS SELECT CASE WHEN true THEN CAST(5 AS oid) ELSE NULL END AS o, coalesce(CAST(5 AS oid), 0) AS o2",
		"USE memory",
	} {
		if _, err := db.SQL().ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	c, err := db.Connect()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, q := range []string{"SELECT * FROM mallard_catalog.pg.v", "SELECT * FROM mallard_catalog.pg.v2", "SELECT * FROM mallard_catalog.pg.v3", "SELECT '{\"a\":1}'::JSON AS j", "SELECT o FROM mallard_catalog.pg.v WHERE o > 1"} {
		s, err := c.Prepare(ctx, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		for _, col := range s.Columns() {
			fmt.Printf("%s: %s %+v\n", q, col.Name, col.Type)
		}
		s.Close()
	}
}
