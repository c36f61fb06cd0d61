//go:build duckdb_arrow

package functions

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/mallard/mallard/mlops"
	"github.com/mallard/mallard/mlops/classifier"
	"github.com/mallard/mallard/mlops/registry"
	"github.com/mallard/mallard/sqlstate"
)

const featureImportanceName = "feature_importance"

// feature_importance('model', version := n, repeats := 5, seed := 1) is
// the permutation importance of each feature of a classifier or
// regressor version on its validation rows, which it finds again by
// reading the version's source and splitting it as training did.
func featureImportanceFunction() tableFunction {
	return typedFunction(featureImportanceName,
		[]column{{"feature", pgText}, {"importance", pgDouble}, {"std", pgDouble}, {"metric", pgText}}, bindFeatureImportance, nil)
}

// importanceArgs are feature_importance's arguments.
type importanceArgs struct {
	modelVersion
	Repeats int
	Seed    uint64
}

func (o *importanceArgs) params() []param {
	return []param{modelArg(&o.Model), versionArg(&o.Version),
		intArg(&o.Repeats, "repeats", 1, 1000, "how many times each feature is shuffled").or(5),
		intArg(&o.Seed, "seed", 0, unbounded, "the seed of the shuffles").or(1)}
}

// importanceJob is one call of feature_importance: the version, its
// model, and a job that reads its source as training did.
type importanceJob struct {
	job         *clsJob
	model       *classifier.Model
	ref         string
	fingerprint string
	repeats     int
	seed        uint64
}

// bindFeatureImportance loads the version (42704 if there is none, 42809
// for another kind of model), and refuses one trained without validation
// rows (55000) before anything is read.
func bindFeatureImportance(c *call, o *importanceArgs) (*table, error) {
	ref, err := o.ref(featureImportanceName)
	if err != nil {
		return nil, err
	}
	s, kind, m, err := loadSupervisedVersion(c, featureImportanceName, ref)
	if err != nil {
		return nil, err
	}
	v, err := c.reg.Version(c.ctx(), m.Ref)
	if err != nil {
		return nil, registryError(featureImportanceName, err)
	}
	var p clsParams
	if err := json.Unmarshal([]byte(v.Hyperparameters), &p); err != nil {
		return nil, sqlstate.New(sqlstate.DataCorrupted, "%s: the hyperparameters of %s: %v", featureImportanceName, m.Ref, err)
	}
	if p.Columns.Split == "" && p.ValidationFraction == 0 {
		return nil, noValidationRows(m.Ref.String())
	}
	spec := &clsSpec{fn: featureImportanceName, kind: kind, regression: kind == regressorKind, split: p.Columns.Split,
		valFraction: p.ValidationFraction, testFraction: p.TestFraction, maxCategories: max(p.MaxCategories, 1)}
	spec.opts.Seed = p.Seed
	src, err := openSource(c.ctx(), c, featureImportanceName, v.Source)
	if err != nil {
		return nil, err
	}
	j := &importanceJob{job: &clsJob{c: c, spec: spec, src: src, cols: s.cols}, model: s.model, ref: m.Ref.String(),
		fingerprint: v.Fingerprint, repeats: o.Repeats, seed: o.Seed}
	return &table{open: j.open}, nil
}

func noValidationRows(ref string) error {
	return sqlstate.New(sqlstate.ObjectNotInPrerequisiteState, "%s: %s was trained without validation rows, on which importance is measured", featureImportanceName, ref).
		WithHint("Train a version with validation_fraction above 0, or validation rows in its split column.")
}

// open reads the source, checks it is the data the version was trained
// on, and measures the importance of each feature on the validation rows.
func (j *importanceJob) open(ctx context.Context) (*run, error) {
	hold := &heldBudget{budget: j.job.c.db.Budget()}
	defer hold.release()
	d, err := j.job.read(ctx, hold)
	if err != nil {
		return nil, err
	}
	fp, err := d.fingerprint(ctx, j.job.cols)
	if err != nil {
		return nil, j.job.fitError(err)
	}
	if fp != j.fingerprint {
		return nil, sqlstate.New(sqlstate.ObjectNotInPrerequisiteState, "%s: source %s is not the data %s was trained on, so its validation rows cannot be found again",
			featureImportanceName, quote(j.job.src.text), j.ref).
			WithDetail("The version's fingerprint was %s; the source's is %s. It covers every feature, target and split value read.", j.fingerprint, fp).
			WithHint("Train a new version on the data as it is now.")
	}
	_, val, _, err := j.job.split(d)
	if err != nil {
		return nil, err
	}
	if len(val) == 0 {
		return nil, noValidationRows(j.ref)
	}
	// Permuting a column needs the validation rows at once: they are read
	// back from the spill file into memory, reserved first.
	if err := hold.Reserve(ctx, 8*int64(len(val))*j.job.width(), fmt.Sprintf("%s's %d validation rows", featureImportanceName, len(val))); err != nil {
		return nil, err
	}
	valRows, err := d.rows.Table(val)
	if err != nil {
		return nil, j.job.fitError(err)
	}
	target := classifier.Target{Labels: pick(d.labels, val), Values: pick(d.values, val)}
	_, imp, err := classifier.PermutationImportance(ctx, j.model, valRows, target, j.repeats, j.seed)
	if err != nil {
		return nil, j.job.fitError(err)
	}
	metric := j.model.ImportanceMetric()
	rows := make([][]any, len(imp))
	for i, x := range imp {
		rows[i] = []any{x.Feature, x.Mean, x.Std, metric}
	}
	return rowsRun(rows), nil
}

// heldBudget holds what a call reserves of the server's memory budget
// until release.
type heldBudget struct {
	budget interface {
		Reserve(ctx context.Context, n int64, what string) (func(), error)
	}
	held   []func()
	closes []io.Closer
}

// Hold closes c at release.
func (h *heldBudget) Hold(c io.Closer) { h.closes = append(h.closes, c) }

// Reserve takes n bytes for what, or fails with 53200.
func (h *heldBudget) Reserve(ctx context.Context, n int64, what string) error {
	release, err := h.budget.Reserve(ctx, n, what)
	if err == nil {
		h.held = append(h.held, release)
	}
	return err
}

func (h *heldBudget) release() {
	for _, r := range h.held {
		r()
	}
	for _, c := range h.closes {
		c.Close()
	}
}

// loadSupervisedVersion is loadSupervised, with what the registry records
// of the version it loaded (its number resolved).
func loadSupervisedVersion(c *call, fn string, ref mlops.Ref) (*storedCls, string, *registry.Model, error) {
	kind, err := supervisedKind(c, fn, ref)
	if err != nil {
		return nil, "", nil, err
	}
	m, v, err := c.reg.Decoded(c.ctx(), kind, ref, func(data []byte) (any, error) { return decodeClsArtifact(data) })
	if err != nil {
		return nil, "", nil, registryError(fn, err)
	}
	return v.(*storedCls), kind, m, nil
}
