// Package statements keeps the statistics of the statements a server runs,
// grouped by role and by the fingerprint of the statement's text (the
// planner's, which ignores constants, whitespace and comments): what
// pg_stat_statements shows.
package statements

import (
	"cmp"
	"crypto/sha256"
	"math"
	"runtime/debug"
	"slices"
	"sync"
	"time"
	"unicode/utf8"
)

// Stat is one group's statistics, with Postgres' column meanings. Times
// are in milliseconds.
type Stat struct {
	User    string
	QueryID int64
	// Query is the first statement of the group as the parser normalises
	// it: constants replaced by $1, $2...; text the Postgres parser does
	// not read (DuckDB's own dialect) is kept as written. It holds at most
	// the table's query size in bytes (see New), cut at a character's start.
	Query                       string
	Calls                       int64
	TotalTime, MinTime, MaxTime float64
	MeanTime, StddevTime        float64
	Rows                        int64
	m2                          float64 // sum of squared deviations from the mean (Welford)
}

// Table holds the statistics of at most max groups, each keeping at most
// querySize bytes of its query text, so that its memory is bounded
// whatever statements clients send: about max x (querySize + 200) bytes
// for the groups, and as much again for the fingerprint cache. When it is
// full, a new group replaces the one called least, as Postgres' extension
// evicts the least used entries.
type Table struct {
	max       int
	querySize int
	identify  Fingerprinter

	mu     sync.Mutex
	groups map[key]*Stat
	// ids caches the fingerprint of each text by its SHA-256 digest, not
	// the text, so that a long statement costs the cache no more than a
	// short one: parsing costs more than running a small statement does.
	ids   map[[sha256.Size]byte]fingerprint
	bytes int64 // query and user text the groups hold
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

// DefaultQuerySize is the bytes of query text a group keeps unless told
// otherwise, as Postgres' track_activity_query_size.
const DefaultQuerySize = 1024

// statOverhead approximates the bytes a group costs beside its texts: the
// Stat, its map entry and key.
const statOverhead = 160

// Fingerprinter groups text with every statement that differs from it
// only in constants, whitespace and comments, and returns text normalised
// for Stat.Query (planner.Planner.Fingerprint).
type Fingerprinter func(text string) (id int64, normalized string)

// New returns a table for at most n groups (at least 1) that keeps at most
// querySize bytes of each group's text (DefaultQuerySize when 0 or less,
// at least 100) and groups statements by identify.
func New(n, querySize int, identify Fingerprinter) *Table {
	if querySize <= 0 {
		querySize = DefaultQuerySize
	}
	t := &Table{max: max(n, 1), querySize: max(querySize, 100), identify: identify}
	t.clear()
	return t
}

func (t *Table) clear() {
	t.groups, t.ids, t.bytes = map[key]*Stat{}, map[[sha256.Size]byte]fingerprint{}, 0
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
		t.bytes += groupBytes(s)
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
	t.bytes -= groupBytes(t.groups[least])
	delete(t.groups, least)
}

func groupBytes(s *Stat) int64 { return int64(len(s.Query)+len(s.User)) + statOverhead }

func (t *Table) fingerprint(text string) fingerprint {
	digest := sha256.Sum256([]byte(text))
	t.mu.Lock()
	fp, ok := t.ids[digest]
	t.mu.Unlock()
	if ok {
		return fp
	}
	id, query := t.identify(text)
	fp = fingerprint{id: id, query: truncate(query, t.querySize)}
	t.mu.Lock()
	if len(t.ids) >= maxCachedTexts {
		t.ids = map[[sha256.Size]byte]fingerprint{}
	}
	t.ids[digest] = fp
	t.mu.Unlock()
	return fp
}

// truncate cuts s to at most n bytes at the start of a character, and
// copies what it keeps, so that the whole text it came from can be freed.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return string([]byte(s[:n]))
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

// Size is how many groups the table holds and the bytes of text they
// keep, with an estimate of each group's own cost.
func (t *Table) Size() (groups int, bytes int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.groups), t.bytes
}

// Reset forgets every group and the fingerprint cache, as
// pg_stat_statements_reset() does, and returns the memory they held to the
// operating system (the Go runtime would keep it for reuse).
func (t *Table) Reset() {
	t.mu.Lock()
	t.clear()
	t.mu.Unlock()
	debug.FreeOSMemory()
}
