package gatrun

import (
	"context"
	"math"
	"strings"

	"github.com/mallard/mallard/mlops/scale"
	"github.com/mallard/mallard/mlops/series"
	"github.com/mallard/mallard/sqlstate"
)

// rescaleLong transforms every entity's values of a long source in place
// as rescale(..., stats := 'per_column') does: the signed logarithm, then
// the z-score with the mean and standard deviation of the entity's first
// floor(train_fraction x rows) rows. It links the job to the scaler.
func (j *Job) rescaleLong(m series.Matrix) error {
	fraction := j.Config.TrainFraction
	train := int(math.Floor(fraction * float64(m.T)))
	if train < 2 {
		return sqlstate.New(sqlstate.InvalidParameterValue, "%s: train_fraction := %g of %d times leaves %d training rows to rescale by; at least 2 are needed",
			Name, fraction, m.T, train)
	}
	moments := make([]scale.Moments, m.N)
	for t := range train {
		for i, v := range m.Row(t) {
			moments[i].Add(scale.SignedLog(v))
		}
	}
	s, err := scale.Fit(scale.SignedLogZScore, scale.PerColumn, j.Source.EntityNames(), moments)
	if err != nil {
		return sqlstate.New(sqlstate.DataException, "%s: rescaling entity by entity: %v", Name, err).
			WithHint("An entity constant over its training rows (the first train_fraction of the times) cannot be standardised; leave it out of the source.")
	}
	for k, v := range m.Values {
		m.Values[k] = s.Apply(k%m.N, v)
	}
	j.Link = &Link{Scaler: s, Column: make([]int, m.N)}
	for i := range j.Link.Column {
		j.Link.Column[i] = i
	}
	return nil
}

// longScalerName is the name the scaler of a model trained on a long
// source is saved under: the model's and its data's fingerprint, so that
// versions trained on other data keep theirs.
func longScalerName(model, fingerprint string) string {
	_, hex, _ := strings.Cut(fingerprint, ":")
	if hex == "" {
		hex = fingerprint
	}
	return model + "@" + hex[:min(12, len(hex))]
}

// saveLongScaler saves the scaler of a long source under the model's name
// and the data's fingerprint fp, for the version to link.
func (j *Job) saveLongScaler(ctx context.Context, fp string) error {
	j.Scaler = longScalerName(j.Name, fp)
	train := int64(math.Floor(j.Config.TrainFraction * float64(len(j.timeRows))))
	return j.Scalers.SaveScaler(ctx, SavedScaler{Name: j.Scaler, Scaler: j.Link.Scaler, TimeColumns: j.Source.TimeNames(),
		TrainFraction: j.Config.TrainFraction, TrainRows: train, TotalRows: int64(len(j.timeRows)), Source: j.Text, Fingerprint: fp})
}
