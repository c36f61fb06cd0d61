// Package statements keeps the statistics of the statements a server runs,
// grouped by role and by the fingerprint of the statement's text (the
// planner's, which ignores constants, whitespace and comments): what
// pg_stat_statements shows.
package statements

import (
	"cmp"
	"math"
	"slices"
	"sync"
	"time"
)

// Stat is one group's statistics, with Postgres' column meanings. Times
// are in milliseconds.
type Stat struct {
	User    string
	QueryID int64
	// Query is the first statement of the group as the parser normalises
	// it: constants replaced by $1, $2...; text the Postgres parser does
	// not read (DuckDB's own dialect) is kept as written.
	Query                       string
	Calls                       int64
	TotalTime, MinTime, MaxTime float64
	MeanTime, StddevTime        float64
	Rows                        int64
	m2                          float64 // sum of squared deviations from the mean (Welford)
}

// Table holds the statistics of at most max groups. When it is full, a
// new group replaces the one called least, as Postgres' extension evicts
// the least used entries.
type Table struct {
	max      int
	identify Fingerprinter

	mu     sync.Mutex
	groups map[key]*Stat
	// ids caches each text's fingerprint: parsing costs more than running
	// a small statement does.
	ids map[string]fingerprint
}

type key struct {
	user string
	id   int64
}

type fingerprint struct {
	id    int64
	query string
}

// maxCachedTexts bounds the fingerprint cache; past it the cache starts over.
const maxCachedTexts = 10000

// Fingerprinter groups text with every statement that differs from it
// only in constants, whitespace and comments, and returns text normalised
// for Stat.Query (planner.Planner.Fingerprint).
type Fingerprinter func(text string) (id int64, normalized string)

// New returns a table for at most n groups (at least 1) that groups
// statements by identify.
func New(n int, identify Fingerprinter) *Table {
	return &Table{max: max(n, 1), identify: identify, groups: map[key]*Stat{}, ids: map[string]fingerprint{}}
}

// Record counts one run of text by user that took d and returned or
// changed rows rows.
func (t *Table) Record(user, text string, d time.Duration, rows int64) {
	fp := t.fingerprint(text)
	ms := float64(d.Nanoseconds()) / 1e6
	t.mu.Lock()
	defer t.mu.Unlock()
	k := key{user, fp.id}
	s := t.groups[k]
	if s == nil {
		if len(t.groups) >= t.max {
			t.evict()
		}
		s = &Stat{User: user, QueryID: fp.id, Query: fp.query, MinTime: ms, MaxTime: ms}
		t.groups[k] = s
	}
	s.Calls++
	s.Rows += rows
	s.TotalTime += ms
	s.MinTime, s.MaxTime = math.Min(s.MinTime, ms), math.Max(s.MaxTime, ms)
	delta := ms - s.MeanTime
	s.MeanTime += delta / float64(s.Calls)
	s.m2 += delta * (ms - s.MeanTime)
	s.StddevTime = math.Sqrt(s.m2 / float64(s.Calls))
}

// evict drops the group called least. t.mu is held.
func (t *Table) evict() {
	var least key
	var calls int64 = math.MaxInt64
	for k, s := range t.groups {
		if s.Calls < calls {
			least, calls = k, s.Calls
		}
	}
	delete(t.groups, least)
}

func (t *Table) fingerprint(text string) fingerprint {
	t.mu.Lock()
	fp, ok := t.ids[text]
	t.mu.Unlock()
	if ok {
		return fp
	}
	id, query := t.identify(text)
	fp = fingerprint{id: id, query: query}
	t.mu.Lock()
	if len(t.ids) >= maxCachedTexts {
		clear(t.ids)
	}
	t.ids[text] = fp
	t.mu.Unlock()
	return fp
}

// Snapshot returns the groups, most total time first.
func (t *Table) Snapshot() []Stat {
	t.mu.Lock()
	out := make([]Stat, 0, len(t.groups))
	for _, s := range t.groups {
		out = append(out, *s)
	}
	t.mu.Unlock()
	slices.SortFunc(out, func(a, b Stat) int {
		return cmp.Or(cmp.Compare(b.TotalTime, a.TotalTime), cmp.Compare(a.QueryID, b.QueryID), cmp.Compare(a.User, b.User))
	})
	return out
}

// Reset forgets every group, as pg_stat_statements_reset() does.
func (t *Table) Reset() {
	t.mu.Lock()
	clear(t.groups)
	t.mu.Unlock()
}
