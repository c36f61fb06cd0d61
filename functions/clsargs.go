//go:build duckdb_arrow

package functions

import (
	"math"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/mlops/classifier"
	"github.com/mallard/mallard/mlops/training"
	"github.com/mallard/mallard/sqlstate"
)

const (
	trainClassifierName = "train_classifier"
	trainRegressorName  = "train_regressor"
	// classifierKind and regressorKind are the kinds mlops.models records
	// for the models train_classifier and train_regressor make.
	classifierKind = "classifier"
	regressorKind  = "regressor"
	// archAuto is the architecture argument's default (see clsSpec.arch).
	archAuto = "auto"
)

// architectures are the values architecture := accepts.
var architectures = []string{archAuto, classifier.ModelLinear, classifier.ModelMLP, classifier.ModelCNN}

func trainClassifierFunction() tableFunction {
	f := trainSupervisedFunction(trainClassifierName, "label")
	f.bind = func(c *call, a args) (*table, error) {
		return bindTrainSupervised(c, a, trainClassifierName, "label", func(a args) string { return a.text("label") })
	}
	return f
}

func trainRegressorFunction() tableFunction {
	f := trainSupervisedFunction(trainRegressorName, "target")
	f.bind = func(c *call, a args) (*table, error) {
		return bindTrainSupervised(c, a, trainRegressorName, "target", func(a args) string { return a.text("target") })
	}
	return f
}

// trainSupervisedFunction is the signature of train_classifier or
// train_regressor, which differ only in the name of the argument that names
// the column to learn; each sets its own bind, which reads that argument by
// its literal name.
func trainSupervisedFunction(fn, target string) tableFunction {
	def := classifier.DefaultOptions()
	return tableFunction{
		sig: signature{
			fn:         fn,
			positional: []param{{name: "source", kind: kindText, required: true}},
			named: []param{
				{name: "model", kind: kindText},
				{name: target, kind: kindText},
				{name: "features", kind: kindTextList},
				{name: "architecture", kind: kindText, choices: architectures, def: archAuto},
				{name: "shape", kind: kindIntList},
				{name: "scale", kind: kindBool, def: true},
				{name: "hidden", kind: kindIntList, def: def.Hidden},
				{name: "epochs", kind: kindInt, min: 1, max: 100_000, def: int64(clsDefaultEpochs)},
				{name: "lr", kind: kindFloat, min: 0, max: 10, minOpen: true, def: def.LR},
				{name: "optimizer", kind: kindText, choices: []string{classifier.OptimizerAdam, classifier.OptimizerSGD}, def: def.Optimizer},
				{name: "momentum", kind: kindFloat, min: 0, max: 1, maxOpen: true, def: def.Momentum},
				{name: "batch_size", kind: kindInt, min: 1, max: 1_000_000, def: int64(def.BatchSize)},
				{name: "dropout", kind: kindFloat, min: 0, max: 1, maxOpen: true, def: 0.0},
				{name: "weight_decay", kind: kindFloat, min: 0, max: 100, def: 0.0},
				{name: "validation_fraction", kind: kindFloat, min: 0, max: 1, maxOpen: true, def: 0.2},
				{name: "test_fraction", kind: kindFloat, min: 0, max: 1, maxOpen: true, def: 0.2},
				{name: "split", kind: kindText},
				{name: "patience", kind: kindInt, min: 0, max: 100_000, def: int64(clsDefaultPatience)},
				{name: "class_weight", kind: kindText, choices: []string{"none", "balanced"}, def: "none"},
				{name: "max_categories", kind: kindInt, min: 1, max: 100_000, def: int64(100)},
				{name: "workers", kind: kindInt, min: 1, max: 64, def: int64(1)},
				{name: "ranks", kind: kindInt, min: 1, max: training.MaxRanks, def: int64(1)},
				{name: "seed", kind: kindInt, min: 0, max: math.MaxInt64, def: int64(def.Seed)},
				{name: "checkpoint_every", kind: kindInt, min: 0, max: 1_000_000, def: int64(0)},
				{name: "deploy", kind: kindText, choices: []string{"auto", "always", "never"}, def: "auto"},
				{name: "resume", kind: kindText},
				{name: "allow_data_change", kind: kindBool, def: false},
			},
		},
		writes: always,
	}
}

// clsDefaultEpochs and clsDefaultPatience are the SQL defaults: more
// epochs than the core's 10, as small tables (penguins: 200 training
// rows, 4 steps an epoch) need a few hundred steps; early stopping ends
// the runs that need fewer. Images default to clsImageEpochs: an epoch
// of MNIST is 940 steps, and the default CNN passes 99 % test accuracy
// within 8 (docs/classifier.md).
const (
	clsDefaultEpochs   = 100
	clsDefaultPatience = 10
	clsImageEpochs     = 10
)

// clsSpec is one call of train_classifier or train_regressor, its
// arguments typed and checked.
type clsSpec struct {
	fn, kind, name string
	regression     bool
	opts           classifier.Options
	// target is the argument naming the column to learn (label or
	// target), and targetCol that column as the source spells it.
	target, targetCol string
	// arch is architecture := as given; auto lets Fit choose (cnn for an
	// image, else mlp).
	arch          string
	shape         []int
	features      []string // as given; nil when not given
	split         string   // the split column, "" for a seeded split
	valFraction   float64
	testFraction  float64
	maxCategories int
	deploy        string
	checkpoint    int
	// from is the version a resumed run continues; nil for a new run.
	from            *clsStart
	allowDataChange bool
}

