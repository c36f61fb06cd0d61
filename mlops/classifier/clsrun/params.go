package clsrun

import (
	"encoding/json"

	"github.com/mallard/mallard/mlops"
	"github.com/mallard/mallard/mlops/classifier"
	"github.com/mallard/mallard/mlops/training"
	"github.com/mallard/mallard/sqlstate"
)

// Params are a run's hyperparameters as mlops.models records them.
type Params struct {
	Architecture       string             `json:"architecture"`
	Hidden             []int              `json:"hidden"`
	Epochs             int                `json:"epochs"`
	LR                 float64            `json:"lr"`
	Optimizer          string             `json:"optimizer"`
	Momentum           float64            `json:"momentum"`
	BatchSize          int                `json:"batch_size"`
	Dropout            float64            `json:"dropout"`
	WeightDecay        float64            `json:"weight_decay"`
	Patience           int                `json:"patience"`
	Workers            int                `json:"workers"`
	Ranks              int                `json:"ranks,omitempty"`
	Seed               uint64             `json:"seed"`
	ClassWeight        string             `json:"class_weight,omitempty"`
	MaxCategories      int                `json:"max_categories"`
	Scale              bool               `json:"scale"`
	ValidationFraction float64            `json:"validation_fraction"`
	TestFraction       float64            `json:"test_fraction"`
	Columns            classifier.Columns `json:"columns"`
}

// Params are the job's hyperparameters as the registry records them.
func (j *Job) Params() Params {
	o := j.Options
	p := Params{Architecture: j.Arch, Hidden: o.Hidden, Epochs: o.Epochs, LR: o.LR, Optimizer: o.Optimizer,
		Momentum: o.Momentum, BatchSize: o.BatchSize, Dropout: o.Dropout, WeightDecay: o.WeightDecay, Patience: o.Patience,
		Workers: o.Workers, Seed: o.Seed, Scale: !o.RawPixels, ValidationFraction: j.ValFraction,
		TestFraction: j.TestFraction, MaxCategories: j.MaxCategories, Columns: j.Cols}
	if j.Across != nil {
		p.Ranks = j.Across.Ranks()
	}
	if o.Balanced {
		p.ClassWeight = "balanced"
	}
	if j.Cols.Split != "" {
		p.TestFraction = 0
	}
	return p
}

// DecodeParams reads the hyperparameters version ref records (text); a
// text that does not decode is XX001, its message fn, what, the version
// and the error.
func DecodeParams(fn, what string, ref mlops.Ref, text string) (Params, error) {
	var p Params
	if err := json.Unmarshal([]byte(text), &p); err != nil {
		return p, sqlstate.New(sqlstate.DataCorrupted, "%s: %s %s: %v", fn, what, ref, err)
	}
	return p, nil
}

// Again is a job that reads the rows of a version trained with p again,
// as it read them: the same columns, split column or fractions and seed.
func (p Params) Again(fn, kind, target string) *Job {
	j := &Job{Fn: fn, Kind: kind, Regression: kind == "regressor", Target: target, Cols: p.Columns,
		ValFraction: p.ValidationFraction, TestFraction: p.TestFraction, MaxCategories: max(p.MaxCategories, 1)}
	j.Options.Seed = p.Seed
	return j
}

// Start is the version a resumed run continues: its training state after
// its last stored epoch, and what the registry recorded of its data.
type Start struct {
	Ref         mlops.Ref
	Fingerprint string
	State       *classifier.State
}

// Resume is the lifecycle's view of it; nil for a new run.
func (s *Start) Resume(allowDataChange bool) *training.Resume {
	if s == nil {
		return nil
	}
	return &training.Resume{From: s.Ref, Fingerprint: s.Fingerprint, AllowDataChange: allowDataChange,
		Covers: "The fingerprint covers every feature, target and split value read."}
}

// DecodeStart reads what resuming version ref needs from what the
// registry stores of it: its hyperparameters, its artifact and its data's
// fingerprint.
func DecodeStart(fn string, ref mlops.Ref, params string, artifact []byte, fingerprint string) (*Start, Params, error) {
	prev, err := DecodeParams(fn, "resume: the hyperparameters of", ref, params)
	if err != nil {
		return nil, prev, err
	}
	state, err := classifier.DecodeState(artifact)
	if err != nil {
		return nil, prev, sqlstate.New(sqlstate.DataCorrupted, "%s: resume: the saved weights of %s: %v", fn, ref, err)
	}
	if state == nil {
		return nil, prev, sqlstate.New(sqlstate.ObjectNotInPrerequisiteState, "%s: resume: %s stores no training state to go on from", fn, ref).
			WithDetail("A version whose architecture 'auto' stored the linear model keeps that model's weights, not the network's state.")
	}
	return &Start{Ref: ref, Fingerprint: fingerprint, State: state}, prev, nil
}
