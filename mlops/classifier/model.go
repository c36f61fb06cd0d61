package classifier

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"

	"github.com/mallard/mallard/mlops/parallel"
)

// Model kinds.
const (
	ModelLinear = "linear"
	ModelMLP    = "mlp"
	ModelCNN    = "cnn"
)

// Model is a trained network with the preprocessing it was trained with.
// A classifier's outputs are Classes, sorted; a regressor predicts
// TargetMean + TargetStd·output (it is trained on standardised targets).
type Model struct {
	Kind       string    `json:"kind"`
	Regression bool      `json:"regression"`
	Arch       Arch      `json:"arch"`
	Prep       Prep      `json:"prep"`
	Classes    []string  `json:"classes,omitempty"`
	TargetMean float64   `json:"target_mean,omitempty"`
	TargetStd  float64   `json:"target_std,omitempty"`
	Weights    []float64 `json:"weights"`
}

// Options choose and train a model.
type Options struct {
	Config
	Model       string  // ModelLinear, ModelMLP or ModelCNN; "" is cnn for images, else mlp
	Hidden      []int   // the MLP's layer widths (default 64)
	Dropout     float64 // the MLP's dropout
	ValFraction float64 // rows held out for validation when Fit gets no split
	// Balanced weighs a classifier's training loss by class, n/(k·n_c) for
	// a class of n_c of the n training rows and k classes, so that every
	// class weighs as much in total; it replaces Config.ClassWeights.
	Balanced bool
	// RawPixels uses an image column's values as they are, neither scaled
	// nor clipped to [0, 1].
	RawPixels bool
	// From is a training state to go on from (see TrainFrom), taken from
	// a run of the same options on the same rows; nil starts afresh.
	From *State
}

// DefaultOptions are DefaultConfig, the default model, and a fifth of the
// rows held out.
func DefaultOptions() Options {
	return Options{Config: DefaultConfig(), Hidden: []int{64}, ValFraction: 0.2}
}

// Target is what a model learns: Labels for a classifier, Values for a
// regressor, one per row.
type Target struct {
	Labels []string
	Values []float64
}

// Fit trains a model on t's rows to predict target. Rows with val[r] set
// are the validation rows; with val nil, a seeded ValFraction of the rows
// is. Preprocessing is learnt from the training rows alone.
func Fit(ctx context.Context, opts Options, t *Table, target Target, val []bool, report func(Epoch) error) (*Model, error) {
	src, err := InMemory(t)
	if err != nil {
		return nil, err
	}
	return FitSource(ctx, opts, src, target, val, report)
}

// FitSource is Fit on a source's rows. A source that is not a Table in
// memory (see InMemory) is read a chunk at a time: its training rows
// once or twice to learn the preprocessing, then every batch's rows as
// the batch is trained or validated, so that memory holds a batch and
// the model, not the table. The result is the same to the bit as Fit's
// on the same rows.
func FitSource(ctx context.Context, opts Options, src Source, target Target, val []bool, report func(Epoch) error) (*Model, error) {
	p, err := PrepareSource(ctx, opts, src, target, val)
	if err != nil {
		return nil, err
	}
	if err := p.Config.Validate(); err != nil {
		return nil, err
	}
	return p.TrainOn(ctx, parallel.NewLocal(p.Config.Workers), opts.From, report)
}

// Prepared is what Fit trains, its preprocessing learnt: the model
// without weights, the settings (class weights included) and the rows,
// preprocessed, with a class index or a standardised target each.
type Prepared struct {
	Model      *Model
	Config     Config
	Train, Val Data
}

// Prepare learns the preprocessing, the classes or the target's scale and
// the architecture of a Fit of the same arguments, and preprocesses the
// rows; it trains nothing.
func Prepare(opts Options, t *Table, target Target, val []bool) (*Prepared, error) {
	src, err := InMemory(t)
	if err != nil {
		return nil, err
	}
	return PrepareSource(context.Background(), opts, src, target, val)
}

// PrepareSource is Prepare on a source's rows, read as FitSource reads
// them: the prepared rows of a source not in memory are encoded as they
// are gathered.
func PrepareSource(ctx context.Context, opts Options, src Source, target Target, val []bool) (*Prepared, error) {
	n := src.Len()
	if (target.Labels == nil) == (target.Values == nil) || len(target.Labels)+len(target.Values) != n {
		return nil, fmt.Errorf("target of %d labels and %d values for %d rows: want one label per row (classifier) or one value per row (regressor)", len(target.Labels), len(target.Values), n)
	}
	if val == nil {
		val = holdout(n, opts.ValFraction, opts.Seed)
	}
	if len(val) != n {
		return nil, fmt.Errorf("split of %d rows for a table of %d", len(val), n)
	}
	var trainRows, valRows []int
	for r := range n {
		if val[r] {
			valRows = append(valRows, r)
		} else {
			trainRows = append(trainRows, r)
		}
	}
	m := &Model{Regression: target.Labels == nil}
	var err error
	if m.Prep, err = fitPrepSource(ctx, src, trainRows, opts.RawPixels); err != nil {
		return nil, err
	}
	x, err := m.Prep.examples(src)
	if err != nil {
		return nil, err
	}
	train, vd, err := m.targets(target, x, trainRows, valRows)
	if err != nil {
		return nil, err
	}
	if err := m.choose(opts); err != nil {
		return nil, err
	}
	cfg := opts.Config
	if opts.Balanced && !m.Regression {
		cfg.ClassWeights = balancedWeights(train.Labels, len(m.Classes))
	}
	return &Prepared{Model: m, Config: cfg, Train: train, Val: vd}, nil
}

