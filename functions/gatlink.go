//go:build duckdb_arrow

package functions

import (
	"github.com/mallard/mallard/mlops/gat/gatrun"
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
	return gatrun.NewLink(s, name, entities)
}

// versionLink is the version's scaler link, nil without a scaler: the scaler read
// and each entity's column found through one index of its columns, so
// that serving one entity of N costs O(N) here rather than the O(N^2) of
// scanning the columns once per entity (0.4 s of every forecast call at
// 10,000 entities).
func versionLink(c *call, s *gatrun.Version) (*gatrun.Link, error) {
	return linkScaler(c, s.Scaler, s.Entities)
}
