package storage

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/mallard/mallard/sqlstate"
)

// fileGuard keeps SQL away from Mallard's own files, whatever DuckDB's
// allow-list says (DuckDB puts the database file and its WAL on it when
// the sandbox turns external access off, and follows symbolic links out
// of an allowed directory). A file is Mallard's own when, once its name is
// made absolute against the server's working directory and its symbolic
// links are resolved, it is
//   - the database file, or any file or directory whose name starts with
//     the database file's (the WAL and its recovery files, DuckDB's
//     temporary directory <db>.tmp, the spool <db>.spool, the default job
//     directory <db>.jobs), or
//   - inside one of dirs (the spool, DuckDB's temp_directory, the job
//     directory, an in-memory database's private directory),
//
// or a directory that holds one of those. A glob is refused when it could
// match one, through symbolic links too.
type fileGuard struct {
	dbPaths []string // the database file's name, as given and resolved
	dirs    []string // protected directories, as given and resolved
}

// globBudget is how many directory entries a glob may make the guard look
// at; a glob over more is refused rather than half checked.
const globBudget = 200000

// newFileGuard protects the database file dbPath and the directories dirs.
func newFileGuard(dbPath string, dirs ...string) *fileGuard {
	g := &fileGuard{}
	for _, p := range bothForms(dbPath) {
		g.dbPaths = append(g.dbPaths, p)
	}
	for _, d := range dirs {
		if d != "" {
			g.dirs = append(g.dirs, bothForms(d)...)
		}
	}
	return g
}

// bothForms is p made absolute, lexically cleaned and with its symbolic
// links resolved.
func bothForms(p string) []string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return []string{p}
	}
	if real := realPath(abs); real != abs {
		return []string{abs, real}
	}
	return []string{abs}
}

// check fails with 42501 naming name when name, as DuckDB would read it,
// is or could reach one of Mallard's own files.
func (g *fileGuard) check(name, what string) error {
	p, local := localPath(name)
	if !local {
		return nil
	}
	if strings.HasPrefix(p, "~") {
		return g.refuse(name, what, "a name starting with ~ (write the absolute path)")
	}
	if !filepath.IsAbs(p) {
		wd, err := os.Getwd()
		if err != nil {
			return g.refuse(name, what, "a relative name, and the server's working directory is unknown")
		}
		p = wd + string(filepath.Separator) + p
	}
	if strings.ContainsAny(p, "*?[") {
		budget := globBudget
		if hit := g.globHit(p, &budget); hit != "" {
			return g.refuse(name, what, hit)
		}
		return nil
	}
	for _, form := range []string{filepath.Clean(p), realPath(p)} {
		if g.owns(form, true) {
			return g.refuse(name, what, "")
		}
	}
	return nil
}

// localPath strips the file: URL forms DuckDB's local file system accepts;
// local is false for other URLs (http://, s3://), which are not files here.
func localPath(name string) (string, bool) {
	lower := strings.ToLower(name)
	switch {
	case strings.HasPrefix(lower, "file://localhost/"):
		return name[len("file://localhost"):], true
	case strings.HasPrefix(lower, "file://"):
		return name[len("file://"):], true
	case strings.HasPrefix(lower, "file:"):
		return name[len("file:"):], true
	case strings.Contains(name, "://"):
		return "", false
	}
	return name, true
}

// owns reports whether the clean absolute path p is one of Mallard's own
// files or inside one of its directories; with above, also whether it is
// a directory above one.
func (g *fileGuard) owns(p string, above bool) bool {
	sep := string(filepath.Separator)
	under := func(p, dir string) bool { return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, sep)+sep) }
	for _, db := range g.dbPaths {
		if strings.HasPrefix(p, db) || above && under(db, p) {
			return true
		}
	}
	for _, d := range g.dirs {
		if under(p, d) || above && under(d, p) {
			return true
		}
	}
	return false
}

// realPath is the absolute path p with the symbolic links of its longest
// existing prefix resolved, as the operating system would follow them
// (a ".." after a link goes up from the link's target); the rest, which
// does not exist, is appended cleaned.
func realPath(p string) string {
	sep := string(filepath.Separator)
	cur, rest := strings.TrimRight(p, sep), ""
	for cur != "" {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(r, rest)
		}
		i := strings.LastIndex(cur, sep)
		if i < 0 {
			break
		}
		rest = filepath.Join(cur[i+1:], rest)
		cur = cur[:i]
	}
	return filepath.Clean(sep + rest)
}

// refuse is the error of a statement that names one of Mallard's files.
func (g *fileGuard) refuse(name, what, why string) error {
	msg := "permission denied for file \"%s\" in %s: it is, holds or reaches Mallard's own files (the database, its WAL, spool, temporary or job files)"
	if why != "" {
		return sqlstate.New(sqlstate.InsufficientPrivilege, msg+": %s", name, what, why).WithHint(guardHint)
	}
	return sqlstate.New(sqlstate.InsufficientPrivilege, msg, name, what).WithHint(guardHint)
}

const guardHint = "SQL may read and write files in the data directories (--data-dir), never the database file, its WAL or the server's own directories."
