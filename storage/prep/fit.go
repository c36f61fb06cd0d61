//go:build duckdb_arrow

package prep

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/mallard/mallard/mlops/scale"
	"github.com/mallard/mallard/sqlstate"
)

// Fit is how rescale fits its scaler.
type Fit struct {
	Method   scale.Method
	Stats    scale.Stats
	Fraction float64 // the leading share of rows, in time order, the statistics come from
}

// Fitted is a fitted scaler and what it was fitted on.
type Fitted struct {
	Scaler               scale.Scaler
	TimeColumns          []string // nil when the source has none
	TrainRows, TotalRows int64
	Fingerprint          string // identifies the source, its columns and rows, and the statistics
}

// Fit computes the training statistics (the first f.Fraction of the rows
// in time order) and fits the scaler.
func (s *Scaling) Fit(ctx context.Context, r Reader, f Fit) (Fitted, error) {
	total, err := s.count(ctx, r)
	if err != nil {
		return Fitted{}, err
	}
	train := int64(math.Floor(f.Fraction * float64(total)))
	if train < 2 {
		return Fitted{}, sqlstate.New(sqlstate.InvalidParameterValue,
			"rescale: train_fraction := %g of %d rows leaves %d training rows; at least 2 are needed", f.Fraction, total, train)
	}
	moments, err := s.moments(ctx, r, f.Method, train)
	if err != nil {
		return Fitted{}, err
	}
	names := make([]string, len(s.columns))
	for k, i := range s.columns {
		names[k] = s.src.Cols[i].Name
	}
	scaler, err := scale.Fit(f.Method, f.Stats, names, moments)
	if err != nil {
		return Fitted{}, fitError(err)
	}
	fitted := Fitted{Scaler: scaler, TrainRows: train, TotalRows: total, Fingerprint: s.fingerprint(total, moments)}
	for _, i := range s.times {
		fitted.TimeColumns = append(fitted.TimeColumns, s.src.Cols[i].Name)
	}
	return fitted, nil
}

func (s *Scaling) count(ctx context.Context, r Reader) (int64, error) {
	vals, err := s.row(ctx, r, "SELECT count(*) FROM "+s.src.From)
	if err != nil {
		return 0, err
	}
	total := vals[0].(int64)
	if total == 0 {
		return 0, sqlstate.New(sqlstate.DataException, "rescale: source %s has no rows", Quote(s.src.Text))
	}
	return total, nil
}

// moments reads count, mean and population variance of each column's
// (signed-log transformed) finite training values.
func (s *Scaling) moments(ctx context.Context, r Reader, method scale.Method, train int64) ([]scale.Moments, error) {
	moments := make([]scale.Moments, len(s.columns))
	if !method.Standardizes() {
		return moments, nil
	}
	if len(s.columns) > wideColumns {
		return s.wideMoments(ctx, r, method, train, moments)
	}
	var inner, aggs []string
	for k, i := range s.columns {
		v := "CAST(" + Ident(s.src.Cols[i].Name) + " AS DOUBLE)"
		if method.Transforms() {
			v = signedLogSQL(v)
		}
		inner = append(inner, fmt.Sprintf("CASE WHEN isfinite(%s) THEN %s END AS x%d", v, v, k))
		aggs = append(aggs, fmt.Sprintf("count(x%d), avg(x%d), var_pop(x%d)", k, k, k))
	}
	q := fmt.Sprintf("SELECT %s FROM (SELECT %s FROM %s%s LIMIT %d)",
		strings.Join(aggs, ", "), strings.Join(inner, ", "), s.src.From, s.orderBy, train)
	vals, err := s.row(ctx, r, q)
	if err != nil {
		return nil, err
	}
	for k := range moments {
		moments[k] = momentsOf(vals[3*k], vals[3*k+1], vals[3*k+2])
	}
	return moments, nil
}

// wideColumns is the most columns whose moments one row of aggregates
// computes. DuckDB's planning time grows faster than linearly with the
// aggregates of a statement (a pivot's 1,000 columns took minutes), so
// wider sources are unpivoted and grouped by column instead.
const wideColumns = 32

