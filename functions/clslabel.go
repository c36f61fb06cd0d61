//go:build duckdb_arrow

package functions

import (
	"encoding/json"
	"fmt"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/mlops"
	"github.com/mallard/mallard/mlops/classifier"
	"github.com/mallard/mallard/mlops/classifier/clsrun"
)

// labelTypes are the DuckDB types of classifier.ClassTypes.
var labelTypes = map[string]duckdb.Type{
	"BOOLEAN": duckdb.TYPE_BOOLEAN, "TINYINT": duckdb.TYPE_TINYINT, "SMALLINT": duckdb.TYPE_SMALLINT,
	"INTEGER": duckdb.TYPE_INTEGER, "BIGINT": duckdb.TYPE_BIGINT, "UTINYINT": duckdb.TYPE_UTINYINT,
	"USMALLINT": duckdb.TYPE_USMALLINT, "UINTEGER": duckdb.TYPE_UINTEGER, "UBIGINT": duckdb.TYPE_UBIGINT,
}

// classTypeInfo is the DuckDB type of a class column of type c.
func classTypeInfo(c classifier.ClassType) duckdb.TypeInfo {
	if t, ok := labelTypes[string(c)]; ok {
		return typeInfo(t)
	}
	return varcharType()
}

// versionClassType is the class type a version's hyperparameters
// record.
func versionClassType(c *call, fn string, ref mlops.Ref) (classifier.ClassType, error) {
	v, err := c.reg.Version(c.ctx(), ref)
	if err != nil {
		return "", registryError(fn, err)
	}
	var p clsrun.Params
	if err := json.Unmarshal([]byte(v.Hyperparameters), &p); err != nil {
		return "", fmt.Errorf("%s: decode the hyperparameters of %s: %w", fn, ref, err)
	}
	return classifier.ClassType(p.Columns.TargetType), nil
}
