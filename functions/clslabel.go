//go:build duckdb_arrow

package functions

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/mlops"
	"github.com/mallard/mallard/mlops/classifier/clsrun"
)

// labelTypes are the DuckDB types of the label types whose classes a
// classifier writes out in that type, by the name
// classifier.Columns.TargetType records (see prep.LabelTypeName); every
// other label (text, a decimal, a float) has text classes. The model
// itself keeps its classes as text (CAST(label AS VARCHAR)), which these
// types read back exactly.
var labelTypes = map[string]duckdb.Type{
	"BOOLEAN": duckdb.TYPE_BOOLEAN, "TINYINT": duckdb.TYPE_TINYINT, "SMALLINT": duckdb.TYPE_SMALLINT,
	"INTEGER": duckdb.TYPE_INTEGER, "BIGINT": duckdb.TYPE_BIGINT, "UTINYINT": duckdb.TYPE_UTINYINT,
	"USMALLINT": duckdb.TYPE_USMALLINT, "UINTEGER": duckdb.TYPE_UINTEGER, "UBIGINT": duckdb.TYPE_UBIGINT,
}

// classType is how a model's classes are written out: in the label's
// type when it is one of labelTypes, else as text. The zero value writes
// text, as models trained before the type was recorded do.
type classType string

// info is the DuckDB type of a class column.
func (c classType) info() duckdb.TypeInfo {
	if t, ok := labelTypes[string(c)]; ok {
		return typeInfo(t)
	}
	return varcharType()
}

// value is class as the Go value a column of type info takes; a class
// that does not read as the type (none does, as the model's classes are
// the label's values cast to text) stays text.
func (c classType) value(class string) any {
	if c == "BOOLEAN" {
		if b, err := strconv.ParseBool(class); err == nil {
			return b
		}
		return class
	}
	if _, ok := labelTypes[string(c)]; !ok {
		return class
	}
	if c[0] == 'U' {
		u, err := strconv.ParseUint(class, 10, 64)
		if err != nil {
			return class
		}
		return map[classType]any{"UTINYINT": uint8(u), "USMALLINT": uint16(u), "UINTEGER": uint32(u), "UBIGINT": u}[c]
	}
	n, err := strconv.ParseInt(class, 10, 64)
	if err != nil {
		return class
	}
	return map[classType]any{"TINYINT": int8(n), "SMALLINT": int16(n), "INTEGER": int32(n), "BIGINT": n}[c]
}

// compare orders two classes as their type does: numbers by value, text
// (and false before true) as strings.
func (c classType) compare(a, b string) int {
	if _, ok := labelTypes[string(c)]; ok && c != "BOOLEAN" {
		x, errX := strconv.ParseFloat(a, 64)
		y, errY := strconv.ParseFloat(b, 64)
		if errX == nil && errY == nil {
			return cmp.Or(cmp.Compare(x, y), cmp.Compare(a, b))
		}
	}
	return cmp.Compare(a, b)
}

// sorted sorts keys in c's order.
func (c classType) sorted(keys []string) []string {
	slices.SortFunc(keys, c.compare)
	return keys
}

// versionClassType is the class type a version's hyperparameters
// record.
func versionClassType(c *call, fn string, ref mlops.Ref) (classType, error) {
	v, err := c.reg.Version(c.ctx(), ref)
	if err != nil {
		return "", registryError(fn, err)
	}
	var p clsrun.Params
	if err := json.Unmarshal([]byte(v.Hyperparameters), &p); err != nil {
		return "", fmt.Errorf("%s: decode the hyperparameters of %s: %w", fn, ref, err)
	}
	return classType(p.Columns.TargetType), nil
}