// newClsSpec types the arguments of a call of fn and checks what can be
// checked without the source.
func newClsSpec(fn, target, targetCol string, a args) (*clsSpec, error) {
	s := &clsSpec{fn: fn, kind: classifierKind, name: a.text("model"), target: target, targetCol: targetCol,
		arch: a.text("architecture"), shape: a.ints("shape"), features: a.texts("features"), split: a.text("split"),
		valFraction: a.float("validation_fraction"), testFraction: a.float("test_fraction"),
		maxCategories: int(a.int("max_categories")), deploy: a.text("deploy"), checkpoint: int(a.int("checkpoint_every"))}
	if fn == trainRegressorName {
		s.kind, s.regression = regressorKind, true
	}
	o := classifier.DefaultOptions()
	o.Epochs, o.LR, o.Optimizer, o.Momentum = int(a.int("epochs")), a.float("lr"), a.text("optimizer"), a.float("momentum")
	o.BatchSize, o.WeightDecay, o.Patience = int(a.int("batch_size")), a.float("weight_decay"), int(a.int("patience"))
	o.Workers, o.Seed, o.Hidden, o.Dropout = int(a.int("workers")), uint64(a.int("seed")), a.ints("hidden"), a.float("dropout")
	o.Balanced, o.RawPixels = a.text("class_weight") == "balanced", !a.bool("scale")
	if s.arch != archAuto {
		o.Model = s.arch
	}
	s.opts = o
	if err := o.Validate(); err != nil {
		return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: %v", fn, err)
	}
	switch {
	case s.targetCol == "":
		return nil, sqlstate.New(sqlstate.UndefinedFunction, "%s: argument %s is required", fn, target).
			WithHint("Name the column to learn: %s(source, %s := 'column', model := 'name').", fn, target)
	case s.name == "":
		return nil, sqlstate.New(sqlstate.UndefinedFunction, "%s: argument model is required", fn).
			WithHint("Name the model to train: %s(source, %s := 'column', model := 'name').", fn, target)
	case s.regression && o.Balanced:
		return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: class_weight := 'balanced' applies to classifiers; a regressor has no classes", fn)
	case s.split == "" && s.valFraction+s.testFraction >= 1:
		return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: validation_fraction := %g and test_fraction := %g leave no training rows",
			fn, s.valFraction, s.testFraction).WithHint("Their sum must be below 1.")
	case a.given("shape") && len(s.shape) != 3:
		return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: shape := %s has %d sizes; give three: [channels, height, width]",
			fn, intsText(s.shape), len(s.shape))
	case s.arch == classifier.ModelCNN && !a.given("shape"):
		return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: architecture := 'cnn' needs shape := [channels, height, width] of the image column", fn).
			WithHint("Images are an array (UTINYINT[], FLOAT[]) or BLOB column, for example shape := [1, 28, 28] for MNIST.")
	case s.arch == classifier.ModelCNN && (s.shape[1] < 4 || s.shape[2] < 4):
		return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: shape := %s: architecture 'cnn' pools twice by 2 and needs images of at least 4 x 4",
			fn, intsText(s.shape)).WithHint("Use architecture := 'mlp' for smaller images.")
	}
	return s, nil
}

// outputs are the columns of the training statement: one row per epoch.
func (s *clsSpec) outputs() []duckdb.ColumnInfo {
	metric := "val_accuracy"
	if s.regression {
		metric = "val_rmse"
	}
	return epochColumns("train_loss", "val_loss", metric)
}

func bindTrainSupervised(c *call, a args, fn, target string, column func(args) string) (*table, error) {
	var from *clsStart
	if a.given("resume") {
		kind := map[bool]string{true: regressorKind, false: classifierKind}[fn == trainRegressorName]
		var err error
		if a, from, err = clsResumeArgs(c, fn, kind, target, a); err != nil {
			return nil, err
		}
	}
	s, err := newClsSpec(fn, target, column(a), a)
	if err != nil {
		return nil, err
	}
	s.from, s.allowDataChange, s.opts.From = from, a.bool("allow_data_change"), nil
	if from != nil {
		if s.opts.Epochs <= from.state.Epoch {
			return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: epochs := %d: %s has trained %d epochs already", fn, s.opts.Epochs, from.ref, from.state.Epoch).
				WithHint("epochs counts from the first epoch of the run resumed; give more than %d.", from.state.Epoch)
		}
		s.opts.From = from.state
	}
	if err := checkModelName(fn, s.name); err != nil {
		return nil, err
	}
	if err := checkModelKind(c, fn, s.name, s.kind); err != nil {
		return nil, err
	}
	across, err := s.launchAcross(c, a)
	if err != nil {
		return nil, err
	}
	src, err := openSource(c.ctx(), c, fn, a.text("source"))
	if err != nil {
		return nil, err
	}
	cols, err := s.columns(src)
	if err != nil {
		return nil, err
	}
	if cols.Shape != nil && !a.explicit("epochs") && from == nil {
		s.opts.Epochs = clsImageEpochs
	}
	job := &clsJob{c: c, spec: s, src: src, cols: cols, across: across}
	return &table{cols: s.outputs(), open: job.start}, nil
}
