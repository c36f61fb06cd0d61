package job_test

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/mallard/mallard/mlops/job"
	"github.com/mallard/mallard/mlops/parallel"
	"github.com/mallard/mallard/mlops/recommender"
)

// ratingsQuery makes 300 users' ratings of 90 items, about one in four.
const ratingsQuery = `SELECT u AS user_id, 'item' || i AS item_id, CAST(1 + ((u % 7) * (i % 5) + u // 50) % 5 AS DOUBLE) AS rating
FROM range(300) a(u), range(90) b(i) WHERE (u * 31 + i * 17) % 4 = 0`

const smallRecommender = `{"hidden": [24, 8, 24], "epochs": 3, "batch_size": 16, "lr": 0.005, "rank_users": 0}`

// rankingRecommender is a small recommender of the ranking objective, with
// sampled negatives and dropout.
const rankingRecommender = `{"hidden": [24], "epochs": 3, "batch_size": 16, "lr": 0.005, "rank_users": 0, "objective": "ranking", "negatives": 30, "dropout": 0.3}`

// recJobOf writes a small recommender job for a worker of version v: its
// ratings in two Parquet files.
func recJobOf(t *testing.T, v string, workers int, hyper string) string {
	t.Helper()
	dir := t.TempDir()
	for part, cond := range []string{"user_id < 150", "user_id >= 150"} {
		q := "SELECT * FROM (" + ratingsQuery + ") WHERE " + cond
		if err := job.WriteQuery(context.Background(), filepath.Join(dir, "part-"+string(rune('0'+part))+".parquet"), q); err != nil {
			t.Fatal(err)
		}
	}
	spec := job.Spec{Version: v, Kind: job.KindRecommender, Seed: 9, Workers: workers, CheckpointEvery: 1,
		Recommender: json.RawMessage(hyper)}
	if err := spec.Write(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// runSpread runs the job in dir as ranks goroutines, each a rank with a
// DuckDB of its own, and returns their results.
func runSpread(t *testing.T, dir string, ranks int) []job.Result {
	t.Helper()
	results := make([]job.Result, ranks)
	errs := make([]error, ranks)
	var wg sync.WaitGroup
	for r, comm := range parallel.LocalComms(ranks) {
		wg.Go(func() { results[r], errs[r] = job.Run(context.Background(), dir, version, comm) })
	}
	wg.Wait()
	for r, err := range errs {
		if err != nil {
			t.Fatalf("rank %d: %v", r, err)
		}
	}
	return results
}

// sameProgress fails t unless got's metrics are want's to 1e-9 relative.
func sameProgress(t *testing.T, got, want []job.Progress) {
	t.Helper()
	if len(got) != len(want) || len(want) == 0 {
		t.Fatalf("%d epochs, want %d", len(got), len(want))
	}
	for i := range want {
		for name, w := range want[i].Metrics {
			g := got[i].Metrics[name]
			if (w == nil) != (g == nil) || (w != nil && !(math.Abs(*g-*w) <= 1e-9*math.Abs(*w))) {
				t.Errorf("epoch %d %s: %v, want %v", want[i].Epoch, name, deref(g), deref(w))
			}
		}
	}
}

func deref(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

// TestJobSpreadOverRanks checks, without MPI, that ranks that each read
// the source with their own DuckDB and train with their workers give the
// curves of one rank with as many workers, and the same model on every
// rank, for both kinds of model.
func TestJobSpreadOverRanks(t *testing.T) {
	for _, kind := range []string{job.KindGAT, job.KindRecommender} {
		newJob := func(workers int) string {
			if kind == job.KindGAT {
				return gatJob(t, workers, smallGAT)
			}
			return recJobOf(t, version, workers, smallRecommender)
		}
		one, many := newJob(2), newJob(1)
		world := parallel.LocalComms(1)[0]
		want, err := job.Run(context.Background(), one, version, world)
		if err != nil {
			t.Fatal(err)
		}
		got := runSpread(t, many, 2)
		for r, res := range got {
			if res.Weights != got[0].Weights {
				t.Errorf("%s: rank %d's weights differ from rank 0's", kind, r)
			}
		}
		if kind == job.KindGAT && got[0].Weights != want.Weights {
			t.Errorf("%s: the ranks' weights differ from one rank's", kind)
		}
		sameProgress(t, readProgress(t, many), readProgress(t, one))
		sameArtifact(t, kind, one, many)
	}
}

// sameArtifact fails t unless the job in dir wrote the artifact of the
// job in want: the same bytes for the GAT. A recommender's rating
// objective across ranks sums its users' vectors by rank first (see
// recommender.ownedRows): its artifact must have the same header and
// ratings, and the model's weights to 1e-7.
func sameArtifact(t *testing.T, kind, want, dir string) {
	t.Helper()
	a, err := os.ReadFile(filepath.Join(want, job.ArtifactFile))
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, job.ArtifactFile))
	if err != nil {
		t.Fatalf("rank 0 wrote no artifact: %v", err)
	}
	if kind == job.KindGAT {
		if !bytes.Equal(a, b) {
			t.Errorf("%s: the artifacts differ", kind)
		}
		return
	}
	pa, err := recommender.ArtifactParts(a, 4)
	if err != nil {
		t.Fatal(err)
	}
	pb, err := recommender.ArtifactParts(b, 4)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{0, 2, 3} {
		if !bytes.Equal(pa[k], pb[k]) {
			t.Errorf("%s: part %d of the artifacts differs", kind, k)
		}
	}
	ma, err := recommender.Unmarshal(pa[1])
	if err != nil {
		t.Fatal(err)
	}
	mb, err := recommender.Unmarshal(pb[1])
	if err != nil {
		t.Fatal(err)
	}
	for k := range ma.Weights {
		for i, v := range ma.Weights[k] {
			if g := mb.Weights[k][i]; math.Abs(g-v) > 1e-7*max(1, math.Abs(v)) {
				t.Fatalf("%s: weight %d of table %d is %.15g, in one process %.15g", kind, i, k, g, v)
			}
		}
	}
	mb.Weights = ma.Weights
	if !reflect.DeepEqual(ma, mb) {
		t.Errorf("%s: the models differ but for their weights", kind)
	}
}

// TestRecommenderArtifact checks that a recommender job's artifact holds
// the model it trained, framed as the registry frames it.
func TestRecommenderArtifact(t *testing.T) {
	dir := recJobOf(t, version, 1, smallRecommender)
	world := parallel.LocalComms(1)[0]
	if _, err := job.Run(context.Background(), dir, version, world); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, job.ArtifactFile))
	if err != nil {
		t.Fatal(err)
	}
	if string(data[:4]) != string(recommender.ArtifactMagic) {
		t.Fatalf("artifact starts %q", data[:4])
	}
	n := int(data[4]) | int(data[5])<<8
	var header struct {
		Epoch   int `json:"epoch"`
		Columns struct {
			User       string `json:"user"`
			ItemIsText bool   `json:"item_is_text"`
		} `json:"columns"`
	}
	if err := json.Unmarshal(data[12:12+n], &header); err != nil || header.Epoch != 3 || header.Columns.User != "user_id" || !header.Columns.ItemIsText {
		t.Errorf("header %s: %+v (%v)", data[12:12+n], header, err)
	}
	if _, err := os.Stat(filepath.Join(dir, job.CheckpointFile)); err != nil {
		t.Errorf("no checkpoint: %v", err)
	}
	if p := readProgress(t, dir); len(p) != 3 || p[2].Metrics["test_rmse"] == nil {
		t.Errorf("progress %+v", p)
	}
}

