//go:build duckdb_arrow

package functions

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/sqlfront/pgcodec"
	"github.com/mallard/mallard/sqlstate"
)

const pivotName = "pivot_entity_time"

// pivotAggregates are the agg := values and the DuckDB aggregate of the
// value (as DOUBLE) each stands for; 'last' is the value of the last row
// in the source's order.
var pivotAggregates = map[string]string{
	"sum": "sum(%s)", "avg": "avg(%s)", "min": "min(%s)", "max": "max(%s)",
	"count": "CAST(count(%s) AS DOUBLE)", "last": "last(%s ORDER BY mallard_ord)",
}

func pivotFunction() tableFunction {
	return typedFunction(pivotName, nil, bindPivot, nil)
}

// pivot is a bound pivot_entity_time call.
type pivot struct {
	src      *source
	entity   int      // source column of the entity
	value    int      // source column of the value
	times    []int    // source columns of the time
	timeExpr []string // how each time column is read
	agg      string
	missing  string
	// duplicates is what a cell of several rows means: "error" refuses
	// them, "" (neither duplicates nor agg given) combines them with agg
	// and says so in a NOTICE, anything else combines them silently.
	duplicates string
	entities   []string       // in output order
	index      map[string]int // entity text -> position in entities
}

func bindPivot(c *call, o *pivotArgs) (*table, error) {
	src, err := openSource(c.ctx(), c, pivotName, o.Source)
	if err != nil {
		return nil, err
	}
	p := &pivot{src: src, agg: o.Agg, missing: o.Missing}
	if err := p.resolveDuplicates(o); err != nil {
		return nil, err
	}
	if err := p.resolve(o); err != nil {
		return nil, err
	}
	cols := make([]duckdb.ColumnInfo, 0, len(p.times))
	for _, i := range p.times {
		expr, t, err := src.passThrough(i)
		if err != nil {
			return nil, err
		}
		p.timeExpr = append(p.timeExpr, expr)
		cols = append(cols, duckdb.ColumnInfo{Name: src.cols[i].Name, T: t})
	}
	if err := p.findEntities(c.ctx(), c, o.MaxEntities); err != nil {
		return nil, err
	}
	for _, name := range columnNames(src.cols[p.entity].Name, p.entities, cols) {
		cols = append(cols, duckdb.ColumnInfo{Name: name, T: doubleType()})
	}
	return &table{cols: cols, open: func(ctx context.Context) (*run, error) { return p.run(ctx, c) }}, nil
}

// resolve finds the entity, time and value columns and checks they fit.
func (p *pivot) resolve(o *pivotArgs) error {
	var err error
	if p.entity, err = p.src.column("entity", o.Entity); err != nil {
		return err
	}
	if p.value, err = p.src.column("value", o.Value); err != nil {
		return err
	}
	if p.times, err = p.src.timeColumns(o.Time); err != nil {
		return err
	}
	used := map[int]string{p.entity: "entity", p.value: "value"}
	if p.entity == p.value {
		return sqlstate.New(sqlstate.InvalidParameterValue, "%s: entity and value name the same column %s", pivotName, o.Value)
	}
	for _, t := range p.times {
		if other, ok := used[t]; ok {
			return sqlstate.New(sqlstate.InvalidParameterValue, "%s: column %s is both a time column and the %s",
				pivotName, p.src.cols[t].Name, other)
		}
		used[t] = "time"
	}
	if v := p.src.cols[p.value]; p.agg != "count" && !isNumeric(v.Type.ID) {
		return sqlstate.New(sqlstate.DatatypeMismatch, "%s: value column %s has type %s; it must be numeric", pivotName, v.Name, v.Type.PGName()).
			WithHint("Cast it in the source query, or count the rows with agg := 'count'.")
	}
	return nil
}

// resolveDuplicates sets how cells of several rows combine: duplicates :=
// 'sum', 'avg' or 'last' is agg by another name (both given must agree),
// 'error' refuses them.
func (p *pivot) resolveDuplicates(o *pivotArgs) error {
	switch d := o.Duplicates; {
	case d == "error":
		p.duplicates = d
	case d != "" && o.explicit(&o.Agg) && p.agg != d:
		return sqlstate.New(sqlstate.InvalidParameterValue, "%s: duplicates := '%s' and agg := '%s' disagree", pivotName, d, p.agg).
			WithHint("Give one of them: duplicates := '%s' combines the rows of a cell as agg := '%s' does.", d, d)
	case d != "":
		p.agg, p.duplicates = d, d
	case o.explicit(&o.Agg):
		p.duplicates = "agg"
	}
	return nil
}

