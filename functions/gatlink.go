//go:build duckdb_arrow

package functions

import (
	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/scale"
	"github.com/mallard/mallard/sqlstate"
)

// scaleLink maps a model's entities to the columns of the scaler that
// rescaled them, to report and forecast in original units.
type scaleLink struct {
	scaler scale.Scaler
	column []int // scaler column of each entity
}

// invert maps an entity's value back to original units; nil without a scaler.
func (l *scaleLink) invert() gat.Invert {
	if l == nil {
		return nil
	}
	return func(i int, v float64) float64 { return l.scaler.Invert(l.column[i], v) }
}

// units maps between the model's units and the data's own; the identity
// when no scaler is linked.
func (l *scaleLink) units() gat.Units {
	if l == nil {
		return gat.Units{}
	}
	return gat.Units{Own: l.invert(), Scaled: func(i int, v float64) float64 { return l.scaler.Apply(l.column[i], v) }}
}

// linkScaler loads the scaler named name (none if empty) and finds each entity's column in it.
func linkScaler(c *call, name string, entities []string) (*scaleLink, error) {
	if name == "" {
		return nil, nil
	}
	s, err := loadScaler(c.ctx(), c.db, trainGATName, name)
	if err != nil {
		return nil, err
	}
	column, missing := scalerColumns(s, entities)
	if missing >= 0 {
		return nil, noScalerColumn(name, entities[missing])
	}
	return &scaleLink{scaler: s, column: column}, nil
}

// link is the version's scaler link, nil without a scaler: the scaler read
// and each entity's column found through one index of its columns, so
// that serving one entity of N costs O(N) here rather than the O(N^2) of
// scanning the columns once per entity (0.4 s of every forecast call at
// 10,000 entities).
func (s *storedGAT) link(c *call) (*scaleLink, error) { return linkScaler(c, s.scaler, s.Entities) }

// scalerColumns is the column of s each entity names (the last of that
// name, should s repeat one), and the index of the first entity s has no
// column of, -1 when it has them all.
func scalerColumns(s scale.Scaler, entities []string) (column []int, missing int) {
	index := make(map[string]int, len(s.Columns))
	for k, col := range s.Columns {
		index[col] = k
	}
	column = make([]int, len(entities))
	for i, e := range entities {
		k, ok := index[e]
		if !ok {
			return nil, i
		}
		column[i] = k
	}
	return column, -1
}

// noScalerColumn is the error of a linked scaler without an entity's
// column.
func noScalerColumn(name, entity string) error {
	return sqlstate.New(sqlstate.InvalidParameterValue, "%s: scaler %s has no column %s", trainGATName, quote(name), entity).
		WithHint("Link the scaler that rescaled this source: rescale(..., save_as := '%s').", name)
}
