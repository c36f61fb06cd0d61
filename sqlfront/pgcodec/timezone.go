package pgcodec

import (
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// timestampTZTextEncoder returns the text encoder of TIMESTAMPTZ, which
// shows the time in the session's TimeZone with its offset there, as
// Postgres does ("2024-01-01 07:00:00-05"). DuckDB labels the Arrow column
// with the connection's TimeZone, which the session keeps in step with its
// own. The encoder keeps the zone it last loaded: loading one reads the
// time zone database.
func timestampTZTextEncoder(unit arrow.TimeUnit) Encoder {
	var last atomic.Pointer[zone]
	return func(dst []byte, arr arrow.Array, i int) []byte {
		us, inf := timestampMicros(int64(arr.(*array.Timestamp).Value(i)), unit)
		if inf != 0 {
			return appendInfinity(dst, inf)
		}
		loc := zoneOf(&last, arr.DataType().(*arrow.TimestampType).TimeZone)
		if loc == nil {
			return appendTimestamp(dst, us, true, 0)
		}
		_, east := time.UnixMicro(us).In(loc).Zone()
		return appendTimestamp(dst, us+int64(east)*usPerSec, true, int32(east))
	}
}

// zone is a time zone by the name DuckDB gave it; loc is nil for UTC and
// for a name Go does not know, shown as UTC.
type zone struct {
	name string
	loc  *time.Location
}

// zoneOf returns the location of the named zone, from last when it holds
// that zone, else loading it and keeping it in last. Encoders are shared
// between goroutines, so last is replaced whole, never changed.
func zoneOf(last *atomic.Pointer[zone], name string) *time.Location {
	if z := last.Load(); z != nil && z.name == name {
		return z.loc
	}
	z := &zone{name: name}
	switch name {
	case "", "UTC", "Etc/UTC", "GMT", "Etc/GMT", "Z":
	default:
		if loc, err := time.LoadLocation(name); err == nil {
			z.loc = loc
		}
	}
	last.Store(z)
	return z.loc
}
