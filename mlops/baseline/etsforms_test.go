package baseline_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/series"
)

// TestFitETSFormsKeepsTheChosenForm checks that ets fitted with the forms
// a full search chose on the same rows is that fit, byte for byte, and
// that fitted on more rows with the forms chosen on fewer it keeps each
// entity's form; an unknown form falls back to the full search.
func TestFitETSFormsKeepsTheChosenForm(t *testing.T) {
	m := series.Synthetic(6, 80, 2, 4)
	opt := baseline.Options{Window: 4, Season: 4}
	rows := func(n int) []int {
		var out []int
		for t := 4; t < n; t++ {
			out = append(out, t)
		}
		return out
	}
	full, err := baseline.FitForecaster(baseline.KindETS, m, rows(80), opt)
	if err != nil {
		t.Fatal(err)
	}
	e := full.(*baseline.ETS)
	kept, err := baseline.FitETSForms(m, rows(80), opt, e.Forms)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(e)
	b, _ := json.Marshal(kept)
	if string(a) != string(b) {
		t.Errorf("ets with its own forms differs from the full search:\n%s\n%s", a, b)
	}
	short, err := baseline.FitForecaster(baseline.KindETS, m, rows(60), opt)
	if err != nil {
		t.Fatal(err)
	}
	forms := short.(*baseline.ETS).Forms
	longer, err := baseline.FitETSForms(m, rows(80), opt, forms)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(longer.Forms, forms) {
		t.Errorf("forms on 80 rows %v, want those chosen on 60, %v", longer.Forms, forms)
	}
	unknown := slices.Repeat([]string{"Z,Z,Z"}, m.N)
	if f, err := baseline.FitETSForms(m, rows(80), opt, unknown); err != nil || !slices.Equal(f.Forms, e.Forms) {
		t.Errorf("unknown forms: %v, %v; want the full search's %v", f.Forms, err, e.Forms)
	}
}
