//go:build duckdb_arrow

package functions

import (
	"context"

	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/gat/gatrun"
	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/storage/prep"
)

const trainGATName = gatrun.Name

func trainGATFunction() tableFunction {
	return typedFunction(trainGATName, []column{{"epoch", pgBigint}, {"train_mse", pgDouble}, {"test_mse", pgDouble},
		{"val_mse", pgDouble}, {"best", pgBool}, {"elapsed_ms", pgDouble}}, bindTrainGAT, alwaysWrites)
}

// openTraining binds train_gat's source: long with entity := 'col'
// (rescaled by train_gat itself, so scaler := is refused), else wide.
func openTraining(c *call, o *trainGATArgs) (*prep.Wide, error) {
	switch {
	case o.Entity != "" && o.Scaler != "":
		return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: scaler := %s with entity := %s: a long source is rescaled per entity by train_gat, which keeps its own scaler",
			trainGATName, quote(o.Scaler), quote(o.Entity)).WithHint("Leave scaler out, and give the values in original units.")
	case o.Entity != "":
		return openLong(c, o)
	case o.Value != "":
		return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: value := %s applies to a long source, which entity := 'col' names", trainGATName, quote(o.Value)).
			WithHint("Name the entity column too, or leave value out for a wide source.")
	}
	src, err := openSource(c.ctx(), c, trainGATName, o.Source)
	if err != nil {
		return nil, err
	}
	return prep.NewWide(engine{c}, src.prep(), o.Time)
}

// openLong binds a long source (see prep.NewLong) as the wide source of
// its distinct times, so that its time rows, row count and time columns
// are the pivot's.
func openLong(c *call, o *trainGATArgs) (*prep.Wide, error) {
	src, err := openSource(c.ctx(), c, trainGATName, o.Source)
	if err != nil {
		return nil, err
	}
	l, err := prep.NewLong(c.ctx(), engine{c}, src.prep(), o.Entity, o.Value, o.Time)
	if err != nil {
		return nil, err
	}
	tsrc, err := openSource(c.ctx(), c, trainGATName, l.TimesQuery())
	if err != nil {
		return nil, err
	}
	tsrc.text = o.Source
	return l.Wide(engine{c}, tsrc.prep()), nil
}

// gatScalers stores a long source's scaler (see gatrun.Scalers).
type gatScalers struct{ c *call }

func (s gatScalers) SaveScaler(ctx context.Context, v gatrun.SavedScaler) error {
	return prep.SaveScaler(ctx, s.c.db.SQL(), prep.SavedScaler{Name: v.Name, Scaler: v.Scaler, TimeColumns: v.TimeColumns,
		TrainFraction: v.TrainFraction, TrainRows: v.TrainRows, TotalRows: v.TotalRows, Source: v.Source, Fingerprint: v.Fingerprint})
}

func (s gatScalers) DropUnlinkedScaler(ctx context.Context, name string) error {
	return prep.DropUnlinkedScaler(ctx, s.c.db.SQL(), name)
}

// bindTrainGAT binds a call of train_gat into the run's job (see
// gatrun.Job): its options, the checkpoint it resumes, the launch across
// ranks, the source and the linked scaler.
func bindTrainGAT(c *call, o *trainGATArgs) (*table, error) {
	job := &gatrun.Job{Caller: c.caller, Scalers: gatScalers{c}, Config: o.Config, Name: o.Model, Scaler: o.Scaler,
		Deploy: o.Deploy, CheckpointEvery: o.CheckpointEvery, AllowDataChange: o.AllowDataChange,
		SeasonalHighway: !o.explicit(&o.Highway), SeasonGiven: o.explicit(&o.Season), HorizonGiven: o.Horizon != 0,
		CompareGraph: o.CompareGraph}
	if o.Resume != "" {
		if err := resumeFrom(c, job, o); err != nil {
			return nil, err
		}
	}
	if err := checkTrainGAT(c, job, o); err != nil {
		return nil, err
	}
	across, err := launchOf(c, trainGATName, o.Ranks, o.Workers, func(workers int) error {
		job.Config.Workers = workers // each rank's, a resumed run's too, not the checkpoint's
		return job.Config.Validate()
	})
	if err != nil {
		return nil, err
	}
	job.Across = across
	w, err := openTraining(c, o)
	if err != nil {
		return nil, err
	}
	if job.From != nil {
		w.OrderLike(job.From.Entities) // resume matches entity columns by name
	}
	if job.Link, err = linkScaler(c, job.Scaler, w.EntityNames()); err != nil {
		return nil, err
	}
	job.Source, job.Text, job.Long = w, w.Src.Text, w.Long != nil
	return &table{open: func(ctx context.Context) (*run, error) {
		return trainRun(ctx, trainingJob(c, trainGATName, job.Resume()), job.Read)
	}}, nil
}

// checkTrainGAT checks the options of job, which o binds, against each
// other and the registry before any data is read.
func checkTrainGAT(c *call, job *gatrun.Job, o *trainGATArgs) error {
	cfg := o.Config
	if job.Name == "" {
		return sqlstate.New(sqlstate.UndefinedFunction, "%s: argument model is required", trainGATName).
			WithHint("Name the model to train: train_gat(source, model := 'name').")
	}
	if o.explicit(&o.Anchor) && cfg.Target == "level" {
		return sqlstate.New(sqlstate.InvalidParameterValue, "%s: anchor := %s applies to target := 'change'; target := 'level' has no anchor",
			trainGATName, quote(cfg.Anchor)).WithHint("Leave anchor out, or train with target := 'change'.")
	}
	if o.AnchorOrigins != "" && (cfg.Target == "level" || cfg.Anchor != gat.AnchorAuto) {
		return sqlstate.New(sqlstate.InvalidParameterValue, "%s: anchor_origins := %s applies to anchor := 'auto' with target := 'change'; this run has anchor := %s, target := %s",
			trainGATName, quote(cfg.AnchorOrigins), quote(cfg.Anchor), quote(cfg.Target)).WithHint("Leave anchor_origins out, or let the anchor be chosen (anchor := 'auto').")
	}
	if cfg.Ladder == gat.LadderWithoutARIMA && cfg.Target == "change" && gat.NeedsARIMA(cfg.Anchor) {
		return sqlstate.New(sqlstate.InvalidParameterValue, "%s: ladder := 'without_arima' leaves arima out, but anchor := %s fits it",
			trainGATName, quote(cfg.Anchor)).WithHint("Leave ladder out, or choose an anchor without arima.")
	}
	if err := job.Config.Validate(); err != nil {
		return sqlstate.New(sqlstate.InvalidParameterValue, "%s: %v", trainGATName, err)
	}
	if err := checkModelName(trainGATName, job.Name); err != nil {
		return err
	}
	return checkModelKind(c, trainGATName, job.Name, "gat")
}

// checkModelKind fails if name is taken by a model of another kind.
func checkModelKind(c *call, fn, name, kind string) error {
	kinds, err := c.reg.Kinds(c.ctx(), name)
	if err != nil {
		return err
	}
	for _, other := range kinds {
		if other != kind {
			return sqlstate.New(sqlstate.DuplicateObject, "%s: model %s is of kind %s, not %s", fn, quote(name), other, kind).
				WithHint("Choose another name, or drop it with mlops.drop.")
		}
	}
	return nil
}