// wideMoments is moments over the training rows unpivoted: a row per
// column and training row, grouped by the column.
func (s *Scaling) wideMoments(ctx context.Context, r Reader, method scale.Method, train int64, moments []scale.Moments) ([]scale.Moments, error) {
	casts, names := make([]string, len(s.columns)), make([]string, len(s.columns))
	for k, i := range s.columns {
		names[k] = fmt.Sprintf("x%d", k)
		casts[k] = asDouble(s.src.Cols[i].Name, s.src.Cols[i].Type.ID) + " AS " + names[k]
	}
	v := "mallard_v"
	if method.Transforms() {
		v = signedLogSQL(v)
	}
	q := fmt.Sprintf(`SELECT CAST(substr(mallard_c, 2) AS BIGINT), count(x), avg(x), var_pop(x)
FROM (SELECT mallard_c, CASE WHEN isfinite(%s) THEN %s END AS x
      FROM (UNPIVOT (SELECT %s FROM %s%s LIMIT %d) ON %s INTO NAME mallard_c VALUE mallard_v))
GROUP BY mallard_c`, v, v, strings.Join(casts, ", "), s.src.From, s.orderBy, train, strings.Join(names, ", "))
	rows, err := r.Read(ctx, q)
	if err != nil {
		return nil, s.src.Wrap(err)
	}
	defer rows.Close()
	for rows.Next() {
		b := rows.Batch()
		for i := range int(b.NumRows()) {
			k := ValueAt(b.Column(0), i).(int64)
			moments[k] = momentsOf(ValueAt(b.Column(1), i), ValueAt(b.Column(2), i), ValueAt(b.Column(3), i))
		}
	}
	return moments, s.src.Wrap(rows.Err())
}

// momentsOf makes count, mean and population variance into Moments; no
// values make zero Moments.
func momentsOf(count, mean, variance any) scale.Moments {
	n := count.(int64)
	if n == 0 {
		return scale.Moments{}
	}
	return scale.Moments{N: n, Mean: mean.(float64), M2: variance.(float64) * float64(n)}
}

// signedLogSQL is scale.SignedLog as a DuckDB expression of v.
func signedLogSQL(v string) string {
	return fmt.Sprintf("CASE WHEN abs(%s) > 1 THEN sign(%s) * (1 + ln(abs(%s))) ELSE %s END", v, v, v, v)
}

func fitError(err error) error {
	var zero *scale.ZeroStdError
	var none *scale.NoDataError
	switch {
	case errors.As(err, &zero):
		return sqlstate.New(sqlstate.DataException, "rescale: %s", err.Error()).
			WithHint("A constant column cannot be standardised; leave it out with columns := [...], or use method := 'signed_log'.")
	case errors.As(err, &none):
		return sqlstate.New(sqlstate.DataException, "rescale: %s", err.Error()).
			WithHint("The training rows (the first train_fraction in time order) hold no finite value there.")
	}
	return err
}

// row runs a one-row query on the source and returns its values.
func (s *Scaling) row(ctx context.Context, r Reader, q string) ([]any, error) {
	rows, err := r.Read(ctx, q)
	if err != nil {
		return nil, s.src.Wrap(err)
	}
	defer rows.Close()
	if !rows.Next() {
		return nil, s.src.Wrap(rows.Err())
	}
	b := rows.Batch()
	vals := make([]any, b.NumCols())
	for i := range vals {
		vals[i] = ValueAt(b.Column(i), 0)
	}
	return vals, nil
}

// fingerprint identifies the data a scaler was fitted on: the source, its
// columns and row count, and the training statistics.
func (s *Scaling) fingerprint(rows int64, moments []scale.Moments) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%d\n", strings.TrimSpace(s.src.Text), rows)
	for _, c := range s.src.Cols {
		fmt.Fprintf(h, "%s %s\n", c.Name, c.Type)
	}
	for _, m := range moments {
		fmt.Fprintf(h, "%d %x %x\n", m.N, m.Mean, m.M2)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}