// shardedRatings are 300 users' ratings of 90 items, split as a server
// splits them before it exports a sharded job.
func shardedRatings(t *testing.T) (train, test recommender.Ratings) {
	t.Helper()
	b := recommender.NewBuilder(recommender.DuplicatesError)
	for u := range 300 {
		for i := range 90 {
			if (u*31+i*17)%4 == 0 {
				if err := b.Add(recommender.Int(int64(u)), recommender.Int(int64(i)), float64(1+((u%7)*(i%5)+u/50)%5)); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	all, err := b.Finish()
	if err != nil {
		t.Fatal(err)
	}
	return recommender.Split(all, 0.1, 9)
}

// shardedJob writes a recommender job sharded for ranks ranks of workers
// workers each.
func shardedJob(t *testing.T, v string, ranks, workers int, train, test recommender.Ratings) string {
	t.Helper()
	return shardedJobOf(t, v, ranks, workers, smallRecommender, train, test)
}

// shardedJobOf is shardedJob of the hyperparameters hyper.
func shardedJobOf(t *testing.T, v string, ranks, workers int, hyper string, train, test recommender.Ratings) string {
	t.Helper()
	dir := t.TempDir()
	spec := job.Spec{Version: v, Kind: job.KindRecommender, Seed: 9, Workers: workers, CheckpointEvery: 1,
		Recommender: json.RawMessage(hyper), Shard: job.ShardFile}
	cfg, err := spec.RecommenderConfig(ranks)
	if err != nil {
		t.Fatal(err)
	}
	if err := job.WriteShards(context.Background(), dir, train, test, recommender.ShardOf(cfg, train, test, ranks)); err != nil {
		t.Fatal(err)
	}
	if err := spec.Write(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestShardedJob checks that the ranks of a sharded recommender job each
// read only their own users' ratings, together every one once, and train
// what one process of as many workers trains on all of them: the curve
// to 1e-9 relative, every rank the same weights; and that a job sharded
// for another number of ranks is refused.
func TestShardedJob(t *testing.T) {
	train, test := shardedRatings(t)
	for _, shape := range [][2]int{{2, 1}, {3, 1}, {2, 2}} {
		ranks, workers := shape[0], shape[1]
		dir := shardedJob(t, version, ranks, workers, train, test)
		results := runSpread(t, dir, ranks)
		read := 0
		for r, res := range results {
			if res.Weights != results[0].Weights {
				t.Errorf("%dx%d: rank %d's weights differ from rank 0's", ranks, workers, r)
			}
			if res.Rows != train.Len()+test.Len() || res.Read >= res.Rows || res.Read == 0 {
				t.Errorf("%dx%d: rank %d read %d of %d rows, want its share of %d", ranks, workers, r, res.Read, res.Rows, train.Len()+test.Len())
			}
			read += res.Read
		}
		if read != train.Len()+test.Len() {
			t.Errorf("%dx%d: the ranks read %d rows in all, want %d", ranks, workers, read, train.Len()+test.Len())
		}
		spec, err := job.ReadSpec(dir, version)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := spec.RecommenderConfig(ranks)
		if err != nil {
			t.Fatal(err)
		}
		var want []job.Progress
		if _, err := recommender.Train(context.Background(), cfg, train, test, func(e recommender.Epoch) error {
			m := map[string]*float64{"train_rmse": &e.TrainRMSE, "test_rmse": &e.TestRMSE, "recall_at_10": &e.RecallAt10, "ndcg_at_10": &e.NDCGAt10}
			want = append(want, job.Progress{Epoch: e.Epoch, Metrics: m})
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		sameProgress(t, readProgress(t, dir), want)
		if _, err := os.Stat(filepath.Join(dir, job.CheckpointFile)); err != nil {
			t.Errorf("%dx%d: no checkpoint: %v", ranks, workers, err)
		}
		data, err := os.ReadFile(filepath.Join(dir, job.ArtifactFile))
		if err != nil {
			t.Fatal(err)
		}
		if m, err := recommender.Unmarshal(data); err != nil || m.Items != train.Items {
			t.Errorf("%dx%d: the artifact decodes to %v, %v; want a model of %d items", ranks, workers, m, err, train.Items)
		}
	}
	refusesRanks(t, shardedJob(t, version, 3, 1, train, test), 2)
}

// refusesRanks fails t unless every one of ranks ranks refuses the job in
// dir, sharded for another number of ranks.
func refusesRanks(t *testing.T, dir string, ranks int) {
	t.Helper()
	refused(t, dir, ranks, "the job runs as "+strconv.Itoa(ranks)+" ranks")
}

// refused fails t unless every one of ranks ranks fails the job in dir
// with an error that says want, and no artifact is written.
func refused(t *testing.T, dir string, ranks int, want string) {
	t.Helper()
	errs := make([]error, ranks)
	var wg sync.WaitGroup
	for r, comm := range parallel.LocalComms(ranks) {
		wg.Go(func() { _, errs[r] = job.Run(context.Background(), dir, version, comm) })
	}
	wg.Wait()
	for r, err := range errs {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("rank %d of %d: %v, want an error saying %q", r, ranks, err, want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, job.ArtifactFile)); err == nil {
		t.Errorf("a refused job wrote an artifact")
	}
}

// startFrom makes the recommender job in dir, of version v, train to
// epoch epochs from the checkpoint at path, of epoch at.
func startFrom(t *testing.T, dir, v, path string, at, epochs int) {
	t.Helper()
	spec, err := job.ReadSpec(dir, v)
	if err != nil {
		t.Fatal(err)
	}
	var hyper map[string]any
	if err := json.Unmarshal(spec.Recommender, &hyper); err != nil {
		t.Fatal(err)
	}
	hyper["epochs"] = epochs
	if spec.Recommender, err = json.Marshal(hyper); err != nil {
		t.Fatal(err)
	}
	if path != "" {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "start.artifact"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		spec.Start, spec.StartEpoch = "start.artifact", at
	}
	if err := spec.Write(dir); err != nil {
		t.Fatal(err)
	}
}

// TestRecommenderJobStart checks a recommender job that starts from a
// checkpoint (spec start and start_epoch) across 2 ranks, every rank
// reading every rating or sharded: it trains the epochs after the
// checkpoint's, every rank to the same weights, along the curve of one
// rank of 2 workers from the same checkpoint, and for the sharded job of
// recommender.TrainFrom from its model, to 1e-9 relative. The checkpoint
// is the last of a job across 2 ranks: an artifact, or a sharded job's
// model.
func TestRecommenderJobStart(t *testing.T) {
	train, test := shardedRatings(t)
	for _, sharded := range []bool{false, true} {
		newJob := func(ranks, workers int) string {
			if sharded {
				return shardedJob(t, version, ranks, workers, train, test)
			}
			return recJobOf(t, version, workers, smallRecommender)
		}
		t.Run(map[bool]string{false: "every rating", true: "sharded"}[sharded], func(t *testing.T) {
			first := newJob(2, 1)
			startFrom(t, first, version, "", 0, 2)
			runSpread(t, first, 2)
			checkpoint := filepath.Join(first, job.CheckpointFile)
			across, one := newJob(2, 1), newJob(1, 2)
			for _, dir := range []string{across, one} {
				startFrom(t, dir, version, checkpoint, 2, 4)
			}
			results := runSpread(t, across, 2)
			if results[0].Epochs != 4 {
				t.Errorf("rank 0 trained to epoch %d, want 4", results[0].Epochs)
			}
			if results[0].Weights != results[1].Weights {
				t.Errorf("rank 1's weights differ from rank 0's")
			}
			runSpread(t, one, 1)
			got := readProgress(t, across)
			if len(got) != 2 || got[0].Epoch != 3 || got[1].Epoch != 4 {
				t.Fatalf("the resumed job's epochs are %v, want 3 and 4", got)
			}
			sameProgress(t, got, readProgress(t, one))
			if !sharded { // a start without its epoch is refused
				spec, err := job.ReadSpec(one, version)
				if err != nil {
					t.Fatal(err)
				}
				spec.StartEpoch = 0
				if err := spec.Write(one); err != nil {
					t.Fatal(err)
				}
				if _, err := job.Run(context.Background(), one, version, parallel.LocalComms(1)[0]); err == nil || !strings.Contains(err.Error(), "start_epoch 0 must be at least 1") {
					t.Errorf("a start without start_epoch: %v", err)
				}
				return
			}
			data, err := os.ReadFile(checkpoint)
			if err != nil {
				t.Fatal(err)
			}
			m, err := recommender.Unmarshal(data)
			if err != nil {
				t.Fatal(err)
			}
			spec, err := job.ReadSpec(across, version)
			if err != nil {
				t.Fatal(err)
			}
			cfg, err := spec.RecommenderConfig(2)
			if err != nil {
				t.Fatal(err)
			}
			var want []job.Progress
			if _, err := recommender.TrainFrom(context.Background(), cfg, train, test, recommender.Start{Model: m, Epoch: 2}, func(e recommender.Epoch) error {
				want = append(want, job.Progress{Epoch: e.Epoch, Metrics: map[string]*float64{"train_rmse": &e.TrainRMSE, "test_rmse": &e.TestRMSE,
					"recall_at_10": &e.RecallAt10, "ndcg_at_10": &e.NDCGAt10}})
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			sameProgress(t, got, want)
		})
	}
}