// findEntities reads the distinct entities in their sorted order. It reads
// the entity column alone, which DuckDB can do without reading the rest.
func (p *pivot) findEntities(ctx context.Context, c *call, max int64) error {
	e := ident(p.src.cols[p.entity].Name)
	q := fmt.Sprintf("SELECT CAST(e AS VARCHAR) FROM (SELECT DISTINCT %s AS e FROM %s) ORDER BY e NULLS FIRST LIMIT %d",
		e, p.src.from, max+1)
	r, err := c.read(ctx, q)
	if err != nil {
		return p.src.wrap(err)
	}
	defer r.Close()
	p.index = map[string]int{}
	for r.Next() {
		col := r.Batch().Column(0)
		for i := range col.Len() {
			v, ok := valueAt(col, i).(string)
			if !ok {
				return sqlstate.New(sqlstate.NullValueNotAllowed, "%s: entity column %s has NULL values",
					pivotName, p.src.cols[p.entity].Name).WithHint("Filter them out or give them a name with coalesce in the source query.")
			}
			p.index[v] = len(p.entities)
			p.entities = append(p.entities, v)
		}
	}
	if err := r.Err(); err != nil {
		return p.src.wrap(err)
	}
	switch {
	case len(p.entities) == 0:
		return sqlstate.New(sqlstate.DataException, "%s: source %s has no rows", pivotName, quote(p.src.text))
	case int64(len(p.entities)) > max:
		return sqlstate.New(sqlstate.ProgramLimitExceeded, "%s: source has more than %d entities (max_entities := %d)",
			pivotName, max, max).WithHint("Filter the source, or raise max_entities: each entity is one output column.")
	}
	return nil
}

// gridBytes is what the grid of the output holds for periods rows: a
// value and a flag per cell, and each row's time values.
func (p *pivot) gridBytes(periods int64) int64 {
	return periods * (int64(len(p.entities))*9 + int64(len(p.times))*40 + 24)
}

// columnNames makes entity values into column names: lower case letters,
// digits and underscores, not starting with a digit, distinct from each
// other and from the time columns.
func columnNames(entityCol string, entities []string, timeCols []duckdb.ColumnInfo) []string {
	used := map[string]bool{}
	for _, c := range timeCols {
		used[strings.ToLower(c.Name)] = true
	}
	names := make([]string, len(entities))
	for i, e := range entities {
		base := safeName(e)
		if base == "" || base[0] >= '0' && base[0] <= '9' {
			base = strings.Trim(safeName(entityCol)+"_"+base, "_")
		}
		name := base
		for n := 2; used[name]; n++ {
			name = fmt.Sprintf("%s_%d", base, n)
		}
		used[name] = true
		names[i] = name
	}
	return names
}

func safeName(s string) string {
	var b strings.Builder
	underscore := false
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			underscore = false
		} else if !underscore && b.Len() > 0 {
			b.WriteByte('_')
			underscore = true
		}
	}
	return strings.TrimRight(b.String(), "_")
}

// query aggregates the source to one row per (time, entity), in time
// order, after a first row that holds only the number of distinct times
// (the size of the output, known before Mallard builds it), the number of
// cells that several source rows fell into and those rows' number (its
// last three columns; NULL in every other row). The aggregate is
// materialized once and read twice, so the source is scanned once. It
// groups by the entity as it is and makes it text afterwards, once per
// cell instead of per row.
func (p *pivot) query() string {
	from := p.src.from
	if p.agg == "last" {
		from = "(SELECT *, row_number() OVER () AS mallard_ord FROM " + from + ") AS mallard_ordered"
	}
	value := fmt.Sprintf(pivotAggregates[p.agg], "CAST("+ident(p.src.cols[p.value].Name)+" AS DOUBLE)")
	times := p.src.identList(p.times)
	var nulls strings.Builder
	for _, t := range p.times {
		nulls.WriteString("NULL AS " + ident(p.src.cols[t].Name) + ", ")
	}
	return fmt.Sprintf(`WITH mallard_cells AS MATERIALIZED (
  SELECT %s, CAST(mallard_e AS VARCHAR) AS mallard_entity, mallard_value, mallard_n
  FROM (SELECT %s, %s AS mallard_e, %s AS mallard_value, count(*) AS mallard_n FROM %s GROUP BY ALL))
SELECT * FROM (
  SELECT %sNULL, NULL, NULL, (SELECT count(*) FROM (SELECT DISTINCT %s FROM mallard_cells)) AS mallard_periods,
    count(*) FILTER (WHERE mallard_n > 1), CAST(coalesce(sum(mallard_n) FILTER (WHERE mallard_n > 1), 0) AS BIGINT)
  FROM mallard_cells
  UNION ALL
  SELECT *, NULL, NULL, NULL FROM mallard_cells)
ORDER BY mallard_periods NULLS LAST, %s`,
		times, strings.Join(p.timeExpr, ", "), ident(p.src.cols[p.entity].Name), value, from, nulls.String(), times, times)
}

