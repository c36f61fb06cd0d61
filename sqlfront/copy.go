package sqlfront

import (
	"bufio"
	"fmt"
	"os"
	"strings"

	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/mallard/mallard/planner/plan"
	"github.com/mallard/mallard/sqlfront/copyin"
	"github.com/mallard/mallard/sqlfront/pgcodec"
	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/sqltype"
)

// copy runs COPY FROM STDIN or COPY TO STDOUT.
func (s *session) copy(c *plan.Copy) error {
	if c.FromStdin {
		return s.copyIn(c)
	}
	return s.copyOut(c)
}

// copyTarget names the table and columns of c as SQL.
func copyTarget(c *plan.Copy) string {
	if len(c.Columns) == 0 {
		return c.Table
	}
	return c.Table + " (" + strings.Join(c.Columns, ", ") + ")"
}

// targetColumns asks DuckDB for the columns COPY FROM writes, which also
// checks that the table and columns exist before any data is sent.
func (s *session) targetColumns(c *plan.Copy) ([]sqltype.Column, error) {
	list := "*"
	if len(c.Columns) > 0 {
		list = strings.Join(c.Columns, ", ")
	}
	ctx, done := s.statementContext()
	defer done()
	st, err := s.db.Prepare(ctx, "SELECT "+list+" FROM "+c.Table+" LIMIT 0")
	if err != nil {
		return nil, err
	}
	defer st.Close()
	return st.Columns(), nil
}

// copyIn receives COPY data into a temporary CSV file in a canonical
// dialect, then loads it with one DuckDB COPY statement, so that a malformed
// row loads nothing and DuckDB's parallel CSV reader does the typing.
func (s *session) copyIn(c *plan.Copy) error {
	cols, err := s.targetColumns(c)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(s.srv.db.SpoolDir(), "mallard-copy-*.csv")
	if err != nil {
		return sqlstate.New(sqlstate.IOError, "COPY FROM STDIN: cannot create spool file: %v", err)
	}
	defer os.Remove(f.Name())
	defer f.Close()
	bw := bufio.NewWriterSize(f, 1<<20)
	resp := &pgproto3.CopyInResponse{ColumnFormatCodes: make([]uint16, len(cols))}
	if c.Format == "binary" {
		resp.OverallFormat = 1
		for i := range resp.ColumnFormatCodes {
			resp.ColumnFormatCodes[i] = 1
		}
	}
	s.w.send(resp)
	if err := s.w.flush(); err != nil {
		return err
	}
	p := copyin.NewParser(copyin.Options{Table: c.Table, Format: c.Format, Delimiter: c.Delimiter, Null: c.Null,
		Header: c.Header, Quote: c.Quote, Escape: c.Escape}, cols, bw)
	if err := s.receiveCopyData(p); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return sqlstate.New(sqlstate.IOError, "COPY FROM STDIN: write spool file: %v", err)
	}
	return s.loadSpool(c, f.Name(), p.Rows())
}

// receiveCopyData feeds CopyData to p until CopyDone or CopyFail. After a
// parse error the rest of the data is read and dropped.
func (s *session) receiveCopyData(p *copyin.Parser) error {
	for {
		msg, err := s.be.Receive()
		if err != nil {
			return &sqlstate.Error{Code: sqlstate.ProtocolViolation, Severity: "FATAL",
				Message: fmt.Sprintf("COPY FROM STDIN: %v", err)}
		}
		switch m := msg.(type) {
		case *pgproto3.CopyData:
			p.Feed(m.Data)
		case *pgproto3.CopyDone:
			return p.Finish()
		case *pgproto3.CopyFail:
			return sqlstate.New(sqlstate.QueryCanceled, "COPY from stdin failed: %s", m.Message)
		case *pgproto3.Flush, *pgproto3.Sync:
		default:
			return &sqlstate.Error{Code: sqlstate.ProtocolViolation, Severity: "FATAL",
				Message: fmt.Sprintf("unexpected message type %T during COPY from stdin", msg)}
		}
	}
}

func (s *session) loadSpool(c *plan.Copy, path string, rows int64) error {
	if rows == 0 {
		s.completed("COPY", 0)
		s.w.send(&pgproto3.CommandComplete{CommandTag: commandTag("COPY", 0, true)})
		return nil
	}
	q := fmt.Sprintf("COPY %s FROM '%s' (FORMAT csv, HEADER false, DELIMITER ',', QUOTE '\"', ESCAPE '\"', "+
		"NULLSTR '', ALLOW_QUOTED_NULLS false)", copyTarget(c), strings.ReplaceAll(path, "'", "''"))
	ctx, done := s.statementContext()
	defer done()
	st, err := s.db.PrepareOwn(ctx, q)
	if err != nil {
		return spoolError(err, path)
	}
	defer st.Close()
	r, err := st.Query(ctx)
	if err != nil {
		return spoolError(err, path)
	}
	if err := r.Close(); err != nil {
		return spoolError(err, path)
	}
	s.completed("COPY", r.RowsAffected())
	s.w.send(&pgproto3.CommandComplete{CommandTag: commandTag("COPY", r.RowsAffected(), true)})
	return nil
}

// spoolError keeps the spool file's name out of an error from DuckDB: for
// the client the data came from STDIN. Line numbers agree, since the spool
// file holds one line per row in the client's order.
func spoolError(err error, path string) error {
	e := *sqlstate.From(err)
	e.Message = strings.ReplaceAll(e.Message, path, "STDIN")
	e.Detail = strings.ReplaceAll(e.Detail, path, "STDIN")
	e.Position = 0
	return &e
}

// copyOut streams a table or query to the client in text or CSV format.
func (s *session) copyOut(c *plan.Copy) error {
	q := c.Query
	if q == "" {
		list := "*"
		if len(c.Columns) > 0 {
			list = strings.Join(c.Columns, ", ")
		}
		q = "SELECT " + list + " FROM " + c.Table
	}
	ctx, done := s.statementContext()
	defer done()
	st, err := s.db.Prepare(ctx, q)
	if err != nil {
		return err
	}
	defer st.Close()
	rows, err := st.Query(ctx)
	if err != nil {
		return err
	}
	defer rows.Close()
	cols := rows.Columns()
	encs := make([]pgcodec.Encoder, len(cols))
	for i, col := range cols {
		if encs[i], err = pgcodec.NewEncoder(col.Type, 0); err != nil {
			return err
		}
	}
	s.w.send(&pgproto3.CopyOutResponse{OverallFormat: 0, ColumnFormatCodes: make([]uint16, len(cols))})
	out := newCopyFormatter(c, cols)
	if c.Header {
		s.copyData(out.header())
	}
	var n int64
	for rows.Next() {
		b := rows.Batch()
		for r := 0; r < int(b.NumRows()); r++ {
			s.copyData(out.row(encs, b.Columns(), r))
			n++
		}
		if s.w.err != nil {
			return s.w.err
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	s.w.send(&pgproto3.CopyDone{})
	s.completed("COPY", n)
	s.w.send(&pgproto3.CommandComplete{CommandTag: commandTag("COPY", n, true)})
	return nil
}

func (s *session) copyData(line []byte) {
	at := s.w.beginMessage('d')
	s.w.buf = append(s.w.buf, line...)
	s.w.endMessage(at)
}
