package storage

import (
	"os"
	"path/filepath"
	"strings"
)

// globHit returns why the absolute glob pattern could reach one of
// Mallard's own files, or "": it walks the directories the pattern can
// reach, following symbolic links as DuckDB's glob does, and looks at
// every entry the pattern could match. A segment's [...] counts as any
// one character, so the walk may refuse more than DuckDB would match,
// never less.
func (g *fileGuard) globHit(pattern string, budget *int) string {
	sep := string(filepath.Separator)
	segs := strings.Split(strings.Trim(pattern, sep), sep)
	fixed := 0
	for fixed < len(segs) && !strings.ContainsAny(segs[fixed], "*?[") {
		fixed++
	}
	base := realPath(sep + strings.Join(segs[:fixed], sep))
	if g.owns(filepath.Clean(base), false) {
		return "its directory is one of Mallard's own"
	}
	return g.walkGlob(base, segs[fixed:], map[string]bool{}, budget)
}

// walkGlob matches the segments pat against the entries under the real
// directory dir.
func (g *fileGuard) walkGlob(dir string, pat []string, seen map[string]bool, budget *int) string {
	if len(pat) == 0 {
		return ""
	}
	key := dir + "\x00" + strings.Join(pat, "/")
	if seen[key] {
		return ""
	}
	seen[key] = true
	if pat[0] == "**" {
		if hit := g.walkGlob(dir, pat[1:], seen, budget); hit != "" {
			return hit
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	for _, e := range entries {
		if *budget--; *budget < 0 {
			return "the glob reaches too many files to check"
		}
		if pat[0] != "**" && !segmentMatches(pat[0], e.Name()) {
			continue
		}
		real := realPath(filepath.Join(dir, e.Name()))
		last := len(pat) == 1 || pat[0] == "**" && len(pat) == 1
		if g.owns(real, false) || last && g.owns(real, pat[0] == "**") {
			return "it matches " + filepath.Join(dir, e.Name())
		}
		if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
			continue
		}
		next := pat[1:]
		if pat[0] == "**" {
			next = pat
		}
		if hit := g.walkGlob(real, next, seen, budget); hit != "" {
			return hit
		}
	}
	return ""
}

// segmentMatches reports whether a glob segment could match name: * and ?
// as filepath.Match has them, and a bracket expression as any character.
func segmentMatches(seg, name string) bool {
	var b strings.Builder
	for i := 0; i < len(seg); i++ {
		switch seg[i] {
		case '[':
			j := strings.IndexByte(seg[i+1:], ']')
			if j < 0 {
				b.WriteByte('?')
				continue
			}
			b.WriteByte('?')
			i += j + 1
		case '\\':
			b.WriteByte('?')
		default:
			b.WriteByte(seg[i])
		}
	}
	ok, err := filepath.Match(b.String(), name)
	return ok || err != nil
}
