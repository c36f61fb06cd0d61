//go:build duckdb_arrow

package functions

import (
	"context"

	"github.com/mallard/mallard/mlops/recommender"
	"github.com/mallard/mallard/mlops/recommender/recrun"
	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/storage/prep"
)

const (
	trainRecommenderName = recrun.Fn
	// recommenderKind is the kind mlops.models records for a recommender.
	recommenderKind = recrun.Kind
)

func trainRecommenderFunction() tableFunction {
	return typedFunction(trainRecommenderName, []column{{"epoch", pgBigint}, {"train_rmse", pgDouble}, {"test_rmse", pgDouble},
		{"recall_at_10", pgDouble}, {"ndcg_at_10", pgDouble}, {"best", pgBool}, {"elapsed_ms", pgDouble}}, bindTrainRecommender, alwaysWrites)
}

// bindTrainRecommender binds a call of train_recommender into the run's
// job (see recrun.Job), which reads the source's ratings through
// prep.Ratings when the table is read.
func bindTrainRecommender(c *call, o *trainRecArgs) (*table, error) {
	job, err := recJob(c, o)
	if err != nil {
		return nil, err
	}
	if job.MPI, err = launchOf(c, trainRecommenderName, o.Ranks, job.Config.Workers, func(workers int) error {
		job.Config.Workers = workers
		return job.Config.Validate()
	}); err != nil {
		return nil, err
	}
	src, err := openSource(c.ctx(), c, trainRecommenderName, o.Source)
	if err != nil {
		return nil, err
	}
	rating := o.Rating
	if o.Implicit {
		rating = ""
	}
	if job.Columns, err = src.prep().RatingColumns(o.User, o.Item, rating); err != nil {
		return nil, err
	}
	if o.ItemNames != "" {
		if job.Columns.ItemNames, err = itemNamesArg(c, o.ItemNames, job.Columns); err != nil {
			return nil, err
		}
	} else if job.From != nil {
		job.Columns.ItemNames = job.From.ItemNames
	}
	ratings := &prep.Ratings{Src: src.prep(), Cols: job.Columns, MinUserRatings: o.MinUserRatings, Duplicates: job.Duplicates}
	job.Source, job.Session = src.text, c.caller.ID()
	job.Read = func(ctx context.Context, reserve func(int64) error) (recommender.Ratings, error) {
		return ratings.Read(ctx, engine{c}, reserve)
	}
	return &table{open: func(ctx context.Context) (*run, error) {
		return trainRun(ctx, trainingJob(c, trainRecommenderName, job.Resume()), job.ReadRun)
	}}, nil
}

// recJob is the job of a call's arguments, checked, before its source is
// opened: the version it resumes, its configuration and its model's name.
func recJob(c *call, o *trainRecArgs) (*recrun.Job, error) {
	var from *recrun.Start
	if o.Resume != "" {
		var err error
		if from, err = resumeArgs(c, o); err != nil {
			return nil, err
		}
	}
	cfg, err := recConfig(o)
	if err != nil {
		return nil, err
	}
	if from != nil {
		if err := from.CheckEpochs(cfg.Epochs); err != nil {
			return nil, err
		}
	}
	dup, _ := recommender.ParseDuplicates(o.Duplicates)
	job := &recrun.Job{Config: cfg, Name: o.Model, TestFraction: o.TestFraction, MinUserRatings: o.MinUserRatings,
		Duplicates: dup, Deploy: o.Deploy, CheckpointEvery: o.CheckpointEvery, From: from, AllowDataChange: o.AllowDataChange}
	if job.Name == "" {
		return nil, sqlstate.New(sqlstate.UndefinedFunction, "%s: argument model is required", trainRecommenderName).
			WithHint("Name the model to train: train_recommender(source, model := 'name').")
	}
	if err := checkModelName(trainRecommenderName, job.Name); err != nil {
		return nil, err
	}
	if err := checkModelKind(c, trainRecommenderName, job.Name, recommenderKind); err != nil {
		return nil, err
	}
	return job, nil
}

// recConfig is the recommender's configuration as the call's arguments
// give it, checked: options that do not apply to the objective are zero.
func recConfig(o *trainRecArgs) (recommender.Config, error) {
	cfg := o.Config
	if err := checkObjective(o); err != nil {
		return cfg, err
	}
	if recommender.IsRanking(cfg.Objective) {
		rankingDefaults(o, &cfg)
	} else {
		cfg.Dropout, cfg.Negatives = 0, 0
	}
	if cfg.Objective != recommender.RankingVAE {
		cfg.AnnealCap = 0
	}
	if o.Implicit {
		cfg.Relevant = 1 // every interaction is relevant
	}
	if err := cfg.Validate(); err != nil {
		return cfg, sqlstate.New(sqlstate.InvalidParameterValue, "%s: %v", trainRecommenderName, err)
	}
	return cfg, nil
}
