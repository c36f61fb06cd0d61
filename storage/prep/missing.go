//go:build duckdb_arrow

package prep

import (
	"fmt"
	"strings"
	"time"

	"github.com/mallard/mallard/sqlstate"
)

// maxReported is how many missing cells an error lists.
const maxReported = 5

// fillMissing applies the missing := policy to cells without a value.
func (p *Pivot) fillMissing(g *Grid) error {
	switch p.missing {
	case "error":
		return p.missingError(g)
	case "zero":
		for i, ok := range g.Have {
			if !ok {
				g.Cells[i], g.Have[i] = 0, true
			}
		}
	case "ffill":
		for e := range g.Width {
			for t := 1; t < g.Rows(); t++ {
				cell, prev := t*g.Width+e, (t-1)*g.Width+e
				if !g.Have[cell] && g.Have[prev] {
					g.Cells[cell], g.Have[cell] = g.Cells[prev], true
				}
			}
		}
	}
	return nil
}

func (p *Pivot) missingError(g *Grid) error {
	var first []string
	count := 0
	for cell, ok := range g.Have {
		if ok {
			continue
		}
		count++
		if len(first) < maxReported {
			first = append(first, p.describeCell(g, cell))
		}
	}
	if count == 0 {
		return nil
	}
	more := ""
	if count > maxReported {
		more = ", ..."
	}
	return sqlstate.New(sqlstate.DataException, "%s: %d of %d cells have no value (missing := 'error')",
		pivotName, count, len(g.Have)).
		WithDetail("Missing: %s%s.", strings.Join(first, ", "), more).
		WithHint("Every entity needs a value at every time; choose missing := 'null', 'zero' or 'ffill' to fill the gaps.")
}

// describeCell names a cell as (entity, time=value, ...).
func (p *Pivot) describeCell(g *Grid, cell int) string {
	t, e := cell/g.Width, cell%g.Width
	parts := []string{Quote(p.entities[e])}
	for i, v := range g.Times[t] {
		parts = append(parts, fmt.Sprintf("%s=%v", p.src.Cols[p.times[i]].Name, timeText(v)))
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// timeText writes a time value for an error message.
func timeText(v any) string {
	t, ok := v.(time.Time)
	switch {
	case !ok:
		return fmt.Sprint(v)
	case t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 && t.Nanosecond() == 0:
		return t.Format(time.DateOnly)
	}
	return t.Format(time.DateTime)
}
