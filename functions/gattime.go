//go:build duckdb_arrow

package functions

import (
	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/mlops/series"
)

// timeColumns are the output columns for the time columns of a forecast.
func timeColumns(names, kinds []string) []duckdb.ColumnInfo {
	var cols []duckdb.ColumnInfo
	for i, name := range names {
		t, kind := varcharType(), series.TimeOther
		if i < len(kinds) {
			kind = kinds[i]
		}
		switch kind {
		case series.TimeInt:
			t = bigintType()
		case series.TimeDate:
			t = typeInfo(duckdb.TYPE_DATE)
		case series.TimeTimestamp:
			t = typeInfo(duckdb.TYPE_TIMESTAMP)
		}
		cols = append(cols, duckdb.ColumnInfo{Name: name, T: t})
	}
	return cols
}
