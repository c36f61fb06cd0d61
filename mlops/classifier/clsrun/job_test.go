package clsrun_test

import (
	"context"
	"strings"
	"testing"

	"github.com/mallard/mallard/mlops/classifier"
	"github.com/mallard/mallard/mlops/classifier/clsrun"
	"github.com/mallard/mallard/mlops/training"
	"github.com/mallard/mallard/sqlstate"
)

// budget grants every reservation and counts what is held.
type budget struct{ held int64 }

func (b *budget) Reserve(_ context.Context, n int64, _ string) (func(), error) {
	b.held += n
	return func() { b.held -= n }, nil
}

// rows is a source of one numeric feature x and one text feature t: row
// i has x = i, t = texts[i % len(texts)] and label labels[i].
type rows struct {
	labels []string
	texts  []string
}

func (r rows) Count(context.Context) (int64, error) { return int64(len(r.labels)), nil }

func (r rows) Read(_ context.Context, cols classifier.Columns, d *classifier.Labelled) error {
	rec := make([]float64, 0, 2*len(r.labels))
	for i, l := range r.labels {
		rec = append(rec, float64(i), d.Rows.Category(1, r.texts[i%len(r.texts)]))
		d.Labels = append(d.Labels, l)
	}
	return d.Rows.Write(rec, len(r.labels))
}

// job is a classifier job on r with features x and t, as train_classifier
// binds one; notices collects its NOTICEs.
func job(r rows, defaulted bool, notices *[]string) *clsrun.Job {
	j := &clsrun.Job{Fn: "train_classifier", Kind: "classifier", Name: "m", Target: "label", TargetCol: "label",
		Arch: clsrun.Auto, ValFraction: 0.2, TestFraction: 0.2, MaxCategories: 3, Options: classifier.DefaultOptions(),
		Source: "src", SpoolDir: "", Rows: r, Notice: func(s string) { *notices = append(*notices, s) },
		Cols: classifier.Columns{Target: "label", Defaulted: defaulted, Features: []classifier.Feature{
			{Name: "x", Kind: classifier.FeatureNumeric}, {Name: "t", Kind: classifier.FeatureCategorical}}}}
	return j
}

func labels(n int, of ...string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = of[i%len(of)]
	}
	return out
}

// TestReadRunRefuses: a source without rows, a classifier whose training
// rows have one class, and a text feature named by features := with more
// than max_categories categories are refused with their SQLSTATE before
// anything trains, and what was reserved is given back.
func TestReadRunRefuses(t *testing.T) {
	for _, tc := range []struct {
		name      string
		rows      rows
		defaulted bool
		code      sqlstate.Code
		want      string
	}{
		{"no rows", rows{texts: []string{"a"}}, false, sqlstate.DataException, "train_classifier: source 'src' has no rows"},
		{"one class", rows{labels: labels(50, "only"), texts: []string{"a"}}, false, sqlstate.InvalidParameterValue,
			"label := 'label' has one class, 'only', in the 30 training rows"},
		{"too many categories", rows{labels: labels(50, "p", "q"), texts: []string{"a", "b", "c", "d"}}, false,
			sqlstate.ProgramLimitExceeded, "feature t has more than max_categories := 3 categories"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var notices []string
			b := &budget{}
			mem := training.NewMemory(b)
			_, err := job(tc.rows, tc.defaulted, &notices).ReadRun(context.Background(), mem)
			mem.Release()
			if got := sqlstate.CodeOf(err); got != tc.code || err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("ReadRun: %v (code %s); want %s containing %q", err, got, tc.code, tc.want)
			}
			if b.held != 0 {
				t.Errorf("%d bytes still held after Release", b.held)
			}
		})
	}
}

// TestReadRunDropsDefaultedCategories: a default text feature with more
// than max_categories categories is left out with a NOTICE, and the
// parameters the registry records list the features kept.
func TestReadRunDropsDefaultedCategories(t *testing.T) {
	var notices []string
	mem := training.NewMemory(&budget{})
	defer mem.Release()
	j := job(rows{labels: labels(50, "p", "q"), texts: []string{"a", "b", "c", "d"}}, true, &notices)
	m, err := j.ReadRun(context.Background(), mem)
	if err != nil {
		t.Fatal(err)
	}
	if len(notices) != 1 || !strings.Contains(notices[0], "text column(s) t left out of the features") {
		t.Errorf("notices %q; want one that leaves t out", notices)
	}
	p := j.Params()
	if len(p.Columns.Features) != 1 || p.Columns.Features[0].Name != "x" {
		t.Errorf("recorded features %+v; want x alone", p.Columns.Features)
	}
	if spec := m.Spec(); spec.Rows != 50 || spec.Kind != "classifier" || spec.Source != "src" {
		t.Errorf("spec %+v; want 50 rows of a classifier read from src", spec)
	}
}

// TestCheck: each check made before the source is read fails with its
// SQLSTATE and a message naming the argument.
func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edit  func(j *clsrun.Job)
		split string
		shape []int
		code  sqlstate.Code
		want  string
	}{
		{"valid", func(*clsrun.Job) {}, "", nil, "", ""},
		{"no target", func(j *clsrun.Job) { j.TargetCol = "" }, "", nil, sqlstate.UndefinedFunction, "argument label is required"},
		{"no model", func(j *clsrun.Job) { j.Name = "" }, "", nil, sqlstate.UndefinedFunction, "argument model is required"},
		{"balanced regressor", func(j *clsrun.Job) { j.Regression, j.Options.Balanced = true, true }, "", nil,
			sqlstate.InvalidParameterValue, "class_weight := 'balanced' applies to classifiers"},
		{"no training rows", func(j *clsrun.Job) { j.ValFraction, j.TestFraction = 0.5, 0.5 }, "", nil,
			sqlstate.InvalidParameterValue, "validation_fraction := 0.5 and test_fraction := 0.5 leave no training rows"},
		{"split column keeps rows", func(j *clsrun.Job) { j.ValFraction, j.TestFraction = 0.5, 0.5 }, "part", nil, "", ""},
		{"two sizes", func(*clsrun.Job) {}, "", []int{28, 28}, sqlstate.InvalidParameterValue, "shape := [28, 28] has 2 sizes"},
		{"cnn without shape", func(j *clsrun.Job) { j.Arch = classifier.ModelCNN }, "", nil,
			sqlstate.InvalidParameterValue, "architecture := 'cnn' needs shape"},
		{"cnn small images", func(j *clsrun.Job) { j.Arch = classifier.ModelCNN }, "", []int{1, 3, 8},
			sqlstate.InvalidParameterValue, "shape := [1, 3, 8]: architecture 'cnn' pools twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var notices []string
			j := job(rows{}, false, &notices)
			tc.edit(j)
			err := j.Check(tc.split, tc.shape)
			if tc.code == "" {
				if err != nil {
					t.Fatalf("Check: %v", err)
				}
				return
			}
			if got := sqlstate.CodeOf(err); got != tc.code || err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Check: %v (code %s); want %s containing %q", err, got, tc.code, tc.want)
			}
		})
	}
}