// checkDuplicates applies the duplicates := policy to the cells cells
// of several source rows, rows rows in all.
func (p *pivot) checkDuplicates(c *call, cells, rows int64) error {
	if cells == 0 {
		return nil
	}
	switch p.duplicates {
	case "error":
		return sqlstate.New(sqlstate.CardinalityViolation, "%s: %d (entity, time) cells have more than one row, %d rows in all (duplicates := 'error')",
			pivotName, cells, rows).
			WithHint("Remove the repeated rows in the source query, or choose duplicates := 'sum', 'avg' or 'last' to combine them.")
	case "":
		c.caller.Notice(fmt.Sprintf("%s: %d (entity, time) cells have more than one row, %d rows in all; combined by agg := '%s'. "+
			"Choose duplicates := 'sum', 'avg', 'last' or 'error' to say what repeated rows mean.", pivotName, cells, rows, p.agg))
	}
	return nil
}

// grid is the pivoted matrix: one row per time, one cell per entity.
type grid struct {
	times [][]any   // the time columns' values of each row
	cells []float64 // row-major, len(times) x width
	have  []bool    // whether each cell has a value
	width int
}

func (g *grid) rows() int { return len(g.times) }

func (p *pivot) run(ctx context.Context, c *call) (*run, error) {
	g, release, err := p.read(ctx, c)
	if err == nil {
		err = p.fillMissing(g)
	}
	if err != nil {
		release()
		return nil, err
	}
	next := 0
	return &run{fill: func(chunk duckdb.DataChunk) (int, error) {
		n := min(g.rows()-next, duckdb.GetDataChunkCapacity())
		err := g.write(chunk, next, n)
		next += n
		return n, err
	}, close: release}, nil
}

// read runs the aggregation and lays its cells out in the grid. Before it
// makes the grid it reserves the grid's memory in the server's budget,
// which fails with 53200 when the result does not fit the memory limit;
// release gives it back and is never nil.
func (p *pivot) read(ctx context.Context, c *call) (g *grid, release func(), err error) {
	release = func() {}
	r, err := c.read(ctx, p.query())
	if err != nil {
		return nil, release, p.src.wrap(err)
	}
	defer r.Close()
	k := len(p.times)
	var last []any
	for r.Next() {
		b := r.Batch()
		first := 0
		if b.NumRows() == 0 {
			continue
		}
		if g == nil { // the first row holds the number of times and of repeated cells
			periods := valueAt(b.Column(k+3), 0).(int64)
			if err := p.checkDuplicates(c, valueAt(b.Column(k+4), 0).(int64), valueAt(b.Column(k+5), 0).(int64)); err != nil {
				return nil, release, err
			}
			release, err = c.db.Budget().Reserve(ctx, p.gridBytes(periods),
				fmt.Sprintf("%s's result (%d rows x %d columns)", pivotName, periods, len(p.entities)+k))
			if err != nil {
				return nil, func() {}, err
			}
			g = &grid{width: len(p.entities), times: make([][]any, 0, periods)}
			g.cells, g.have = make([]float64, 0, int(periods)*g.width), make([]bool, 0, int(periods)*g.width)
			first = 1
		}
		values, valid := floats(b.Column(k + 1))
		for i := first; i < int(b.NumRows()); i++ {
			if i == first || !sameRow(b, k, i) {
				key, err := p.key(b, i)
				if err != nil {
					return nil, release, err
				}
				if last == nil || !sameKey(key, last) {
					if len(g.times) == cap(g.times) {
						return nil, release, sqlstate.New(sqlstate.ObjectNotInPrerequisiteState,
							"%s: the source gained a time while it was read", pivotName).WithHint("Run the statement again.")
					}
					g.times = append(g.times, key)
					g.cells = append(g.cells, make([]float64, g.width)...)
					g.have = append(g.have, make([]bool, g.width)...)
					last = key
				}
			}
			name, _ := pgcodec.StringAt(b.Column(k), i) // the entity column is cast to VARCHAR; aliases the batch
			e, ok := p.index[name]
			if !ok {
				return nil, release, sqlstate.New(sqlstate.ObjectNotInPrerequisiteState,
					"%s: the source gained an entity after the statement was prepared", pivotName).WithHint("Run the statement again.")
			}
			if valid(i) {
				cell := (g.rows()-1)*g.width + e
				g.cells[cell], g.have[cell] = values[i], true
			}
		}
	}
	if err := r.Err(); err != nil {
		return nil, release, p.src.wrap(err)
	}
	if g == nil {
		return nil, release, fmt.Errorf("%s: the aggregation returned no rows, not even their count", pivotName)
	}
	return g, release, nil
}

