//go:build duckdb_arrow

package functions

import (
	"github.com/mallard/mallard/mlops/gat/gatrun"
	"github.com/mallard/mallard/mlops/scale"
	"github.com/mallard/mallard/sqlstate"
)

// linkScaler loads the scaler named name (none if empty) and finds each entity's column in it.
func linkScaler(c *call, name string, entities []string) (*gatrun.Link, error) {
	if name == "" {
		return nil, nil
	}
	s, err := loadScaler(c.ctx(), c.db, gatrun.Name, name)
	if err != nil {
		return nil, err
	}
	column, missing := scalerColumns(s, entities)
	if missing >= 0 {
		return nil, noScalerColumn(name, entities[missing])
	}
	return &gatrun.Link{Scaler: s, Column: column}, nil
}

// versionLink is the version's scaler link, nil without a scaler: the scaler read
// and each entity's column found through one index of its columns, so
// that serving one entity of N costs O(N) here rather than the O(N^2) of
// scanning the columns once per entity (0.4 s of every forecast call at
// 10,000 entities).
func versionLink(c *call, s *gatrun.Version) (*gatrun.Link, error) {
	return linkScaler(c, s.Scaler, s.Entities)
}

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
	return sqlstate.New(sqlstate.InvalidParameterValue, "%s: scaler %s has no column %s", gatrun.Name, quote(name), entity).
		WithHint("Link the scaler that rescaled this source: rescale(..., save_as := '%s').", name)
}
