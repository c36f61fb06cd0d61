package storage_test

import (
	"context"
	"database/sql"
	"errors"
	"testing"

	"github.com/mallard/mallard/storage"
)

// counting is a table function's rows: 0 .. n-1 and, every third row, a
// NULL label.
type counting struct {
	n, next int
}

func (c *counting) Init() { c.next = 0 }

func (c *counting) Next() ([]any, error) {
	if c.next >= c.n {
		return nil, nil
	}
	i := c.next
	c.next++
	var label any = "row"
	if i%3 == 0 {
		label = nil
	}
	return []any{int64(i), label}, nil
}

// TestRegisterDeclaredFunctions installs a table function whose rows fill
// more than one chunk and a scalar function of two overloads through
// storage.Functions, and reads them back through SQL.
func TestRegisterDeclaredFunctions(t *testing.T) {
	db, _ := openConn(t, storage.MemoryPath)
	ctx := context.Background()
	rows := &counting{}
	fs := storage.Functions{
		Tables: []storage.TableFunction{{
			Name: "numbers", Args: []storage.TypeID{storage.TypeBigInt},
			Columns: []storage.Column{{Name: "i", Type: storage.Type{ID: storage.TypeBigInt}}, {Name: "label", Type: storage.Type{ID: storage.TypeVarchar}}},
			Bind: func(args []any) (storage.TableRows, error) {
				n, _ := args[0].(int64)
				if n < 0 {
					return nil, errors.New("numbers: n must not be negative")
				}
				rows.n = int(n)
				return rows, nil
			},
		}},
		Scalars: []storage.ScalarFunction{
			{Name: "twice", Args: []storage.TypeID{storage.TypeBigInt}, Result: storage.TypeBigInt,
				Eval: func(a []any) (any, error) { return 2 * a[0].(int64), nil }},
			{Name: "twice", Args: []storage.TypeID{storage.TypeVarchar}, Result: storage.TypeVarchar,
				Eval: func(a []any) (any, error) { return a[0].(string) + a[0].(string), nil }},
		},
	}
	if err := db.Register(ctx, fs); err != nil {
		t.Fatal(err)
	}
	var count, sum, nulls int64
	err := db.SQL().QueryRowContext(ctx, "SELECT count(*), sum(i), count(*) - count(label) FROM numbers(5000)").Scan(&count, &sum, &nulls)
	if err != nil {
		t.Fatal(err)
	}
	if count != 5000 || sum != 4999*5000/2 || nulls != 1667 {
		t.Errorf("numbers(5000): count %d, sum %d, NULL labels %d; want 5000, %d, 1667", count, sum, nulls, 4999*5000/2)
	}
	if _, err := db.SQL().ExecContext(ctx, "SELECT * FROM numbers(-1)"); err == nil {
		t.Error("numbers(-1) succeeded; want the bind error")
	}
	var n int64
	var s string
	if err := db.SQL().QueryRowContext(ctx, "SELECT twice(21::BIGINT), twice('ab')").Scan(&n, &s); err != nil {
		t.Fatal(err)
	}
	if n != 42 || s != "abab" {
		t.Errorf("twice(21), twice('ab') = %d, %q; want 42, \"abab\"", n, s)
	}
	var null sql.NullInt64
	if err := db.SQL().QueryRowContext(ctx, "SELECT twice(NULL::BIGINT)").Scan(&null); err != nil || null.Valid {
		t.Errorf("twice(NULL) = %v, %v; want NULL", null, err)
	}
}
