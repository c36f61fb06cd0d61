//go:build duckdb_arrow

package storage

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
)

// Reader streams the result of one query run on a connection of its own,
// as Arrow record batches in the order DuckDB produces them. It is how
// Mallard's functions read their input: the caller's statement keeps its
// connection, and nothing is collected that the function does not keep.
type Reader struct {
	conn *Conn
	stmt *Stmt
	rows *Rows
}

// Read runs query on a new connection, after the setup statements (such
// as SET schema). Canceling ctx interrupts it. The query sees committed
// data only: the caller's open transaction and temporary tables belong to
// the caller's connection.
func (d *DB) Read(ctx context.Context, query string, setup ...string) (*Reader, error) {
	return d.read(ctx, query, setup, nil, false)
}

// ReadArgs is Read of a query with parameters $1... bound to args (see
// Stmt.Bind), with no setup.
func (d *DB) ReadArgs(ctx context.Context, query string, args ...any) (*Reader, error) {
	return d.read(ctx, query, nil, args, false)
}

// ReadArgsAfter is ReadArgs on a connection that first runs the setup
// statements (such as SET schema), so that names resolve as they do in a
// client's session.
func (d *DB) ReadArgsAfter(ctx context.Context, setup []string, query string, args ...any) (*Reader, error) {
	return d.read(ctx, query, setup, args, false)
}

func (d *DB) read(ctx context.Context, query string, setup []string, args []any, readOnly bool) (*Reader, error) {
	conn, err := d.connectWith(ctx, setup)
	if err != nil {
		return nil, err
	}
	if readOnly {
		conn.SetReadOnly()
	}
	stmt, err := conn.Prepare(ctx, query)
	if err == nil {
		err = stmt.Bind(args)
		if err != nil {
			stmt.Close()
		}
	}
	if err != nil {
		_ = conn.Close()
		return nil, err
	}
	rows, err := stmt.Query(ctx)
	if err != nil {
		stmt.Close()
		_ = conn.Close()
		return nil, err
	}
	return &Reader{conn: conn, stmt: stmt, rows: rows}, nil
}

// Describe returns the columns query would produce, without running it,
// after the setup statements.
func (d *DB) Describe(ctx context.Context, query string, setup ...string) ([]Column, error) {
	return d.describe(ctx, query, setup, false)
}

// Describe is DB.Describe with the caller's rights (see Caller.Read).
func (c Caller) Describe(ctx context.Context, query string, setup ...string) ([]Column, error) {
	return c.db.describe(ctx, query, setup, c.ReadOnly())
}

func (d *DB) describe(ctx context.Context, query string, setup []string, readOnly bool) ([]Column, error) {
	conn, err := d.connectWith(ctx, setup)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	if readOnly {
		conn.SetReadOnly()
	}
	stmt, err := conn.Prepare(ctx, query)
	if err != nil {
		return nil, err
	}
	defer stmt.Close()
	return stmt.Columns(), nil
}

// Columns are the result columns.
func (r *Reader) Columns() []Column { return r.rows.Columns() }

// Next advances to the next batch; false at the end or on error (see Err).
func (r *Reader) Next() bool { return r.rows.Next() }

// Batch is the current batch, valid until the next Next or Close.
func (r *Reader) Batch() arrow.RecordBatch { return r.rows.Batch() }

// Err is the error that ended the result early, if any.
func (r *Reader) Err() error { return r.rows.Err() }

// Close releases the result and the connection; it returns Err.
func (r *Reader) Close() error {
	err := r.rows.Close()
	r.stmt.Close()
	_ = r.conn.Close()
	return err
}

func (d *DB) connectWith(ctx context.Context, setup []string) (*Conn, error) {
	conn, err := d.Connect()
	if err != nil {
		return nil, err
	}
	for _, q := range setup {
		if err := conn.Exec(ctx, q); err != nil {
			_ = conn.Close()
			return nil, err
		}
	}
	return conn, nil
}
