//go:build duckdb_arrow

package functions

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/mallard/mallard/mlops/scale"
	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/storage"
)

// storeSchema creates what Mallard's functions keep between calls besides
// the registry (see registry.Registry.Setup). Saved scalers live in
// mlops.scalers: one row per name; saving a name again replaces it.
var storeSchema = []string{
	"CREATE SCHEMA IF NOT EXISTS mlops",
	`CREATE TABLE IF NOT EXISTS mlops.scalers (
		name VARCHAR PRIMARY KEY,
		method VARCHAR NOT NULL,
		stats VARCHAR NOT NULL,
		columns VARCHAR[] NOT NULL,
		mean DOUBLE[] NOT NULL,
		std DOUBLE[] NOT NULL,
		time_columns VARCHAR[] NOT NULL,
		train_fraction DOUBLE NOT NULL,
		train_rows BIGINT NOT NULL,
		total_rows BIGINT NOT NULL,
		source VARCHAR NOT NULL,
		fingerprint VARCHAR NOT NULL,
		created_at TIMESTAMPTZ NOT NULL DEFAULT current_timestamp)`,
}

func createStore(ctx context.Context, conn *sql.Conn) error {
	for _, q := range storeSchema {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("create mlops schema: %w", err)
		}
	}
	return nil
}

// savedScaler is a scaler as stored, with where it came from.
type savedScaler struct {
	name          string
	scaler        scale.Scaler
	timeColumns   []string
	trainFraction float64
	trainRows     int64
	totalRows     int64
	source        string
	fingerprint   string
}

func saveScaler(ctx context.Context, db *storage.DB, s savedScaler) error {
	_, err := db.SQL().ExecContext(ctx, `INSERT OR REPLACE INTO mlops.scalers
		(name, method, stats, columns, mean, std, time_columns, train_fraction, train_rows, total_rows, source, fingerprint)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		s.name, string(s.scaler.Method), string(s.scaler.Stats), s.scaler.Columns, s.scaler.Mean, s.scaler.Std,
		s.timeColumns, s.trainFraction, s.trainRows, s.totalRows, s.source, s.fingerprint)
	if err != nil {
		return fmt.Errorf("save scaler %q: %w", s.name, err)
	}
	return nil
}

// dropUnlinkedScaler removes the scaler saved as name unless a version
// that keeps weights links it: one that is ready, canceled with its
// checkpoint, or interrupted. A failed version keeps no weights, so it
// needs none.
func dropUnlinkedScaler(ctx context.Context, db *storage.DB, name string) error {
	_, err := db.SQL().ExecContext(ctx, `DELETE FROM mlops.scalers WHERE name = ?
		AND NOT EXISTS (SELECT 1 FROM mlops.models WHERE scaler = ? AND status <> 'failed')`, name, name)
	if err != nil {
		return fmt.Errorf("drop scaler %q: %w", name, err)
	}
	return nil
}

// loadScaler reads the scaler saved as name; 42704 if there is none.
func loadScaler(ctx context.Context, db *storage.DB, fn, name string) (scale.Scaler, error) {
	var method, stats string
	var cols, mean, std any
	err := db.SQL().QueryRowContext(ctx, "SELECT method, stats, columns, mean, std FROM mlops.scalers WHERE name = ?", name).
		Scan(&method, &stats, &cols, &mean, &std)
	if errors.Is(err, sql.ErrNoRows) {
		return scale.Scaler{}, sqlstate.New(sqlstate.UndefinedObject, "%s: scaler %s does not exist", fn, quote(name)).
			WithHint("rescale(..., save_as := 'name') saves one; SELECT name FROM mlops.scalers lists them.")
	}
	if err != nil {
		return scale.Scaler{}, fmt.Errorf("load scaler %q: %w", name, err)
	}
	s := scale.Scaler{Method: scale.Method(method), Stats: scale.Stats(stats)}
	for _, c := range cols.([]any) {
		s.Columns = append(s.Columns, c.(string))
	}
	for i := range mean.([]any) {
		s.Mean = append(s.Mean, mean.([]any)[i].(float64))
		s.Std = append(s.Std, std.([]any)[i].(float64))
	}
	return s, nil
}
