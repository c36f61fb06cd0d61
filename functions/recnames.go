//go:build duckdb_arrow

package functions

import (
	"context"

	"github.com/mallard/mallard/mlops/recommender"
	"github.com/mallard/mallard/storage"
	"github.com/mallard/mallard/storage/prep"
)

// itemNamesArg checks train_recommender's item_names := text against the
// catalog (see prep.ReadItemNames).
func itemNamesArg(c *call, text string, cols recommender.Columns) (recommender.ItemNames, error) {
	return prep.ReadItemNames(c.ctx(), engine{c}, trainRecommenderName, text, cols)
}

// Describe describes query's columns as the caller would, without
// running it.
func (e engine) Describe(ctx context.Context, query string) ([]storage.Column, error) {
	return e.c.caller.Describe(ctx, query, e.c.setup...)
}
