//go:build duckdb_arrow

package functions

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/mallard/mallard/mlops/recommender"
	"github.com/mallard/mallard/mlops/training"
	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/storage"
)

const (
	trainRecommenderName = "train_recommender"
	// recommenderKind is the kind mlops.models records for a recommender.
	recommenderKind = "recommender"
	// evaluateUsers caps the users whose rankings the final evaluation of
	// a training run averages (a sample chosen by the seed): ranking scores
	// every item for a user, so ranking 162,000 users of 62,000 items would
	// cost more than an epoch.
	evaluateUsers = 10_000
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
	cols            recColumns
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

// recColumns are the source's user, item and rating columns, and whether
// the user and item ids are text (else integers). Implicit data has no
// rating column: every row is an interaction, read as a rating of 1.
type recColumns struct {
	User       string `json:"user"`
	Item       string `json:"item"`
	Rating     string `json:"rating"`
	Implicit   bool   `json:"implicit,omitempty"`
	UserIsText bool   `json:"user_is_text"`
	ItemIsText bool   `json:"item_is_text"`
	// ItemNames is where the items' names are, when item_names := says.
	ItemNames itemNames `json:"item_names,omitzero"`
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
func ratingColumns(src *source, user, item, rating string) (recColumns, error) {
	out := recColumns{Implicit: rating == ""}
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

// ratings reads the source's ratings into sparse rows: Arrow batches
// straight into the rows, with no users x items array. The query has no
// ORDER BY, which would make DuckDB hold a sorted copy of every rating; the
// rows are formed in Go (see recommender.Builder), numbered by id, so the
// result does not depend on the order DuckDB returns them in.
func (j *recJob) ratings(ctx context.Context, mem *training.Memory) (recommender.Ratings, error) {
	u, i, r := ident(j.cols.User), ident(j.cols.Item), "1"
	if !j.cols.Implicit {
		r = ident(j.cols.Rating)
	}
	from := j.src.from
	if j.minUserRatings > 1 {
		from += fmt.Sprintf(" WHERE %s IN (SELECT %s FROM %s GROUP BY %s HAVING count(*) >= %d)", u, u, j.src.from, u, j.minUserRatings)
	}
	n, err := j.count(ctx, from)
	if err != nil {
		return recommender.Ratings{}, err
	}
	if n == 0 && j.minUserRatings > 1 {
		return recommender.Ratings{}, j.noUserLeft(ctx)
	}
	if n == 0 {
		return recommender.Ratings{}, sqlstate.New(sqlstate.DataException, "%s: source %s has no ratings", trainRecommenderName, quote(j.src.text))
	}
	if err := mem.Reserve(ctx, recommender.RatingsBytes(n), fmt.Sprintf("%s's ratings (%d)", trainRecommenderName, n)); err != nil {
		return recommender.Ratings{}, err
	}
	query := fmt.Sprintf("SELECT CAST(%s AS %s), CAST(%s AS %s), CAST(%s AS DOUBLE) FROM %s",
		u, idType(j.cols.UserIsText), i, idType(j.cols.ItemIsText), r, from)
	rd, err := j.c.read(ctx, query)
	if err != nil {
		return recommender.Ratings{}, j.src.wrap(err)
	}
	defer rd.Close()
	b := recommender.NewBuilder(j.duplicates)
	b.Grow(int(n))
	for rd.Next() {
		batch := rd.Batch()
		users, items := idColumn(batch.Column(0)), idColumn(batch.Column(1))
		vals, valid := floats(batch.Column(2))
		for row := range int(batch.NumRows()) {
			user, item := users(row), items(row)
			switch {
			case user == nil:
				return recommender.Ratings{}, j.nullError("user", j.cols.User)
			case item == nil:
				return recommender.Ratings{}, j.nullError("item", j.cols.Item)
			case !valid(row):
				return recommender.Ratings{}, sqlstate.New(sqlstate.NullValueNotAllowed, "%s: the rating of user %v for item %v is NULL",
					trainRecommenderName, user, item).WithHint("Leave unrated pairs out of the source: ... WHERE %s IS NOT NULL.", r)
			}
			if err := b.Add(*user, *item, vals[row]); err != nil {
				return recommender.Ratings{}, j.addError(err)
			}
		}
	}
	if err := rd.Err(); err != nil {
		return recommender.Ratings{}, j.src.wrap(err)
	}
	out, err := b.Finish()
	if err != nil {
		return out, j.addError(err)
	}
	if n := b.Merged(); n > 0 {
		j.c.caller.Notice(fmt.Sprintf("%s: %d duplicate ratings averaged into others", trainRecommenderName, n))
	}
	return out, nil
}

// count returns the number of rows of a FROM clause.
func (j *recJob) count(ctx context.Context, from string) (int64, error) {
	return j.readInt(ctx, "SELECT count(*) FROM "+from)
}

// noUserLeft is the error of a min_user_ratings that no user of the source
// reaches: it says how many ratings the most active user has.
func (j *recJob) noUserLeft(ctx context.Context) error {
	u := ident(j.cols.User)
	most, err := j.readInt(ctx, fmt.Sprintf("SELECT CAST(coalesce(max(n), 0) AS BIGINT) FROM (SELECT count(*) AS n FROM %s GROUP BY %s)", j.src.from, u))
	if err != nil {
		return err
	}
	return sqlstate.New(sqlstate.InvalidParameterValue, "%s: min_user_ratings := %d leaves no user: the most ratings a user of %s has is %d",
		trainRecommenderName, j.minUserRatings, quote(j.src.text), most).WithHint("Lower min_user_ratings to at most %d.", max(most, 1))
}

// readInt reads the BIGINT that query returns in its first row.
func (j *recJob) readInt(ctx context.Context, query string) (int64, error) {
	return readInt(ctx, j.c, j.src, query)
}

func (j *recJob) nullError(arg, col string) error {
	return sqlstate.New(sqlstate.NullValueNotAllowed, "%s: %s column %s has a NULL", trainRecommenderName, arg, col).
		WithHint("Leave those rows out of the source: ... WHERE %s IS NOT NULL.", ident(col))
}

// addError is the SQL error of a rating the builder refused.
func (j *recJob) addError(err error) error {
	var dup *recommender.DuplicateError
	switch {
	case errors.As(err, &dup):
		return sqlstate.New(sqlstate.UniqueViolation, "%s: %v", trainRecommenderName, err).
			WithHint("duplicates := 'avg' keeps the mean of a user's ratings of an item.")
	}
	return sqlstate.New(sqlstate.InvalidParameterValue, "%s: %v", trainRecommenderName, err)
}

// idColumn returns the ids of an id column of a batch: nil for NULL.
func idColumn(arr arrow.Array) func(int) *recommender.ID {
	if ints, ok := arr.(*array.Int64); ok {
		return func(i int) *recommender.ID {
			if ints.IsNull(i) {
				return nil
			}
			id := recommender.Int(ints.Value(i))
			return &id
		}
	}
	texts := arr.(interface {
		arrow.Array
		Value(int) string
	})
	return func(i int) *recommender.ID {
		if texts.IsNull(i) {
			return nil
		}
		id := recommender.Text(strings.Clone(texts.Value(i))) // the batch's memory is reused
		return &id
	}
}

// params are the run's hyperparameters as recorded.
func (j *recJob) params() recParams {
	return recParams{j.cfg, j.cols, j.testFraction, j.minUserRatings, j.duplicates.String(), j.ranks()}
}

// result measures the trained model against the baselines and stores it.
func (j *recJob) result(ctx context.Context, model *recommender.Model, train, test recommender.Ratings) (*training.Result, error) {
	metrics, err := recommender.Evaluate(ctx, model, train, test, evaluateUsers)
	if err != nil {
		return nil, err
	}
	data, err := j.artifact(model, train, test, j.cfg.Epochs)
	if err != nil {
		return nil, err
	}
	stored := make([]recMetrics, len(metrics))
	for i, m := range metrics {
		stored[i] = recMetrics{Method: m.Method, RMSE: finite(m.RMSE), RecallAt10: finite(m.RecallAt10), NDCGAt10: finite(m.NDCGAt10)}
	}
	testLoss := metrics[0].RMSE // the model's, which Evaluate lists first
	if recommender.IsRanking(j.cfg.Objective) {
		// The model's outputs are no ratings: it has no RMSE, and its test
		// loss, which deployment compares, is 1 − NDCG@10.
		stored[0].RMSE, testLoss = nil, 1-metrics[0].NDCGAt10
	}
	return &training.Result{Artifact: data, Epoch: j.cfg.Epochs, Metrics: stored, TestLoss: testLoss, Report: newRecReport(train, test)}, nil
}

// recReport is what the dashboard shows of a recommender version besides
// its metrics: the sizes of its data and a few users to try.
type recReport struct {
	Users        int              `json:"users"`
	Items        int              `json:"items"`
	Ratings      int              `json:"ratings"`
	TestRatings  int              `json:"test_ratings"`
	ExampleUsers []recommender.ID `json:"example_users"`
}

// reportUsers is how many example users a recommender report names.
const reportUsers = 5

func newRecReport(train, test recommender.Ratings) *recReport {
	r := &recReport{Users: train.Users, Items: train.Items, Ratings: train.Len(), TestRatings: test.Len()}
	for u := 0; u < train.Users && len(r.ExampleUsers) < reportUsers; u++ {
		if items, _ := train.Row(u); len(items) > 0 {
			r.ExampleUsers = append(r.ExampleUsers, train.UserIDs.At(u))
		}
	}
	return r
}

// recMetrics are a method's held-out metrics as mlops.models records
// them: null where there was no data to measure on.
type recMetrics struct {
	Method     string   `json:"method"`
	RMSE       *float64 `json:"test_rmse"`
	RecallAt10 *float64 `json:"recall_at_10"`
	NDCGAt10   *float64 `json:"ndcg_at_10"`
}

// finite is v, or nil if v is not a finite number.
func finite(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// ratingsFingerprint identifies the ratings a model is trained on: every
// user's and item's id and every rating, and the split.
func ratingsFingerprint(train, test recommender.Ratings) string {
	h := sha256.New()
	var b [8]byte
	for _, ids := range []*recommender.IDs{train.UserIDs, train.ItemIDs} {
		for k := range ids.Len() {
			id := ids.At(k)
			fmt.Fprintf(h, "%t %q\n", id.IsText, id.String())
		}
	}
	for _, r := range []recommender.Ratings{train, test} {
		for u := range r.Users {
			binary.LittleEndian.PutUint64(b[:], uint64(r.Ptr[u+1]))
			h.Write(b[:])
		}
		for k, item := range r.Item {
			binary.LittleEndian.PutUint32(b[:4], uint32(item))
			binary.LittleEndian.PutUint32(b[4:], math.Float32bits(r.Value[k]))
			h.Write(b[:])
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

func nullIfNaN(v float64) any {
	if math.IsNaN(v) {
		return nil
	}
	return v
}

// workerTimes tells, when several workers trained, where each one's time
// in the epoch went (see recommender.WorkerTime): a worker that computes
// much longer than another, or waits much longer, shows how evenly the
// work was shared and whether the host slowed one of them down.
func workerTimes(ws []recommender.WorkerTime) string {
	if len(ws) < 2 {
		return ""
	}
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = w.String()
	}
	return "; workers' gradient+reduce+step+barrier+evaluate: " + strings.Join(parts, ", ")
}
