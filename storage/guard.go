package storage

import (
	"context"
	"path/filepath"

	"github.com/mallard/mallard/sqlstate"
)

// maxNestedSQL is how deep query('...') may nest SQL text in SQL text
// before the guard refuses to look further.
const maxNestedSQL = 8

// openGuard makes the guard of d's own files: the database file (and
// every file whose name starts with it), the spool, DuckDB's
// temp_directory, the in-memory database's directory and extra.
func (d *DB) openGuard(ctx context.Context, extra []string) error {
	var temp string
	if err := d.sqldb.QueryRowContext(ctx, "SELECT current_setting('temp_directory')").Scan(&temp); err != nil {
		return err
	}
	dirs := append([]string{d.spool, d.tmpDir, temp}, extra...)
	if temp == "" {
		dirs = dirs[:2]
	}
	d.guard = newFileGuard(d.path, dirs...)
	return nil
}

// checkSQL fails with 42501 when query names one of Mallard's own files
// where DuckDB takes a file name (see findPathRefs and fileGuard), and
// returns the parameters whose bound values are file names, for Bind.
func (g *fileGuard) checkSQL(query string, depth int) ([]pathRef, error) {
	refs, err := findPathRefs(scanSQL(query))
	if err != nil {
		return nil, err
	}
	var params []pathRef
	for _, r := range refs {
		switch {
		case r.param > 0:
			params = append(params, r)
		case r.sql && depth >= maxNestedSQL:
			return nil, sqlstate.New(sqlstate.InsufficientPrivilege, "permission denied: query() nests SQL deeper than %d levels", maxNestedSQL)
		case r.sql:
			if _, err := g.checkSQL(r.value, depth+1); err != nil {
				return nil, err
			}
		default:
			if err := g.check(r.value, r.what); err != nil {
				return nil, err
			}
		}
	}
	return params, nil
}

// checkArgs fails with 42501 when a bound value of one of params names
// one of Mallard's own files.
func (g *fileGuard) checkArgs(params []pathRef, args []any) error {
	for _, r := range params {
		if r.param > len(args) {
			continue
		}
		var v string
		switch a := args[r.param-1].(type) {
		case string:
			v = a
		case []byte:
			v = string(a)
		default:
			continue
		}
		var err error
		if r.sql {
			_, err = g.checkSQL(v, 1)
		} else {
			err = g.check(v, r.what)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// protectedDirs is Config.Protected made absolute.
func protectedDirs(dirs []string) []string {
	out := make([]string, 0, len(dirs))
	for _, d := range dirs {
		if abs, err := filepath.Abs(d); err == nil {
			out = append(out, abs)
		}
	}
	return out
}
