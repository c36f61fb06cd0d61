package main

import (
	"context"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestRecShapeOf(t *testing.T) {
	tests := []struct {
		name    string
		o       options
		want    recShape
		wantErr bool
	}{
		{"full", options{RecScale: 1}, recShape{mlUsers, mlItems, mlRatings}, false},
		{"fiftieth", options{RecScale: 0.02}, recShape{3251, 1248, 500002}, false},
		{"override", options{RecScale: 0.02, RecUsers: 100, RecRatings: 5000}, recShape{100, 1248, 5000}, false},
		{"too few ratings", options{RecScale: 1, RecUsers: 10, RecRatings: 199}, recShape{10, mlItems, 199}, true},
		{"too few items", options{RecScale: 1, RecItems: 39}, recShape{mlUsers, 39, mlRatings}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := recShapeOf(tt.o)
			if got != tt.want {
				t.Fatalf("recShapeOf = %+v, want %+v", got, tt.want)
			}
			if err := got.Validate(); (err != nil) != tt.wantErr {
				t.Fatalf("Validate() = %v, want error %v", err, tt.wantErr)
			}
		})
	}
}

// TestRecObjective checks that an unknown objective is refused before any
// ratings are generated.
func TestRecObjective(t *testing.T) {
	o := options{RecScale: 1, RecRuns: 1, RecObjective: "rmse", RecDB: filepath.Join(t.TempDir(), "never.duckdb"), Out: io.Discard}
	err := runRecommender(context.Background(), o)
	if err == nil || !strings.Contains(err.Error(), `-rec-objective "rmse" is not rating, ranking or ranking_vae`) {
		t.Fatalf("runRecommender with -rec-objective rmse: %v", err)
	}
	if _, err := os.Stat(o.RecDB); !os.IsNotExist(err) {
		t.Errorf("the ratings database exists (%v); nothing should have been generated", err)
	}
}

func TestPercentile(t *testing.T) {
	xs := []float64{5, 1, 4, 2, 3, 10, 9, 8, 7, 6}
	for _, tt := range []struct{ p, want float64 }{{0.5, 5}, {0.95, 10}, {0.9, 9}, {0.01, 1}} {
		if got := percentile(xs, tt.p); got != tt.want {
			t.Errorf("percentile(%v) = %v, want %v", tt.p, got, tt.want)
		}
	}
	if got := percentile(nil, 0.5); !math.IsNaN(got) {
		t.Errorf("percentile(nil) = %v, want NaN", got)
	}
}

// TestRecPhases checks that an unknown boundary merges its two phases.
func TestRecPhases(t *testing.T) {
	start := time.UnixMicro(1_000_000)
	end := time.UnixMicro(9_000_000)
	at := func(us int64) *int64 { return &us }
	got := recPhases(start, end, []*int64{at(2_000_000), nil, at(5_000_000)}, []string{"a", "b", "c", "d"})
	want := []recPhase{{"a", start, time.UnixMicro(2_000_000)}, {"b, c", time.UnixMicro(2_000_000), time.UnixMicro(5_000_000)},
		{"d", time.UnixMicro(5_000_000), end}}
	if len(got) != len(want) {
		t.Fatalf("recPhases = %v, want %v", got, want)
	}
	for i := range want {
		if got[i].name != want[i].name || !got[i].start.Equal(want[i].start) || !got[i].end.Equal(want[i].end) {
			t.Errorf("phase %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}
