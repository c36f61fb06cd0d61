package planner

import (
	"regexp"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
)

// zonedLiteral matches the text of a timestamptz or timetz constant that
// ends in a time zone: an optional date, the time with or without seconds,
// then, after optional spaces, a numeric offset (+5, -05:30, +0530,
// +05:30:15) or a zone name (Z, UTC, Europe/Paris).
var zonedLiteral = regexp.MustCompile(`^\s*(\d{4,}-\d{1,2}-\d{1,2}[ T])?(\d{1,2}):(\d{2})(:\d{2}(?:\.\d*)?)?\s*` +
	`(?:([+-])(?:(\d{1,2})(?::(\d{2})(:\d{2})?)?|(\d{1,2})(\d{2}))|([A-Za-z][A-Za-z0-9_/+-]*))\s*$`)

// zonedConstant rewrites a timestamptz or timetz constant written in one
// of the forms Postgres reads and DuckDB does not into one DuckDB reads
// with the same meaning. DuckDB wants seconds before a zone, and an offset
// of two-digit hours that follows the time without a space; Postgres takes
// '2024-01-01 00:00+02', '10:00:00 -3' and '10:00 +5:30' as well.
func (r *rewriter) zonedConstant(n *pg.Node) {
	tc := n.GetTypeCast()
	target := lastName(tc.TypeName.Names)
	c := tc.Arg.GetAConst()
	if target != "timestamptz" && target != "timetz" || len(tc.TypeName.ArrayBounds) > 0 || c == nil || c.GetSval() == nil {
		return
	}
	text, ok := zonedText(c.GetSval().Sval, target == "timestamptz")
	if ok && text != c.GetSval().Sval {
		tc.Arg = pg.MakeAConstStrNode(text, -1)
		r.changed = true
	}
}

// zonedText is s in the form DuckDB reads (see zonedConstant), if s is a
// time with a zone, preceded by a date when withDate.
func zonedText(s string, withDate bool) (string, bool) {
	m := zonedLiteral.FindStringSubmatch(s)
	if m == nil || (m[1] != "") != withDate {
		return "", false
	}
	date, hour, minute, seconds := m[1], m[2], m[3], m[4]
	sign, offHour, offMinute, offSeconds, packedHour, packedMinute, zone := m[5], m[6], m[7], m[8], m[9], m[10], m[11]
	if zone != "" && !strings.EqualFold(zone, "z") && !withDate {
		return "", false // a time's zone name: DuckDB reads none, Postgres only some
	}
	if seconds == "" {
		seconds = ":00"
	}
	var b strings.Builder
	b.WriteString(date + twoDigits(hour) + ":" + minute + seconds)
	switch {
	case strings.EqualFold(zone, "z"):
		b.WriteString(zone) // DuckDB reads Z only right after the seconds
	case zone != "":
		b.WriteString(" " + zone)
	case packedHour != "":
		b.WriteString(sign + twoDigits(packedHour) + packedMinute)
	case offMinute == "":
		b.WriteString(sign + twoDigits(offHour))
	default:
		b.WriteString(sign + twoDigits(offHour) + ":" + offMinute + offSeconds)
	}
	return b.String(), true
}

func twoDigits(s string) string {
	if len(s) == 1 {
		return "0" + s
	}
	return s
}
