//go:build duckdb_arrow

package functions

import (
	"context"

	"github.com/mallard/mallard/mlops/scale"
	"github.com/mallard/mallard/storage"
	"github.com/mallard/mallard/storage/prep"
)

// loadScaler reads the scaler saved as name for fn; 42704 if there is none
// (see prep.LoadScaler).
func loadScaler(ctx context.Context, db *storage.DB, fn, name string) (scale.Scaler, error) {
	return prep.LoadScaler(ctx, db.SQL(), fn, name)
}
