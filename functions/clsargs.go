//go:build duckdb_arrow

package functions

import (
	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/mlops/classifier"
	"github.com/mallard/mallard/mlops/classifier/clsrun"
	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/storage/prep"
)

const (
	trainClassifierName = "train_classifier"
	trainRegressorName  = "train_regressor"
	// classifierKind and regressorKind are the kinds mlops.models records
	// for the models train_classifier and train_regressor make.
	classifierKind = "classifier"
	regressorKind  = "regressor"
	// archAuto is the architecture argument's default (see clsSpec.arch).
	archAuto = clsrun.Auto
)

// architectures are the values architecture := accepts.
var architectures = []string{archAuto, classifier.ModelLinear, classifier.ModelMLP, classifier.ModelCNN}

func trainClassifierFunction() tableFunction {
	return typedFunction(trainClassifierName, nil, func(c *call, o *classifierArgs) (*table, error) {
		return bindTrainSupervised(c, &o.supervisedArgs, trainClassifierName, "label")
	}, alwaysWrites)
}

func trainRegressorFunction() tableFunction {
	return typedFunction(trainRegressorName, nil, func(c *call, o *regressorArgs) (*table, error) {
		return bindTrainSupervised(c, &o.supervisedArgs, trainRegressorName, "target")
	}, alwaysWrites)
}

// classifierArgs are train_classifier's arguments: the column to learn is label.
type classifierArgs struct{ supervisedArgs }

func (o *classifierArgs) params() []param { return o.declare("label") }

// regressorArgs are train_regressor's arguments: the column to learn is target.
type regressorArgs struct{ supervisedArgs }

func (o *regressorArgs) params() []param { return o.declare("target") }

// supervisedArgs are the arguments of train_classifier and
// train_regressor, which differ only in the name of the one that names the
// column to learn (Target).
type supervisedArgs struct {
	given
	Source, Model, Target string // Model and Target "" when not given
	Features              []string
	Architecture          string
	Shape                 []int // nil when not given
	Scale                 bool
	Hidden                []int
	Epochs                int
	LR                    float64
	Optimizer             string
	Momentum              float64
	BatchSize             int
	Dropout, WeightDecay  float64
	ValidationFraction    float64
	TestFraction          float64
	Split                 string // "" for a seeded split
	Patience              int
	ClassWeight           string
	MaxCategories         int
	Workers, Ranks        int
	Seed                  uint64
	CheckpointEvery       int
	Deploy, Resume        string
	AllowDataChange       bool
}

// declare is the declaration of the arguments, target naming the column to learn.
func (o *supervisedArgs) declare(target string) []param {
	def := classifier.DefaultOptions()
	return []param{sourceArg(&o.Source),
		textArg(&o.Model, "model", "the model's name; a resumed run's by default"),
		textArg(&o.Target, target, "the column to learn"),
		textsArg(&o.Features, "features", "the feature columns; by default every other column"),
		textArg(&o.Architecture, "architecture", "the network; auto takes cnn for images, else mlp").oneOf(architectures...).or(archAuto),
		sizesArg(&o.Shape, "shape", "an image column's [channels, height, width]"),
		boolArg(&o.Scale, "scale", "scale features: z-scores for numbers, pixels to [0, 1]").or(true),
		sizesArg(&o.Hidden, "hidden", "the sizes of the hidden layers").or(def.Hidden),
		intArg(&o.Epochs, "epochs", 1, 100_000, "passes over the training rows; 10 for images").or(clsDefaultEpochs),
		floatArg(&o.LR, "lr", 0, 10, "the learning rate").open(true, false).or(def.LR),
		textArg(&o.Optimizer, "optimizer", "the optimiser").oneOf(classifier.OptimizerAdam, classifier.OptimizerSGD).or(def.Optimizer),
		floatArg(&o.Momentum, "momentum", 0, 1, "SGD's momentum").open(false, true).or(def.Momentum),
		intArg(&o.BatchSize, "batch_size", 1, 1_000_000, "rows per gradient step").or(def.BatchSize),
		floatArg(&o.Dropout, "dropout", 0, 1, "the hidden layers' dropout").open(false, true).or(0.0),
		floatArg(&o.WeightDecay, "weight_decay", 0, 100, "the weight decay").or(0.0),
		floatArg(&o.ValidationFraction, "validation_fraction", 0, 1, "the share of rows for early stopping and choosing").
			open(false, true).or(0.2),
		floatArg(&o.TestFraction, "test_fraction", 0, 1, "the share of rows held out for testing").open(false, true).or(0.2),
		textArg(&o.Split, "split", "a column of 'train', 'validation' and 'test' that splits the rows"),
		intArg(&o.Patience, "patience", 0, 100_000, "epochs without a better validation loss before stopping").or(clsDefaultPatience),
		textArg(&o.ClassWeight, "class_weight", "weigh classes by their inverse frequency").oneOf("none", "balanced").or("none"),
		intArg(&o.MaxCategories, "max_categories", 1, 100_000, "the most categories a text feature may have").or(100),
		workersArg(&o.Workers), ranksArg(&o.Ranks), intArg(&o.Seed, "seed", 0, unbounded, "the seed of the split, the weights and the batches").or(def.Seed),
		checkpointArg(&o.CheckpointEvery), deployArg(&o.Deploy), resumeArg(&o.Resume), allowDataChangeArg(&o.AllowDataChange)}
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
	from            *clsrun.Start
	allowDataChange bool
}

