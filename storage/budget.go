package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/mallard/mallard/sqlstate"
)

// Budget is the memory the server's memory limit allows the whole process:
// DuckDB's buffer manager and Mallard's own large buffers together (today a
// pivot's result; any buffer sized by the data should be). Mallard reserves
// the bytes of a large buffer before it allocates it; DuckDB's memory_limit
// is kept at the limit less what is reserved, so the two cannot together
// pass it. A reservation that does not fit fails with 53200 before the
// buffer is made.
//
// At least a quarter of the limit (duckDBFloor) always stays DuckDB's,
// since every statement, Mallard's reading its source included, needs
// some. Small allocations (sessions, batches in flight, the Go runtime's
// own) are not reserved; they are what RSS shows above the limit.
type Budget struct {
	sqldb func() *sql.DB // the database's handle now (DB.SQL: a reopen replaces it)
	limit int64          // bytes
	// setting is how the limit was given, for messages ("2GB").
	setting string

	mu       sync.Mutex // guards reserved, follow and the memory_limit DuckDB holds
	reserved int64
	follow   func(reserved int64)
}

// duckDBFloor is the fraction of the limit no reservation takes from DuckDB.
const duckDBFloor = 0.25

// applyMemoryLimit gives DuckDB its share of the memory limit. The first
// call sets DuckDB's memory_limit to setting ("" keeps DuckDB's default,
// 80% of RAM) and makes the budget of that limit; a later one (a new
// instance after Reopen) gives DuckDB the limit less what is reserved.
func (d *DB) applyMemoryLimit(ctx context.Context, setting string) error {
	if d.budget != nil {
		d.budget.mu.Lock()
		defer d.budget.mu.Unlock()
		return d.budget.setDuckDB(ctx, d.budget.limit-d.budget.reserved)
	}
	sqldb := d.SQL()
	if setting != "" {
		if _, err := sqldb.ExecContext(ctx, "SET GLOBAL memory_limit = ?", setting); err != nil {
			return fmt.Errorf("set memory_limit: %w", err)
		}
	}
	var shown string
	if err := sqldb.QueryRowContext(ctx, "SELECT current_setting('memory_limit')").Scan(&shown); err != nil {
		return fmt.Errorf("read memory_limit: %w", err)
	}
	// DuckDB shows the limit rounded ("1.8 GiB"); the setting as given is exact.
	limit, err := ParseBytes(setting)
	if setting == "" || err != nil {
		if limit, err = ParseBytes(shown); err != nil {
			return fmt.Errorf("memory_limit %q: %w", shown, err)
		}
		setting = shown
	}
	d.budget = &Budget{sqldb: d.SQL, limit: limit, setting: setting}
	return nil
}

// Budget is the database's memory budget. It is made once, by Open.
func (d *DB) Budget() *Budget { return d.budget }

// Limit is the memory limit in bytes.
func (b *Budget) Limit() int64 { return b.limit }

// Reserved is how many bytes Mallard's buffers hold reserved now.
func (b *Budget) Reserved() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.reserved
}

// Reserve takes n bytes of the budget for what (a phrase such as
// "pivot_entity_time's result (120 rows x 1000 columns)") and lowers
// DuckDB's memory_limit by as much; release gives them back and is safe to
// call more than once. It fails with 53200 when n does not fit beside the
// other reservations and DuckDB's share, or when DuckDB holds more than it
// would have left and cannot free it.
func (b *Budget) Reserve(ctx context.Context, n int64, what string) (release func(), err error) {
	if n <= 0 {
		return func() {}, nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	floor := int64(math.Ceil(duckDBFloor * float64(b.limit)))
	if b.reserved+n > b.limit-floor {
		return nil, b.tooLarge(n, what, fmt.Sprintf("%s must stay DuckDB's and other statements hold %s",
			FormatBytes(floor), FormatBytes(b.reserved)))
	}
	if err := b.setDuckDB(ctx, b.limit-b.reserved-n); err != nil {
		var e *sqlstate.Error
		if errors.As(err, &e) && e.Code == sqlstate.OutOfMemory {
			return nil, b.tooLarge(n, what, fmt.Sprintf("DuckDB holds more than the %s it would have left, and other statements hold %s",
				FormatBytes(b.limit-b.reserved-n), FormatBytes(b.reserved)))
		}
		return nil, err
	}
	b.reserved += n
	b.followed()
	return sync.OnceFunc(func() { b.release(n) }), nil
}

// Follow has f called with the bytes reserved now and again after each
// reservation and release, under the budget's lock (f must not reserve).
// The server gives the Go runtime's soft memory limit to it, so that Go's
// heap, where Mallard's reserved buffers live, is kept near what is
// reserved rather than growing to twice its live size (see
// server.Config.GoHeapMargin).
func (b *Budget) Follow(f func(reserved int64)) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.follow = f
	b.followed()
}

func (b *Budget) followed() {
	if b.follow != nil {
		b.follow(b.reserved)
	}
}

func (b *Budget) release(n int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.reserved -= n
	b.followed()
	// Raising the limit cannot fail for want of memory; a failure here
	// (the database closing) leaves DuckDB with less, never more.
	_ = b.setDuckDB(context.Background(), b.limit-b.reserved)
}

func (b *Budget) setDuckDB(ctx context.Context, bytes int64) error {
	if _, err := b.sqldb().ExecContext(ctx, fmt.Sprintf("SET GLOBAL memory_limit = '%dB'", bytes)); err != nil {
		return errorFromDriver(err)
	}
	return nil
}

func (b *Budget) tooLarge(n int64, what, why string) error {
	return sqlstate.New(sqlstate.OutOfMemory, "out of memory: %s needs %s; the memory limit (memory_limit %s) is %s, of which %s",
		what, FormatBytes(n), b.setting, FormatBytes(b.limit), why).
		WithHint("Raise the server's --memory-limit, or make the result smaller (fewer entities or periods, a shorter range).")
}

// byteUnits are the units DuckDB accepts in a memory_limit, in bytes.
var byteUnits = map[string]float64{
	"": 1, "b": 1, "byte": 1, "bytes": 1,
	"k": 1e3, "kb": 1e3, "m": 1e6, "mb": 1e6, "g": 1e9, "gb": 1e9, "t": 1e12, "tb": 1e12,
	"kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40,
}

// ParseBytes reads a size as DuckDB's memory_limit takes it: a number and
// a unit, decimal (KB, MB, GB, TB) or binary (KiB, MiB, GiB, TiB).
func ParseBytes(s string) (int64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	i := strings.IndexFunc(t, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	if i < 0 {
		i = len(t)
	}
	num, err := strconv.ParseFloat(t[:i], 64)
	unit, ok := byteUnits[strings.TrimSpace(t[i:])]
	if err != nil || !ok || num < 0 {
		return 0, fmt.Errorf("size %q: want a number and a unit such as 512MB or 2GiB", s)
	}
	return int64(num * unit), nil
}

// FormatBytes writes n in the largest binary unit that keeps it at 1 or more.
func FormatBytes(n int64) string {
	units := []string{"bytes", "KiB", "MiB", "GiB", "TiB"}
	v, u := float64(n), 0
	for v >= 1024 && u < len(units)-1 {
		v /= 1024
		u++
	}
	if u == 0 {
		return fmt.Sprintf("%d bytes", n)
	}
	return fmt.Sprintf("%.1f %s", v, units[u])
}