// examples are src's rows preprocessed: a table in memory encoded at
// once, any other source encoded a batch at a time as it is read.
func (p *Prep) examples(src Source) (Examples, error) {
	if ts, ok := src.(tableSource); ok {
		x, err := p.features(ts.t)
		return memExamples{x: x, dim: p.input().size()}, err
	}
	return encoded{src: src, prep: p}, nil
}

// Network is the network the prepared model trains.
func (p *Prepared) Network() Network {
	in := p.Model.Prep.input()
	return Network{Arch: p.Model.Arch, H: in.H, W: in.W, C: in.C, Regression: p.Model.Regression}
}

// Dim is the number of inputs of each prepared row.
func (p *Prepared) Dim() int { return p.Model.Prep.input().size() }

// TrainOn trains the prepared model with the workers of coll from from
// (nil: afresh), as TrainOn does, and returns it with the weights it
// keeps. The epochs report hands on have a regressor's ValRMSE in the
// target's units and a Snapshot.
func (p *Prepared) TrainOn(ctx context.Context, coll parallel.Collective, from *State, report func(Epoch) error) (*Model, error) {
	m := *p.Model
	var rep func(Epoch) error
	if report != nil {
		rep = func(e Epoch) error {
			if m.Regression {
				e.ValRMSE *= m.TargetStd
			}
			e.Snapshot = func() *Model { c := m; c.Weights = slices.Clone(e.Weights); return &c }
			return report(e)
		}
	}
	var err error
	m.Weights, err = TrainOn(ctx, coll, p.Network(), p.Config, p.Train, p.Val, from, rep)
	if err != nil {
		return nil, err
	}
	return &m, nil
}

// balancedWeights are the class weights n/(k·n_c) of labels of k classes;
// a class without rows gets weight 0.
func balancedWeights(labels []int, k int) []float64 {
	counts := make([]float64, k)
	for _, l := range labels {
		counts[l]++
	}
	w := make([]float64, k)
	for c, n := range counts {
		if n > 0 {
			w[c] = float64(len(labels)) / (float64(k) * n)
		}
	}
	return w
}

// holdout marks a seeded fraction of n rows for validation.
func holdout(n int, fraction float64, seed uint64) []bool {
	val := make([]bool, n)
	perm := rand.New(rand.NewPCG(seed, 0x4a1d)).Perm(n)
	for _, r := range perm[:int(fraction*float64(n))] {
		val[r] = true
	}
	return val
}

// choose sets the model's kind and architecture.
func (m *Model) choose(opts Options) error {
	m.Kind = opts.Model
	if m.Kind == "" {
		m.Kind = ModelMLP
		if m.Prep.Image != nil {
			m.Kind = ModelCNN
		}
	}
	outputs := max(len(m.Classes), 1)
	switch m.Kind {
	case ModelLinear:
		m.Arch = Linear(outputs)
	case ModelMLP:
		m.Arch = MLP(cmpOr(opts.Hidden, []int{64}), opts.Dropout, outputs)
	case ModelCNN:
		if m.Prep.Image == nil {
			return fmt.Errorf("model %q needs an image column", m.Kind)
		}
		m.Arch = DefaultCNN(outputs)
	default:
		return fmt.Errorf("model %q: want %q, %q or %q", m.Kind, ModelLinear, ModelMLP, ModelCNN)
	}
	return nil
}

func cmpOr(a, b []int) []int {
	if len(a) == 0 {
		return b
	}
	return a
}

// targets splits x and the target into training and validation Data,
// learning the classes (or the target's scale) from the training rows.
func (m *Model) targets(target Target, x Examples, trainRows, valRows []int) (Data, Data, error) {
	if m.Regression {
		stats := numericStats(NumericColumn{Values: target.Values}, trainRows)
		m.TargetMean, m.TargetStd = stats.Mean, stats.Std
	} else {
		for _, r := range trainRows {
			m.Classes = append(m.Classes, target.Labels[r])
		}
		slices.Sort(m.Classes)
		m.Classes = slices.Compact(m.Classes)
	}
	pick := func(rows []int) (Data, error) {
		d := Data{Rows: len(rows), Examples: subsetExamples{ex: x, rows: rows}}
		for _, r := range rows {
			if m.Regression {
				d.Targets = append(d.Targets, (target.Values[r]-m.TargetMean)/m.TargetStd)
				continue
			}
			k, ok := slices.BinarySearch(m.Classes, target.Labels[r])
			if !ok {
				return d, fmt.Errorf("validation label %q is not among the training labels %v", target.Labels[r], m.Classes)
			}
			d.Labels = append(d.Labels, k)
		}
		return d, nil
	}
	train, err := pick(trainRows)
	if err != nil {
		return Data{}, Data{}, err
	}
	val, err := pick(valRows)
	return train, val, err
}

// Encode writes m as JSON; Decode reads it back with the same weights to
// the bit.
func (m *Model) Encode(w io.Writer) error { return json.NewEncoder(w).Encode(m) }

// Decode reads a model that Encode wrote and checks that its weights fit
// its architecture.
func Decode(r io.Reader) (*Model, error) {
	var m Model
	if err := json.NewDecoder(r).Decode(&m); err != nil {
		return nil, fmt.Errorf("decode model: %w", err)
	}
	n, err := buildNet(m.Arch, m.Prep.input())
	if err != nil {
		return nil, fmt.Errorf("decode model: %w", err)
	}
	if n.params() != len(m.Weights) {
		return nil, fmt.Errorf("decode model: %d weights for an architecture of %d", len(m.Weights), n.params())
	}
	return &m, nil
}
