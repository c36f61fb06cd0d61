package catalog_test

import (
	"context"
	"strings"
	"testing"
)

// BenchmarkClientQueries measures the catalog queries of clientQueries, each
// one a psql, pgjdbc or SQLAlchemy round trip: most of their cost is DuckDB
// binding the catalog's views.
func BenchmarkClientQueries(b *testing.B) {
	_, conn := session(b, sampleDDL...)
	oids := rows(b, conn, `SELECT mallard_catalog.pg.mallard_regclass('child'), mallard_catalog.pg.mallard_regclass('parent')`)[0]
	fill := strings.NewReplacer("{child}", oids[0], "{parent}", oids[1]).Replace
	for _, tc := range clientQueries {
		q := fill(tc.query)
		b.Run(strings.ReplaceAll(tc.name, " ", "_"), func(b *testing.B) {
			for b.Loop() {
				r, err := conn.QueryContext(context.Background(), q)
				if err != nil {
					b.Fatal(err)
				}
				for r.Next() {
				}
				if err := r.Close(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
