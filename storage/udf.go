package storage

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"

	duckdb "github.com/duckdb/duckdb-go/v2"
)

// Functions are SQL functions declared to the engine in Go values only, so
// that a package that adds functions to the database (ops) need not know
// duckdb-go: Register installs them. Types are DuckDB type ids of
// primitive types (no DECIMAL, LIST, STRUCT, ...); values travel as Go
// values of the type's width: string (VARCHAR), bool, int32 (INTEGER),
// int64 (BIGINT), float64 (DOUBLE), time.Time (DATE, TIMESTAMP,
// TIMESTAMPTZ), nil for NULL.
type Functions struct {
	Tables  []TableFunction
	Scalars []ScalarFunction
}

// TableFunction is a table function with positional arguments only.
type TableFunction struct {
	Name string
	// Args are the types of its positional arguments.
	Args []TypeID
	// Columns are its output columns; only their names and type ids count.
	Columns []Column
	// Bind checks one call's argument values and returns its rows. A
	// prepared statement binds once and may run many times.
	Bind func(args []any) (TableRows, error)
}

// TableRows are the rows of one bound call of a table function.
type TableRows interface {
	// Init starts an execution: the rows are read as they are now.
	Init()
	// Next returns the next row, one value per output column, or nil at
	// the end.
	Next() ([]any, error)
}

// ScalarFunction is one overload of a scalar function: scalars sharing
// a Name are the overloads of one function. Eval receives the argument
// values and returns the result's. A NULL argument gives NULL without
// calling Eval. Unless Volatile, the engine may fold a call whose
// arguments are constants into one evaluation.
type ScalarFunction struct {
	Name     string
	Args     []TypeID
	Result   TypeID
	Volatile bool
	Eval     func(args []any) (any, error)
}

// Register installs fs in the database: every connection, present and
// future, sees them. It fails naming the function DuckDB refused.
func (d *DB) Register(ctx context.Context, fs Functions) error {
	conn, err := d.SQL().Conn(ctx)
	if err != nil {
		return fmt.Errorf("register functions: %w", err)
	}
	defer conn.Close()
	for _, t := range fs.Tables {
		if err := duckdb.RegisterTableUDF(conn, t.Name, t.udf()); err != nil {
			return fmt.Errorf("register %s: %w", t.Name, err)
		}
	}
	return registerScalars(conn, fs.Scalars)
}

// registerScalars installs scalars, each name's overloads as one set.
func registerScalars(conn *sql.Conn, scalars []ScalarFunction) error {
	var names []string
	sets := map[string][]duckdb.ScalarFunc{}
	for _, s := range scalars {
		if _, ok := sets[s.Name]; !ok {
			names = append(names, s.Name)
		}
		sets[s.Name] = append(sets[s.Name], scalarUDF{s})
	}
	for _, name := range names {
		var err error
		if set := sets[name]; len(set) == 1 {
			err = duckdb.RegisterScalarUDF(conn, name, set[0])
		} else {
			err = duckdb.RegisterScalarUDFSet(conn, name, set...)
		}
		if err != nil {
			return fmt.Errorf("register %s: %w", name, err)
		}
	}
	return nil
}

func (t TableFunction) udf() duckdb.ChunkTableFunction {
	args := make([]duckdb.TypeInfo, len(t.Args))
	for i, a := range t.Args {
		args[i] = primitiveType(a)
	}
	cols := make([]duckdb.ColumnInfo, len(t.Columns))
	for i, c := range t.Columns {
		cols[i] = duckdb.ColumnInfo{Name: c.Name, T: primitiveType(c.Type.ID)}
	}
	return duckdb.ChunkTableFunction{
		Config: duckdb.TableFunctionConfig{Arguments: args},
		BindArguments: func(_ map[string]any, args ...any) (duckdb.ChunkTableSource, error) {
			rows, err := t.Bind(args)
			if err != nil {
				return nil, err
			}
			return &tableSource{cols: cols, rows: rows}, nil
		},
	}
}

// tableSource is a TableRows as duckdb-go's chunk table source.
type tableSource struct {
	cols []duckdb.ColumnInfo
	rows TableRows
	done bool
}

func (s *tableSource) ColumnInfos() []duckdb.ColumnInfo     { return s.cols }
func (s *tableSource) Cardinality() *duckdb.CardinalityInfo { return nil }

func (s *tableSource) Init() {
	s.done = false
	s.rows.Init()
}

// FillChunk writes the next rows, as many as the chunk holds.
func (s *tableSource) FillChunk(chunk duckdb.DataChunk) error {
	n := 0
	for ; !s.done && n < duckdb.GetDataChunkCapacity(); n++ {
		row, err := s.rows.Next()
		if err != nil {
			return err
		}
		if row == nil {
			s.done = true
			break
		}
		for col, v := range row {
			if err := chunk.SetValue(col, n, v); err != nil {
				return err
			}
		}
	}
	return chunk.SetSize(n)
}

// scalarUDF is a ScalarFunction as duckdb-go's scalar function.
type scalarUDF struct{ f ScalarFunction }

func (s scalarUDF) Config() duckdb.ScalarFuncConfig {
	in := make([]duckdb.TypeInfo, len(s.f.Args))
	for i, a := range s.f.Args {
		in[i] = primitiveType(a)
	}
	return duckdb.ScalarFuncConfig{InputTypeInfos: in, ResultTypeInfo: primitiveType(s.f.Result), Volatile: s.f.Volatile}
}

func (s scalarUDF) Executor() duckdb.ScalarFuncExecutor {
	return duckdb.ScalarFuncExecutor{RowExecutor: func(values []driver.Value) (any, error) {
		args := make([]any, len(values))
		for i, v := range values {
			args[i] = v
		}
		return s.f.Eval(args)
	}}
}

// primitiveType is duckdb-go's description of the primitive type id.
// Declaring a function with a type that needs more than its id is a bug
// in the declaring package.
func primitiveType(id TypeID) duckdb.TypeInfo {
	info, err := duckdb.NewTypeInfo(duckdb.Type(id))
	if err != nil {
		panic(fmt.Sprintf("storage: function type %d is not primitive: %v", id, err))
	}
	return info
}
