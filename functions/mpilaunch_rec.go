//go:build duckdb_arrow

package functions

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/mallard/mallard/mlops/job"
	"github.com/mallard/mallard/mlops/recommender"
	"github.com/mallard/mallard/mlops/registry"
	"github.com/mallard/mallard/sqlstate"
)

// trainMPI trains the recommender across the ranks of j.mpi instead of in
// this process: the ranks read the ratings this process read (exported
// to the job directory), train what workers := ranks x workers trains
// here, and rank 0's epochs are recorded, sent as NOTICEs and emitted as a
// local run's are. The model rank 0 stores is then measured and stored as
// a local run's is. A run across ranks stores no checkpoints.
func (j *recJob) trainMPI(ctx context.Context, tr *registry.Training, train, test recommender.Ratings,
	emit func(row ...any) error) (*registry.Result, error) {
	perRank := j.cfg.Workers / j.mpi.ranks
	hyper := j.cfg
	hyper.Workers = perRank
	raw, err := json.Marshal(hyper)
	if err != nil {
		return nil, err
	}
	spec := job.Spec{Kind: job.KindRecommender, Seed: j.cfg.Seed, Workers: perRank, User: "user_id", Item: "item_id",
		Rating: "rating", TestFraction: j.testFraction, Recommender: raw}
	data, err := j.mpi.run(ctx, spec, j.export, func(p job.Progress) error {
		e := recommender.Epoch{Epoch: p.Epoch, TrainRMSE: metricOf(p, "train_rmse"), TestRMSE: metricOf(p, "test_rmse"),
			TrainLoss: metricOf(p, "train_loss"), RecallAt10: metricOf(p, "recall_at_10"), NDCGAt10: metricOf(p, "ndcg_at_10"),
			Elapsed: time.Duration(p.ElapsedMS) * time.Millisecond}
		best, err := j.recordEpoch(tr, &e)
		if err != nil {
			return err
		}
		j.c.caller.Notice(fmt.Sprintf("%s %s: epoch %d %s recall_at_10 %.4f ndcg_at_10 %.4f; %d ranks",
			trainRecommenderName, tr.Ref(), e.Epoch, j.losses(&e), e.RecallAt10, e.NDCGAt10, j.mpi.ranks))
		return emit(int64(e.Epoch), nullIfNaN(e.TrainRMSE), nullIfNaN(e.TestRMSE), nullIfNaN(e.RecallAt10), nullIfNaN(e.NDCGAt10),
			best, float64(p.ElapsedMS))
	})
	if err != nil {
		return nil, err
	}
	a, err := decodeRecArtifact(data)
	if err != nil {
		return nil, sqlstate.New(sqlstate.DataCorrupted, "%s: rank 0's artifact: %v", trainRecommenderName, err)
	}
	if a.Train.Len() != train.Len() || a.Test.Len() != test.Len() || a.Train.Users != train.Users || a.Train.Items != train.Items {
		return nil, sqlstate.New(sqlstate.InternalError, "%s: the ranks trained on %d+%d ratings of %d users, this server read %d+%d of %d",
			trainRecommenderName, a.Train.Len(), a.Test.Len(), a.Train.Users, train.Len(), test.Len(), train.Users)
	}
	return j.result(ctx, a.Model, train, test)
}

// recordEpoch records an epoch of a run across ranks as record does, with
// no checkpoint: the model is in the ranks.
func (j *recJob) recordEpoch(tr *registry.Training, e *recommender.Epoch) (bool, error) {
	trainLoss, testLoss, name := e.TrainRMSE, e.TestRMSE, "train_rmse"
	if recommender.IsRanking(j.cfg.Objective) {
		trainLoss, testLoss, name = e.TrainLoss, 1-e.NDCGAt10, "train_loss"
	}
	if err := diverged(trainRecommenderName, name, trainLoss, e.Epoch); err != nil {
		return false, err.WithHint("Lower lr (it is %g).", j.cfg.LR)
	}
	extra := map[string]any{"recall_at_10": nullIfNaN(e.RecallAt10), "ndcg_at_10": nullIfNaN(e.NDCGAt10)}
	return tr.Epoch(e.Epoch, trainLoss, testLoss, testLoss, float64(e.Elapsed.Microseconds())/1000, extra)
}

