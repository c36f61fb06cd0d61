package gat

import (
	"math"
	"slices"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/series"
)

// Scored are the methods evaluate scores at horizon h: the version's
// methods fitted on the fitting and validation samples and, with
// validation, "auto": each entity's method chosen on validation at this
// horizon (at most the validation rows). autoVal is auto's mean
// validation MSE over the entities (the lowest of each entity's, so an
// optimistic figure); 0 without validation.
func (s *Serving) Scored(fit, val []int, h int) (fs []baseline.Forecaster, autoVal float64, err error) {
	fs, _, err = s.Ladder(s.Data, append(slices.Clone(fit), val...))
	if err != nil {
		return nil, 0, err
	}
	if len(val) == 0 {
		return fs, 0, nil
	}
	_, names, mse, err := s.Choose(fit, val, min(h, len(val)))
	if err != nil {
		return nil, 0, err
	}
	auto, err := PerEntity(fs, names)
	if err != nil {
		return nil, 0, err
	}
	for _, v := range mse {
		autoVal += v / float64(len(mse))
	}
	return append(fs, auto), autoVal, nil
}

// Steps scores the methods fs at steps 1..h from each origin of the test
// samples, which begin at row from (see Horizons), in original units
// through invert.
func (s *Serving) Steps(fs []baseline.Forecaster, from, h int, invert Invert) []Step {
	m := s.Data
	scale := baseline.MASEScale(m, from, max(1, s.Model.Config.Season))
	return Horizons(fs, m, Origins(from, m.T, h), h, scale, invert)
}

// EntityScore is one method's scores on every entity: ValMSE fitted on the
// fitting samples, over the validation samples, TestMSE fitted on the
// fitting and validation samples, over the test samples (NaN for a method
// the test fit could not fit), each the mean over steps 1..h of that
// step's MSE.
type EntityScore struct {
	Method          string
	ValMSE, TestMSE []float64
}

// EntityScores scores every method of the version (the network and the
// ladder) on every entity at steps 1..h, and names each entity's method
// with the lowest validation MSE: the one "auto" takes. It needs
// validation samples.
func (s *Serving) EntityScores(fit, val, test []int, h int) (scores []EntityScore, chosen []string, err error) {
	m := s.Data
	chosenOn, names, _, err := s.Choose(fit, val, min(h, len(val)))
	if err != nil {
		return nil, nil, err
	}
	tested, _, err := Methods(s.Model, m, append(slices.Clone(fit), val...), max(1, s.Model.Config.Season))
	if err != nil {
		return nil, nil, err
	}
	for _, f := range chosenOn {
		k := slices.IndexFunc(tested, func(g baseline.Forecaster) bool { return g.Name() == f.Name() })
		score := EntityScore{Method: f.Name(), ValMSE: EntityMSE(f, m, val[0], val[len(val)-1]+1, min(h, len(val))),
			TestMSE: slices.Repeat([]float64{math.NaN()}, m.N)}
		if k >= 0 {
			score.TestMSE = EntityMSE(tested[k], m, test[0], m.T, h)
		}
		scores = append(scores, score)
	}
	return scores, names, nil
}

// Anomalies fits method on the fitting and validation samples and scores
// every row it was fitted to predict, from the first (from), against its
// one-step forecast (see the function Anomalies): the expected values and
// each entity's half-width at level.
func (s *Serving) Anomalies(method string, level float64, u Units) (from int, expected series.Matrix, half []float64, err error) {
	fit, val, _, err := s.Model.Config.Samples(s.Data)
	if err != nil {
		return 0, series.Matrix{}, nil, err
	}
	fr, _, err := s.FitterOf(method, fit, val, 1)
	if err != nil {
		return 0, series.Matrix{}, nil, err
	}
	f, err := fr(append(slices.Clone(fit), val...))
	if err != nil {
		return 0, series.Matrix{}, nil, err
	}
	from = fit[0]
	expected, half = Anomalies(f, s.Data, from, level, u)
	return from, expected, half, nil
}
