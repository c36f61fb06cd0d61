//go:build duckdb_arrow

package functions

import (
	"database/sql"
	"database/sql/driver"
	"fmt"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/mlops/scale"
)

// scalarFunction is a DOUBLE -> DOUBLE function of Mallard's.
type scalarFunction struct {
	name string
	f    func(float64) float64
}

func (s scalarFunction) Config() duckdb.ScalarFuncConfig {
	return duckdb.ScalarFuncConfig{InputTypeInfos: []duckdb.TypeInfo{doubleType()}, ResultTypeInfo: doubleType()}
}

func (s scalarFunction) Executor() duckdb.ScalarFuncExecutor {
	return duckdb.ScalarFuncExecutor{RowExecutor: func(values []driver.Value) (any, error) {
		return s.f(values[0].(float64)), nil
	}}
}

// scalarFunctions are Mallard's scalar functions. NULL in gives NULL out
// (DuckDB's default for scalar functions).
var scalarFunctions = []scalarFunction{
	{name: "signed_log", f: scale.SignedLog},
	{name: "signed_exp", f: scale.SignedExp},
}

func registerScalars(conn *sql.Conn) error {
	for _, s := range scalarFunctions {
		if err := duckdb.RegisterScalarUDF(conn, s.name, s); err != nil {
			return fmt.Errorf("register %s: %w", s.name, err)
		}
	}
	return nil
}