// newClsSpec types the arguments of a call of fn and checks what can be
// checked without the source.
func newClsSpec(fn, target string, a *supervisedArgs) (*clsSpec, error) {
	s := &clsSpec{fn: fn, kind: classifierKind, name: a.Model, target: target, targetCol: a.Target,
		arch: a.Architecture, shape: a.Shape, features: a.Features, split: a.Split,
		valFraction: a.ValidationFraction, testFraction: a.TestFraction,
		maxCategories: a.MaxCategories, deploy: a.Deploy, checkpoint: a.CheckpointEvery}
	if fn == trainRegressorName {
		s.kind, s.regression = regressorKind, true
	}
	o := classifier.DefaultOptions()
	o.Epochs, o.LR, o.Optimizer, o.Momentum = a.Epochs, a.LR, a.Optimizer, a.Momentum
	o.BatchSize, o.WeightDecay, o.Patience = a.BatchSize, a.WeightDecay, a.Patience
	o.Workers, o.Seed, o.Hidden, o.Dropout = a.Workers, a.Seed, a.Hidden, a.Dropout
	o.Balanced, o.RawPixels = a.ClassWeight == "balanced", !a.Scale
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
	case s.shape != nil && len(s.shape) != 3:
		return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: shape := %s has %d sizes; give three: [channels, height, width]",
			fn, prep.IntsText(s.shape), len(s.shape))
	case s.arch == classifier.ModelCNN && s.shape == nil:
		return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: architecture := 'cnn' needs shape := [channels, height, width] of the image column", fn).
			WithHint("Images are an array (UTINYINT[], FLOAT[]) or BLOB column, for example shape := [1, 28, 28] for MNIST.")
	case s.arch == classifier.ModelCNN && (s.shape[1] < 4 || s.shape[2] < 4):
		return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: shape := %s: architecture 'cnn' pools twice by 2 and needs images of at least 4 x 4",
			fn, prep.IntsText(s.shape)).WithHint("Use architecture := 'mlp' for smaller images.")
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

func bindTrainSupervised(c *call, a *supervisedArgs, fn, target string) (*table, error) {
	var from *clsrun.Start
	if a.Resume != "" {
		kind := map[bool]string{true: regressorKind, false: classifierKind}[fn == trainRegressorName]
		var err error
		if from, err = clsResumeArgs(c, fn, kind, a); err != nil {
			return nil, err
		}
	}
	s, err := newClsSpec(fn, target, a)
	if err != nil {
		return nil, err
	}
	s.from, s.allowDataChange, s.opts.From = from, a.AllowDataChange, nil
	if from != nil {
		if s.opts.Epochs <= from.State.Epoch {
			return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: epochs := %d: %s has trained %d epochs already", fn, s.opts.Epochs, from.Ref, from.State.Epoch).
				WithHint("epochs counts from the first epoch of the run resumed; give more than %d.", from.State.Epoch)
		}
		s.opts.From = from.State
	}
	if err := checkModelName(fn, s.name); err != nil {
		return nil, err
	}
	if err := checkModelKind(c, fn, s.name, s.kind); err != nil {
		return nil, err
	}
	across, err := s.launchAcross(c, a.Ranks)
	if err != nil {
		return nil, err
	}
	src, err := openSource(c.ctx(), c, fn, a.Source)
	if err != nil {
		return nil, err
	}
	cols, err := prep.LabelledColumns{Target: s.target, TargetCol: s.targetCol, Regression: s.regression,
		Split: s.split, Features: s.features, Shape: s.shape}.Resolve(src.prep())
	if err != nil {
		return nil, err
	}
	if cols.Shape != nil && !a.explicit(&a.Epochs) && from == nil {
		s.opts.Epochs = clsImageEpochs
	}
	return &table{cols: s.outputs(), open: startJob(c, s, reading(c, s.job(c, src, cols, across), src))}, nil
}
