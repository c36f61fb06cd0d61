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

// newClsJob types the arguments of a call of fn into the job it runs
// and checks what can be checked without the source (see
// clsrun.Job.Check).
func newClsJob(fn, target string, a *supervisedArgs) (*clsrun.Job, error) {
	j := &clsrun.Job{Fn: fn, Kind: classifierKind, Name: a.Model, Target: target, TargetCol: a.Target,
		Arch: a.Architecture, ValFraction: a.ValidationFraction, TestFraction: a.TestFraction,
		MaxCategories: a.MaxCategories, Deploy: a.Deploy, CheckpointEvery: a.CheckpointEvery}
	if fn == trainRegressorName {
		j.Kind, j.Regression = regressorKind, true
	}
	o := classifier.DefaultOptions()
	o.Epochs, o.LR, o.Optimizer, o.Momentum = a.Epochs, a.LR, a.Optimizer, a.Momentum
	o.BatchSize, o.WeightDecay, o.Patience = a.BatchSize, a.WeightDecay, a.Patience
	o.Workers, o.Seed, o.Hidden, o.Dropout = a.Workers, a.Seed, a.Hidden, a.Dropout
	o.Balanced, o.RawPixels = a.ClassWeight == "balanced", !a.Scale
	if j.Arch != archAuto {
		o.Model = j.Arch
	}
	j.Options = o
	return j, j.Check(a.Split, a.Shape)
}

// clsOutputs are the columns of the training statement: one row per epoch.
func clsOutputs(regression bool) []duckdb.ColumnInfo {
	metric := "val_accuracy"
	if regression {
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
	j, err := newClsJob(fn, target, a)
	if err != nil {
		return nil, err
	}
	if from != nil {
		if j.Options.Epochs <= from.State.Epoch {
			return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: epochs := %d: %s has trained %d epochs already", fn, j.Options.Epochs, from.Ref, from.State.Epoch).
				WithHint("epochs counts from the first epoch of the run resumed; give more than %d.", from.State.Epoch)
		}
		j.Options.From = from.State
	}
	if err := checkModelName(fn, j.Name); err != nil {
		return nil, err
	}
	if err := checkModelKind(c, fn, j.Name, j.Kind); err != nil {
		return nil, err
	}
	if j.Across, err = launchAcross(c, j, a.Ranks); err != nil {
		return nil, err
	}
	src, err := openSource(c.ctx(), c, fn, a.Source)
	if err != nil {
		return nil, err
	}
	if j.Cols, err = (prep.LabelledColumns{Target: target, TargetCol: a.Target, Regression: j.Regression,
		Split: a.Split, Features: a.Features, Shape: a.Shape}).Resolve(src.prep()); err != nil {
		return nil, err
	}
	if j.Cols.Shape != nil && !a.explicit(&a.Epochs) && from == nil {
		j.Options.Epochs = clsImageEpochs
	}
	j.Session = c.caller.ID()
	return &table{cols: clsOutputs(j.Regression), open: startJob(c, fn, from.Resume(a.AllowDataChange), reading(c, j, src))}, nil
}
