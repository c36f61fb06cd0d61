package gat_test

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/series"
)

// level forecasts v for every entity at every step.
type level struct {
	name string
	v    float64
}

func (l level) Name() string { return l.name }
func (l level) Forecast(_ series.Matrix, _ int, dst [][]float64) {
	for _, row := range dst {
		for i := range row {
			row[i] = l.v
		}
	}
}

// twoLevels is 10 rows of two entities: the first at 1, the second at 2.
func twoLevels() series.Matrix {
	m := series.Matrix{T: 10, N: 2, Values: make([]float64, 20)}
	for t := range m.T {
		m.Values[2*t], m.Values[2*t+1] = 1, 2
	}
	return m
}

// ladderOf is a Ladder that fits fs whatever the samples, and calls fit
// with them.
func ladderOf(fs []baseline.Forecaster, skipped []error, fit func(train []int)) gat.Ladder {
	return func(_ series.Matrix, train []int) ([]baseline.Forecaster, []error, error) {
		if fit != nil {
			fit(train)
		}
		return fs, skipped, nil
	}
}

func TestChoiceSummary(t *testing.T) {
	for _, tc := range []struct {
		names []string
		want  string
	}{
		{[]string{"ets"}, "ets for 1 entity"},
		{[]string{"theta", "gat", "ets", "gat", "ets", "gat"}, "gat for 3 entities, ets for 2, theta for 1"},
		{[]string{"theta", "arima"}, "arima for 1 entity, theta for 1"},
	} {
		if got := (&gat.Choice{Names: tc.names}).Summary(); got != tc.want {
			t.Errorf("Summary(%q) = %q, want %q", tc.names, got, tc.want)
		}
	}
}

func TestPerEntity(t *testing.T) {
	fs := []baseline.Forecaster{level{"one", 1}, level{"two", 2}}
	p, err := gat.PerEntity(fs, []string{"two", "one", "two"})
	if err != nil || !slices.Equal(p.Choice, []int{1, 0, 1}) {
		t.Fatalf("PerEntity = %v, %v; want choice [1 0 1]", p, err)
	}
	_, err = gat.PerEntity(fs, []string{"one", "ets"})
	if err == nil || err.Error() != "method ets chosen for entity 1 cannot be fitted on these rows" {
		t.Errorf("PerEntity with an unfitted name: %v", err)
	}
}

// TestServingAuto chooses each entity's level by validation, refits the
// choice on other samples through the ladder, and refuses to choose
// without validation.
func TestServingAuto(t *testing.T) {
	fs := []baseline.Forecaster{level{"one", 1}, level{"two", 2}}
	var fitted [][]int
	s := &gat.Serving{Data: twoLevels(), HasData: true, Ladder: ladderOf(fs, nil, func(train []int) { fitted = append(fitted, train) })}
	fit, val := []int{2, 3, 4, 5}, []int{6, 7}
	fr, choice, err := s.FitterOf("auto", fit, val, 5)
	if err != nil {
		t.Fatal(err)
	}
	if choice.Horizon != 2 || !slices.Equal(choice.Names, []string{"one", "two"}) {
		t.Errorf("choice = %+v, want horizon 2 (the validation rows), names [one two]", choice)
	}
	f, err := fr(fit) // the fits the choice was made on
	if err != nil || len(fitted) != 1 {
		t.Fatalf("fit on the fitting samples: %v, %d ladder fits; want the choosing fit alone", err, len(fitted))
	}
	all := append(slices.Clone(fit), val...)
	if _, err = fr(all); err != nil || len(fitted) != 2 || !slices.Equal(fitted[1], all) {
		t.Fatalf("fit on every sample: %v, ladder fits %v", err, fitted)
	}
	dst := baseline.Rows(1, 2)
	f.Forecast(s.Data, 10, dst)
	if !slices.Equal(dst[0], []float64{1, 2}) {
		t.Errorf("auto forecasts %v, want [1 2]", dst[0])
	}
	if _, _, err := s.FitterOf("auto", fit, nil, 1); !errors.Is(err, gat.ErrNoValidation) {
		t.Errorf("auto without validation: %v, want ErrNoValidation", err)
	}
}

func TestServingMethod(t *testing.T) {
	reason := errors.New("ets: too few rows")
	s := &gat.Serving{Data: twoLevels(), HasData: true, Ladder: ladderOf([]baseline.Forecaster{level{"one", 1}}, []error{reason}, nil)}
	if f, err := s.Method([]int{2, 3}, "one"); err != nil || f.Name() != "one" {
		t.Errorf("Method(one) = %v, %v", f, err)
	}
	_, err := s.Method([]int{2, 3}, "ets")
	var unfit *gat.UnfittableError
	if !errors.As(err, &unfit) || unfit.Method != "ets" || !slices.Equal(unfit.Skipped, []error{reason}) {
		t.Errorf("Method(ets) = %v, want an UnfittableError with the ladder's reason", err)
	}
	big := &gat.Serving{Model: &gat.Model{Config: gat.DefaultConfig(), Entities: gat.CatalogueEntities + 1}, Data: twoLevels(), HasData: true,
		Ladder: ladderOf([]baseline.Forecaster{level{"one", 1}}, nil, nil)}
	var left *gat.LeftOutError
	if _, err := big.Method([]int{2, 3}, "arima"); !errors.As(err, &left) || left.Method != "arima" || left.Entities != gat.CatalogueEntities+1 {
		t.Errorf("Method(arima) past %d entities = %v, want a LeftOutError", gat.CatalogueEntities, err)
	}
	if gat.MethodName("model") != gat.ModelMethod || gat.MethodName("ets") != "ets" {
		t.Errorf("MethodName maps model to %q, ets to %q", gat.MethodName("model"), gat.MethodName("ets"))
	}
}

func TestServingFloors(t *testing.T) {
	m := twoLevels()
	m.Values[5] = -1 // entity 1 goes negative once
	own := func(_ int, v float64) float64 { return v }
	inf := math.Inf(-1)
	for _, tc := range []struct {
		name    string
		hasData bool
		value   gat.Invert
		entity  int
		want    []float64
	}{
		{"by the data", true, own, -1, []float64{0, inf}},
		{"one entity", true, own, 0, []float64{0, 0}},
		{"in other units", true, func(_ int, v float64) float64 { return v - 1.5 }, -1, []float64{inf, inf}},
		{"without data", false, own, -1, []float64{inf, inf}},
		{"one entity without data", false, own, 1, []float64{0, inf}},
	} {
		s := &gat.Serving{Model: &gat.Model{Entities: 2}, Data: m, HasData: tc.hasData}
		if got := s.Floors(tc.value, tc.entity); !slices.Equal(got, tc.want) {
			t.Errorf("%s: Floors = %v, want %v", tc.name, got, tc.want)
		}
	}
}
