//go:build duckdb_arrow

package prep

import (
	"context"
	"fmt"
	"strings"

	duckdb "github.com/duckdb/duckdb-go/v2"
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

// PivotSpec is what a pivot_entity_time call asks for, its arguments
// checked against their declarations.
type PivotSpec struct {
	Entity, Value string
	Time          []string
	Agg, Missing  string
	Duplicates    string // "" when not given
	AggGiven      bool   // whether the call gave agg
}

// Pivot is a bound pivot_entity_time call.
type Pivot struct {
	src      *Source
	entity   int      // source column of the entity
	value    int      // source column of the value
	times    []int    // source columns of the time
	timeExpr []string // how each time column is read
	timeCols []duckdb.ColumnInfo
	agg      string
	missing  string
	// duplicates is what a cell of several rows means: "error" refuses
	// them, "" (neither duplicates nor agg given) combines them with agg
	// and says so in a NOTICE, anything else combines them silently.
	duplicates string
	entities   []string       // in output order
	index      map[string]int // entity text -> position in entities
}

// NewPivot resolves spec's columns on src and checks they fit.
func NewPivot(src *Source, spec PivotSpec) (*Pivot, error) {
	p := &Pivot{src: src, agg: spec.Agg, missing: spec.Missing}
	if err := p.resolveDuplicates(spec); err != nil {
		return nil, err
	}
	if err := p.resolve(spec); err != nil {
		return nil, err
	}
	for _, i := range p.times {
		expr, t, err := src.PassThrough(i)
		if err != nil {
			return nil, err
		}
		p.timeExpr = append(p.timeExpr, expr)
		p.timeCols = append(p.timeCols, duckdb.ColumnInfo{Name: src.Cols[i].Name, T: t})
	}
	return p, nil
}

// resolve finds the entity, time and value columns and checks they fit.
func (p *Pivot) resolve(o PivotSpec) error {
	var err error
	if p.entity, err = p.src.Column("entity", o.Entity); err != nil {
		return err
	}
	if p.value, err = p.src.Column("value", o.Value); err != nil {
		return err
	}
	if p.times, err = p.src.TimeColumns(o.Time); err != nil {
		return err
	}
	used := map[int]string{p.entity: "entity", p.value: "value"}
	if p.entity == p.value {
		return sqlstate.New(sqlstate.InvalidParameterValue, "%s: entity and value name the same column %s", pivotName, o.Value)
	}
	for _, t := range p.times {
		if other, ok := used[t]; ok {
			return sqlstate.New(sqlstate.InvalidParameterValue, "%s: column %s is both a time column and the %s",
				pivotName, p.src.Cols[t].Name, other)
		}
		used[t] = "time"
	}
	if v := p.src.Cols[p.value]; p.agg != "count" && !IsNumeric(v.Type.ID) {
		return sqlstate.New(sqlstate.DatatypeMismatch, "%s: value column %s has type %s; it must be numeric", pivotName, v.Name, v.Type.PGName()).
			WithHint("Cast it in the source query, or count the rows with agg := 'count'.")
	}
	return nil
}

// resolveDuplicates sets how cells of several rows combine: duplicates :=
// 'sum', 'avg' or 'last' is agg by another name (both given must agree),
// 'error' refuses them.
func (p *Pivot) resolveDuplicates(o PivotSpec) error {
	switch d := o.Duplicates; {
	case d == "error":
		p.duplicates = d
	case d != "" && o.AggGiven && p.agg != d:
		return sqlstate.New(sqlstate.InvalidParameterValue, "%s: duplicates := '%s' and agg := '%s' disagree", pivotName, d, p.agg).
			WithHint("Give one of them: duplicates := '%s' combines the rows of a cell as agg := '%s' does.", d, d)
	case d != "":
		p.agg, p.duplicates = d, d
	case o.AggGiven:
		p.duplicates = "agg"
	}
	return nil
}

// FindEntities reads the distinct entities in their sorted order, at most
// max of them. It reads the entity column alone, which DuckDB can do
// without reading the rest.
func (p *Pivot) FindEntities(ctx context.Context, r Reader, max int64) error {
	e := Ident(p.src.Cols[p.entity].Name)
	q := fmt.Sprintf("SELECT CAST(e AS VARCHAR) FROM (SELECT DISTINCT %s AS e FROM %s) ORDER BY e NULLS FIRST LIMIT %d",
		e, p.src.From, max+1)
	rows, err := r.Read(ctx, q)
	if err != nil {
		return p.src.Wrap(err)
	}
	defer rows.Close()
	p.index = map[string]int{}
	for rows.Next() {
		col := rows.Batch().Column(0)
		for i := range col.Len() {
			v, ok := ValueAt(col, i).(string)
			if !ok {
				return sqlstate.New(sqlstate.NullValueNotAllowed, "%s: entity column %s has NULL values",
					pivotName, p.src.Cols[p.entity].Name).WithHint("Filter them out or give them a name with coalesce in the source query.")
			}
			p.index[v] = len(p.entities)
			p.entities = append(p.entities, v)
		}
	}
	if err := rows.Err(); err != nil {
		return p.src.Wrap(err)
	}
	switch {
	case len(p.entities) == 0:
		return sqlstate.New(sqlstate.DataException, "%s: source %s has no rows", pivotName, Quote(p.src.Text))
	case int64(len(p.entities)) > max:
		return sqlstate.New(sqlstate.ProgramLimitExceeded, "%s: source has more than %d entities (max_entities := %d)",
			pivotName, max, max).WithHint("Filter the source, or raise max_entities: each entity is one output column.")
	}
	return nil
}

// Columns are the output's columns: the time columns as the source has
// them, then one DOUBLE column per entity (after FindEntities).
func (p *Pivot) Columns() []duckdb.ColumnInfo {
	cols := append([]duckdb.ColumnInfo{}, p.timeCols...)
	for _, name := range columnNames(p.src.Cols[p.entity].Name, p.entities, p.timeCols) {
		cols = append(cols, duckdb.ColumnInfo{Name: name, T: doubleType()})
	}
	return cols
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
