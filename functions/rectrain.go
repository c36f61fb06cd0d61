//go:build duckdb_arrow

package functions

import (
	"github.com/mallard/mallard/mlops/recommender"
	"github.com/mallard/mallard/mlops/training"
	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/storage"
)

const (
	trainRecommenderName = "train_recommender"
	// recommenderKind is the kind mlops.models records for a recommender.
	recommenderKind = "recommender"
)

func trainRecommenderFunction() tableFunction {
	return typedFunction(trainRecommenderName, []column{{"epoch", pgBigint}, {"train_rmse", pgDouble}, {"test_rmse", pgDouble},
		{"recall_at_10", pgDouble}, {"ndcg_at_10", pgDouble}, {"best", pgBool}, {"elapsed_ms", pgDouble}}, bindTrainRecommender, alwaysWrites)
}

// recJob is one execution of train_recommender.
type recJob struct {
	c               *call
	src             *source
	cfg             recommender.Config
	name            string
	cols            recommender.Columns
	testFraction    float64
	minUserRatings  int64
	duplicates      recommender.Duplicates
	deploy          string
	checkpointEvery int
	// mpi launches the run across MPI ranks; nil trains in this process.
	mpi *training.Launch
	// from is the version a resumed run continues; nil for a new run.
	from            *recStart
	allowDataChange bool
}

func bindTrainRecommender(c *call, o *trainRecArgs) (*table, error) {
	var from *recStart
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
		if err := from.checkEpochs(cfg.Epochs); err != nil {
			return nil, err
		}
	}
	dup, _ := recommender.ParseDuplicates(o.Duplicates)
	job := &recJob{c: c, cfg: cfg, name: o.Model, testFraction: o.TestFraction,
		minUserRatings: o.MinUserRatings, duplicates: dup, deploy: o.Deploy,
		checkpointEvery: o.CheckpointEvery, from: from, allowDataChange: o.AllowDataChange}
	if job.name == "" {
		return nil, sqlstate.New(sqlstate.UndefinedFunction, "%s: argument model is required", trainRecommenderName).
			WithHint("Name the model to train: train_recommender(source, model := 'name').")
	}
	if err := checkModelName(trainRecommenderName, job.name); err != nil {
		return nil, err
	}
	if err := checkModelKind(c, trainRecommenderName, job.name, recommenderKind); err != nil {
		return nil, err
	}
	if err := job.launchAcross(o.Ranks); err != nil {
		return nil, err
	}
	src, err := openSource(c.ctx(), c, trainRecommenderName, o.Source)
	if err != nil {
		return nil, err
	}
	job.src = src
	rating := o.Rating
	if o.Implicit {
		rating = ""
	}
	if job.cols, err = ratingColumns(src, o.User, o.Item, rating); err != nil {
		return nil, err
	}
	if o.ItemNames != "" {
		if job.cols.ItemNames, err = itemNamesArg(c, o.ItemNames, job.cols); err != nil {
			return nil, err
		}
	} else if from != nil {
		job.cols.ItemNames = from.itemNames
	}
	return &table{open: job.start}, nil
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

// ratingColumns finds the user, item and rating columns: ids of an integer
// or a text type, and numeric ratings; with rating empty, the data are
// implicit and have no rating column.
func ratingColumns(src *source, user, item, rating string) (recommender.Columns, error) {
	out := recommender.Columns{Implicit: rating == ""}
	for _, col := range []struct {
		arg, name string
		dst       *string
		isText    *bool
	}{{"user", user, &out.User, &out.UserIsText}, {"item", item, &out.Item, &out.ItemIsText}, {"rating", rating, &out.Rating, nil}} {
		if col.name == "" {
			continue
		}
		i, err := src.column(col.arg, col.name)
		if err != nil {
			return out, err
		}
		c := src.cols[i]
		*col.dst = c.Name
		switch {
		case col.isText == nil && !isNumeric(c.Type.ID):
			return out, sqlstate.New(sqlstate.DatatypeMismatch, "%s: rating := %s names column %s of type %s; ratings must be numeric",
				src.fn, quote(col.name), c.Name, c.Type).WithHint("Cast it in the source: SELECT ..., CAST(%s AS DOUBLE) AS rating FROM ...", ident(c.Name))
		case col.isText == nil:
		case isInteger(c.Type.ID):
		case c.Type.ID == storage.TypeVarchar:
			*col.isText = true
		default:
			return out, sqlstate.New(sqlstate.DatatypeMismatch, "%s: %s := %s names column %s of type %s; ids must be integers within BIGINT (TINYINT to BIGINT, UTINYINT to UINTEGER) or text",
				src.fn, col.arg, quote(col.name), c.Name, c.Type).WithHint("Cast it in the source, for example CAST(%s AS VARCHAR), or CAST(%s AS BIGINT) where its values fit.", ident(c.Name), ident(c.Name))
		}
	}
	return out, nil
}

func isInteger(id storage.TypeID) bool {
	switch id {
	case storage.TypeTinyInt, storage.TypeSmallInt, storage.TypeInteger, storage.TypeBigInt,
		storage.TypeUTinyInt, storage.TypeUSmallInt, storage.TypeUInteger:
		return true
	}
	return false
}

// idType is the SQL type ids are read and returned as.
func idType(isText bool) string {
	if isText {
		return "VARCHAR"
	}
	return "BIGINT"
}

// params are the run's hyperparameters as recorded.
func (j *recJob) params() recParams {
	return recParams{j.cfg, j.cols, j.testFraction, j.minUserRatings, j.duplicates.String(), j.ranks()}
}
