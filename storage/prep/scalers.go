//go:build duckdb_arrow

package prep

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/mallard/mallard/mlops/scale"
	"github.com/mallard/mallard/sqlstate"
)

// Handle is a database/sql handle on Mallard's database: *sql.DB for the
// scaler store's rows, or the *sql.Conn that registers the functions.
type Handle interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// scalerSchema creates what Mallard's functions keep between calls besides
// the registry (see registry.Registry.Setup). Saved scalers live in
// mlops.scalers: one row per name; saving a name again replaces it.
var scalerSchema = []string{
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

// CreateScalerStore creates the mlops.scalers table unless it exists.
func CreateScalerStore(ctx context.Context, h Handle) error {
	for _, q := range scalerSchema {
		if _, err := h.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("create mlops schema: %w", err)
		}
	}
	return nil
}

// SavedScaler is a scaler as stored, with where it came from.
type SavedScaler struct {
	Name          string
	Scaler        scale.Scaler
	TimeColumns   []string
	TrainFraction float64
	TrainRows     int64
	TotalRows     int64
	Source        string
	Fingerprint   string
}

// SaveScaler stores s under its name, replacing a scaler saved as it.
func SaveScaler(ctx context.Context, h Handle, s SavedScaler) error {
	_, err := h.ExecContext(ctx, `INSERT OR REPLACE INTO mlops.scalers
		(name, method, stats, columns, mean, std, time_columns, train_fraction, train_rows, total_rows, source, fingerprint)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		s.Name, string(s.Scaler.Method), string(s.Scaler.Stats), s.Scaler.Columns, s.Scaler.Mean, s.Scaler.Std,
		s.TimeColumns, s.TrainFraction, s.TrainRows, s.TotalRows, s.Source, s.Fingerprint)
	if err != nil {
		return fmt.Errorf("save scaler %q: %w", s.Name, err)
	}
	return nil
}

// DropUnlinkedScaler removes the scaler saved as name unless a version
// that keeps weights links it: one that is ready, canceled with its
// checkpoint, or interrupted. A failed version keeps no weights, so it
// needs none.
func DropUnlinkedScaler(ctx context.Context, h Handle, name string) error {
	_, err := h.ExecContext(ctx, `DELETE FROM mlops.scalers WHERE name = ?
		AND NOT EXISTS (SELECT 1 FROM mlops.models WHERE scaler = ? AND status <> 'failed')`, name, name)
	if err != nil {
		return fmt.Errorf("drop scaler %q: %w", name, err)
	}
	return nil
}

// LoadScaler reads the scaler saved as name for function fn; 42704 if
// there is none.
func LoadScaler(ctx context.Context, h Handle, fn, name string) (scale.Scaler, error) {
	var method, stats string
	var cols, mean, std any
	err := h.QueryRowContext(ctx, "SELECT method, stats, columns, mean, std FROM mlops.scalers WHERE name = ?", name).
		Scan(&method, &stats, &cols, &mean, &std)
	if errors.Is(err, sql.ErrNoRows) {
		return scale.Scaler{}, sqlstate.New(sqlstate.UndefinedObject, "%s: scaler %s does not exist", fn, Quote(name)).
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