// export writes the ratings the run trains on to dir as ratings.parquet:
// user_id, item_id and rating, read as ratings reads them (implicit data
// rated 1, min_user_ratings applied). Values go through a CSV written
// exactly (shortest round-trip form) and an in-memory DuckDB, which the
// server's sandbox does not limit.
func (j *recJob) export(ctx context.Context, dir string) error {
	u, i, r := ident(j.cols.User), ident(j.cols.Item), "1"
	if !j.cols.Implicit {
		r = ident(j.cols.Rating)
	}
	from := j.src.from
	if j.minUserRatings > 1 {
		from += fmt.Sprintf(" WHERE %s IN (SELECT %s FROM %s GROUP BY %s HAVING count(*) >= %d)", u, u, j.src.from, u, j.minUserRatings)
	}
	rd, err := j.c.read(ctx, fmt.Sprintf("SELECT CAST(%s AS VARCHAR), CAST(%s AS VARCHAR), CAST(%s AS DOUBLE) FROM %s", u, i, r, from))
	if err != nil {
		return j.src.wrap(err)
	}
	defer rd.Close()
	path := filepath.Join(dir, "ratings.csv")
	f, err := os.Create(path)
	if err != nil {
		return j.mpi.dirError(err)
	}
	defer os.Remove(path)
	w := csv.NewWriter(f)
	w.Write([]string{"user_id", "item_id", "rating"})
	for rd.Next() {
		batch := rd.Batch()
		users, items := idColumn(batch.Column(0)), idColumn(batch.Column(1))
		vals, valid := floats(batch.Column(2))
		for row := range int(batch.NumRows()) {
			rec := []string{"", "", ""}
			if id := users(row); id != nil {
				rec[0] = id.String()
			}
			if id := items(row); id != nil {
				rec[1] = id.String()
			}
			if valid(row) {
				rec[2] = strconv.FormatFloat(vals[row], 'g', -1, 64)
			}
			w.Write(rec)
		}
	}
	w.Flush()
	if err := rd.Err(); err != nil {
		f.Close()
		return j.src.wrap(err)
	}
	if err := w.Error(); err != nil {
		f.Close()
		return j.mpi.dirError(err)
	}
	if err := f.Close(); err != nil {
		return j.mpi.dirError(err)
	}
	query := fmt.Sprintf("SELECT CAST(user_id AS %s) AS user_id, CAST(item_id AS %s) AS item_id, rating FROM read_csv(%s, header = true, "+
		"columns = {'user_id': 'VARCHAR', 'item_id': 'VARCHAR', 'rating': 'DOUBLE'})",
		idType(j.cols.UserIsText), idType(j.cols.ItemIsText), quote(path))
	if err := job.WriteQuery(ctx, filepath.Join(dir, "ratings.parquet"), query); err != nil {
		return sqlstate.New(sqlstate.IOError, "%s: export the source to the job directory: %v", trainRecommenderName, err)
	}
	return nil
}

// launchAcross prepares the run's launch across ranks when ranks := N is
// above 1: workers := W is then each rank's, and the run trains what
// ranks x W workers train in one process.
func (j *recJob) launchAcross(a args) error {
	ranks := int(a.int("ranks"))
	if ranks <= 1 {
		return nil
	}
	if j.duplicates != recommender.DuplicatesError {
		return sqlstate.New(sqlstate.FeatureNotSupported, "%s: duplicates := 'avg' does not train across ranks (ranks := %d)", trainRecommenderName, ranks).
			WithHint("Average the duplicates in the source (GROUP BY user, item), or leave ranks out.")
	}
	l, err := j.c.mpiLaunchOf(trainRecommenderName, ranks)
	if err != nil {
		return err
	}
	j.mpi, j.cfg.Workers = l, ranks*j.cfg.Workers
	if err := j.cfg.Validate(); err != nil {
		return sqlstate.New(sqlstate.InvalidParameterValue, "%s: ranks := %d x workers := %d: %v", trainRecommenderName, ranks, j.cfg.Workers/ranks, err)
	}
	return nil
}

// ranks is the number of MPI ranks the run trains across, as its
// parameters record it: 0 (left out) for a run in this process.
func (j *recJob) ranks() int {
	if j.mpi == nil {
		return 0
	}
	return j.mpi.ranks
}