// key reads the time values of row i.
func (p *pivot) key(b arrow.RecordBatch, i int) ([]any, error) {
	key := make([]any, len(p.times))
	for t := range key {
		if key[t] = valueAt(b.Column(t), i); key[t] == nil {
			return nil, sqlstate.New(sqlstate.NullValueNotAllowed, "%s: time column %s has NULL values",
				pivotName, p.src.cols[p.times[t]].Name).WithHint("Filter them out in the source query.")
		}
	}
	return key, nil
}

// sameRow reports whether row i of b has the time values of row i-1 in
// its first k columns, comparing the Arrow values in place: the pivot reads
// a row per cell and boxes a row's times only when they change.
func sameRow(b arrow.RecordBatch, k, i int) bool {
	for t := range k {
		if !sameValue(b.Column(t), i-1, i) {
			return false
		}
	}
	return true
}

func sameValue(a arrow.Array, i, j int) bool {
	if a.IsNull(i) || a.IsNull(j) {
		return a.IsNull(i) && a.IsNull(j)
	}
	switch a := a.(type) {
	case *array.String:
		return a.Value(i) == a.Value(j)
	case *array.LargeString:
		return a.Value(i) == a.Value(j)
	case *array.StringView:
		return a.Value(i) == a.Value(j)
	case *array.Boolean:
		return a.Value(i) == a.Value(j)
	}
	if fw, ok := a.DataType().(arrow.FixedWidthDataType); ok && fw.BitWidth()%8 == 0 {
		w, off := fw.BitWidth()/8, a.Data().Offset()
		buf := a.Data().Buffers()[1].Bytes()
		return bytes.Equal(buf[(off+i)*w:(off+i+1)*w], buf[(off+j)*w:(off+j+1)*w])
	}
	return valueAt(a, i) == valueAt(a, j)
}

func sameKey(a, b []any) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// maxReported is how many missing cells an error lists.
const maxReported = 5

// fillMissing applies the missing := policy to cells without a value.
func (p *pivot) fillMissing(g *grid) error {
	switch p.missing {
	case "error":
		return p.missingError(g)
	case "zero":
		for i, ok := range g.have {
			if !ok {
				g.cells[i], g.have[i] = 0, true
			}
		}
	case "ffill":
		for e := range g.width {
			for t := 1; t < g.rows(); t++ {
				cell, prev := t*g.width+e, (t-1)*g.width+e
				if !g.have[cell] && g.have[prev] {
					g.cells[cell], g.have[cell] = g.cells[prev], true
				}
			}
		}
	}
	return nil
}

func (p *pivot) missingError(g *grid) error {
	var first []string
	count := 0
	for cell, ok := range g.have {
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
		pivotName, count, len(g.have)).
		WithDetail("Missing: %s%s.", strings.Join(first, ", "), more).
		WithHint("Every entity needs a value at every time; choose missing := 'null', 'zero' or 'ffill' to fill the gaps.")
}

// describeCell names a cell as (entity, time=value, ...).
func (p *pivot) describeCell(g *grid, cell int) string {
	t, e := cell/g.width, cell%g.width
	parts := []string{quote(p.entities[e])}
	for i, v := range g.times[t] {
		parts = append(parts, fmt.Sprintf("%s=%v", p.src.cols[p.times[i]].Name, timeText(v)))
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// write writes rows from..from+n of the grid into chunk rows 0..n.
func (g *grid) write(chunk duckdb.DataChunk, from, n int) error {
	if n == 0 {
		return nil
	}
	k := len(g.times[0])
	for r := range n {
		for t, v := range g.times[from+r] {
			if err := chunk.SetValue(t, r, v); err != nil {
				return err
			}
		}
	}
	w, err := newChunkWriter(chunk, k+g.width)
	if err != nil {
		return err
	}
	for e := range g.width {
		dst := w.doubles(k+e, n) // nil: the statement does not read the column
		for r := range dst {
			cell := (from+r)*g.width + e
			dst[r] = g.cells[cell]
			if !g.have[cell] {
				if err := chunk.SetValue(k+e, r, nil); err != nil {
					return err
				}
			}
		}
	}
	return nil
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
