package baseline_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/series"
)

func TestDetectSeason(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	noise := series.Matrix{T: 200, N: 6, Values: make([]float64, 1200)}
	for i := range noise.Values {
		noise.Values[i] = r.NormFloat64()
	}
	tests := []struct {
		name       string
		m          series.Matrix
		rows       int
		want       int
		wantNaNACF bool
	}{
		{"weekly with trend and noise", seasonal(140, 5, 7, 1, 1), 140, 7, false},
		{"monthly with trend and noise", seasonal(120, 5, 12, 1, 2), 120, 12, false},
		{"quarterly with trend and noise", seasonal(60, 4, 4, 1, 4), 60, 4, false},
		{"hourly over a third of the rows", seasonal(60, 5, 24, 0.5, 3), 60, 1, false},
		{"white noise", noise, 200, 1, false},
		{"too short for any candidate", noise, 11, 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, acf := baseline.DetectSeason(tt.m, tt.rows, baseline.SeasonCandidates())
			if got != tt.want || math.IsNaN(acf) != tt.wantNaNACF {
				t.Errorf("DetectSeason = %d (acf %v), want %d", got, acf, tt.want)
			}
			if got > 1 && acf <= 1.96/math.Sqrt(float64(tt.rows-1)) {
				t.Errorf("season %d chosen with insignificant acf %v", got, acf)
			}
		})
	}
}

// TestDetectSeasonIgnoresTrend checks that a steep trend with no season is
// not taken for one: its first differences are white noise.
func TestDetectSeasonIgnoresTrend(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	m := series.Matrix{T: 150, N: 4, Values: make([]float64, 600)}
	for i := range m.Values {
		m.Values[i] = 0.5*float64(i/m.N) + r.NormFloat64()
	}
	if got, acf := baseline.DetectSeason(m, m.T, baseline.SeasonCandidates()); got != 1 {
		t.Errorf("DetectSeason of a trend = %d (acf %v), want 1", got, acf)
	}
}
