//go:build duckdb_arrow

package functions

import (
	"encoding/json"
	"fmt"
	"maps"

	"github.com/mallard/mallard/mlops"
	"github.com/mallard/mallard/mlops/classifier"
	"github.com/mallard/mallard/mlops/training"
	"github.com/mallard/mallard/sqlstate"
)

// clsStart is the version a resumed train_classifier or train_regressor
// run continues: its training state after its last stored epoch, and
// what the registry recorded of its data.
type clsStart struct {
	ref         mlops.Ref
	fingerprint string
	state       *classifier.State
}

// resume is the lifecycle's view of it; nil for a new run.
func (s *clsStart) resume(allowDataChange bool) *training.Resume {
	if s == nil {
		return nil
	}
	return &training.Resume{From: s.ref, Fingerprint: s.fingerprint, AllowDataChange: allowDataChange,
		Covers: "The fingerprint covers every feature, target and split value read."}
}

// clsResumeArgs reads the version resume := names (the newest with saved
// weights if it names none) and returns the call's arguments as if it had
// also given each option it left out as that version was trained with.
// model defaults to the resumed model's name.
func clsResumeArgs(c *call, fn, kind, target string, a args) (args, *clsStart, error) {
	from, prev, err := loadClsStart(c, fn, kind, a.text("resume"))
	if err != nil {
		return nil, nil, err
	}
	had := map[string]any{"architecture": prev.Architecture, "hidden": prev.Hidden, "dropout": prev.Dropout,
		"scale": prev.Scale, target: prev.Columns.Target, "epochs": int64(prev.Epochs), "lr": prev.LR, "optimizer": prev.Optimizer,
		"momentum": prev.Momentum, "batch_size": int64(prev.BatchSize), "weight_decay": prev.WeightDecay,
		"patience": int64(prev.Patience), "workers": int64(prev.Workers), "seed": int64(prev.Seed),
		"validation_fraction": prev.ValidationFraction, "test_fraction": prev.TestFraction,
		"class_weight":   map[bool]string{true: "balanced", false: "none"}[prev.ClassWeight == "balanced"],
		"max_categories": int64(max(prev.MaxCategories, 1))}
	if a.int("ranks") > 1 { // workers is then each rank's, and the version's the total
		delete(had, "workers")
	}
	if prev.Columns.Split != "" {
		had["split"] = prev.Columns.Split
	}
	if prev.Columns.Shape != nil {
		had["shape"] = prev.Columns.Shape
	}
	var features []string
	for _, f := range prev.Columns.Features {
		features = append(features, f.Name)
	}
	had["features"] = features
	// The arguments that shape the network and its input: a resumed run has
	// its checkpoint's, and a call may repeat them, not change them.
	for _, name := range []string{"architecture", "hidden", "dropout", "features", "shape", "scale", "split"} {
		if a.explicit(name) && fmt.Sprint(a.value(name)) != fmt.Sprint(had[name]) {
			return nil, nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: %s := %s differs from %s of %s, which resume continues",
				fn, name, argText(a.value(name)), argText(had[name]), from.ref).WithHint("Leave %s out to keep the checkpoint's.", name)
		}
	}
	out := maps.Clone(a)
	explicit := map[string]bool{}
	if e, ok := a[explicitKey].(map[string]bool); ok {
		maps.Copy(explicit, e)
	}
	out[explicitKey] = explicit
	for name, v := range had {
		if !explicit[name] && v != nil {
			out[name], explicit[name] = v, true
		}
	}
	if !a.given("model") {
		out["model"] = from.ref.Name
	}
	return out, from, nil
}

// loadClsStart reads the version text names (see loadResumed), its
// training state and its hyperparameters.
func loadClsStart(c *call, fn, kind, text string) (*clsStart, clsParams, error) {
	var prev clsParams
	m, v, err := loadResumed(c, fn, kind, text)
	if err != nil {
		return nil, prev, err
	}
	if err := json.Unmarshal([]byte(v.Hyperparameters), &prev); err != nil {
		return nil, prev, sqlstate.New(sqlstate.DataCorrupted, "%s: resume: the hyperparameters of %s: %v", fn, m.Ref, err)
	}
	var art clsArtifact
	if err := json.Unmarshal(m.Artifact, &art); err != nil {
		return nil, prev, sqlstate.New(sqlstate.DataCorrupted, "%s: resume: the saved weights of %s: %v", fn, m.Ref, err)
	}
	if art.State == nil {
		return nil, prev, sqlstate.New(sqlstate.ObjectNotInPrerequisiteState, "%s: resume: %s stores no training state to go on from", fn, m.Ref).
			WithDetail("A version whose architecture 'auto' stored the linear model keeps that model's weights, not the network's state.")
	}
	return &clsStart{ref: m.Ref, fingerprint: v.Fingerprint, state: art.State}, prev, nil
}
