package job_test

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/job"
	"github.com/mallard/mallard/mlops/parallel"
	"github.com/mallard/mallard/mlops/series"
)

// gatMatrix is the series of gatJobOf's jobs.
func gatMatrix() series.Matrix { return series.Synthetic(8, 160, 3, 12) }

// gatShardedJobOf writes gatJobOf's job for a worker of version v sharded
// for ranks ranks of workers workers each, as the SQL server writes it,
// starting from start (the zero Start: from scratch).
func gatShardedJobOf(t testing.TB, v string, ranks, workers int, hyper string, start gat.Start) string {
	t.Helper()
	spec := job.Spec{Version: v, Kind: job.KindGAT, Time: []string{"t"}, Seed: 5, Workers: workers, CheckpointEvery: 2,
		GAT: json.RawMessage(hyper)}
	return writeGATSharded(t, spec, gatMatrix(), start, ranks)
}

// writeGATSharded writes the GAT job of spec on m, sharded for ranks
// ranks, into a new directory, as the SQL server writes it: what
// gat.Prepare returns from start, and the spec naming the shard and the
// start. It returns the directory.
func writeGATSharded(t testing.TB, spec job.Spec, m series.Matrix, start gat.Start, ranks int) string {
	t.Helper()
	dir := t.TempDir()
	spec.Shard, spec.Start = job.ShardFile, job.GATStartFile
	cfg, err := spec.GATConfig(ranks)
	if err != nil {
		t.Fatal(err)
	}
	start, pre, err := gat.Prepare(cfg, m, start)
	if err != nil {
		t.Fatal(err)
	}
	if err := job.WriteGATShards(context.Background(), dir, cfg, m, start, pre, ranks); err != nil {
		t.Fatal(err)
	}
	if err := spec.Write(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// readStart reads what a sharded GAT job wrote as its artifact or a
// checkpoint at path.
func readStart(t *testing.T, path string) gat.Start {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := gat.UnmarshalStart(data)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestGATShardedJob checks that the ranks of a sharded GAT job each read
// only their own samples' rows, together every row, and train what one
// rank of as many workers reading every row trains: the curve to 1e-9
// relative, every rank the same weights, and rank 0's artifact that
// model; for the default anchor (auto, whose forecasts the job carries)
// and the last value with the highway; and that a job sharded for another
// number of ranks is refused.
func TestGATShardedJob(t *testing.T) {
	m := gatMatrix()
	lastValue := `{"epochs": 4, "hidden": [8, 8], "batch_size": 16, "patience": 0, "anchor": "last_value"}`
	for name, hyper := range map[string]string{"auto": smallGAT, "last_value": lastValue} {
		for _, shape := range [][2]int{{2, 1}, {3, 1}, {2, 2}} {
			ranks, workers := shape[0], shape[1]
			label := name + " " + string(rune('0'+ranks)) + "x" + string(rune('0'+workers))
			one := gatJobOf(t, version, ranks*workers, hyper)
			want, err := job.Run(context.Background(), one, version, parallel.LocalComms(1)[0])
			if err != nil {
				t.Fatal(err)
			}
			dir := gatShardedJobOf(t, version, ranks, workers, hyper, gat.Start{})
			results := runSpread(t, dir, ranks)
			read := 0
			for r, res := range results {
				if res.Weights != results[0].Weights {
					t.Errorf("%s: rank %d's weights differ from rank 0's", label, r)
				}
				if res.Rows != m.T || res.Read >= res.Rows || res.Read == 0 {
					t.Errorf("%s: rank %d read %d of %d rows, want its share of %d", label, r, res.Read, res.Rows, m.T)
				}
				read += res.Read
			}
			if read < m.T {
				t.Errorf("%s: the ranks read %d rows in all, fewer than the %d", label, read, m.T)
			}
			sameProgress(t, readProgress(t, dir), readProgress(t, one))
			if a := readStart(t, filepath.Join(dir, job.ArtifactFile)); a.Model.Entities != m.N || digestOf(a.Model) != results[0].Weights {
				t.Errorf("%s: the artifact holds a model of %d entities, weights %s; rank 0 trained %s", label, a.Model.Entities, digestOf(a.Model), results[0].Weights)
			}
			kept := readStart(t, filepath.Join(dir, job.ArtifactFile)).Model.Anchor
			anchors, _ := filepath.Glob(filepath.Join(dir, "anchor-*.parquet"))
			if (kept.Kind == gat.AnchorLastValue) != (len(anchors) == 0) {
				t.Errorf("%s: anchored to %s with %d files of its forecasts", label, kept, len(anchors))
			}
			closeGATWeights(t, label, readArtifact(t, one).Model, readStart(t, filepath.Join(dir, job.ArtifactFile)).Model)
			if want.Read != m.T {
				t.Errorf("%s: one rank read %d of %d rows", label, want.Read, m.T)
			}
		}
	}

	refusesRanks(t, gatShardedJobOf(t, version, 3, 1, smallGAT, gat.Start{}), 2)
}

// TestGATShardedJobStart checks that a sharded GAT job resumed from a
// checkpoint follows the curve of one rank resumed from it, to 1e-9
// relative.
func TestGATShardedJobStart(t *testing.T) {
	data, a := gatCheckpoint(t)
	one := gatJobOf(t, version, 2, smallGAT)
	if err := os.WriteFile(filepath.Join(one, "start.artifact"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	spec, err := job.ReadSpec(one, version)
	if err != nil {
		t.Fatal(err)
	}
	spec.Start = "start.artifact"
	if err := spec.Write(one); err != nil {
		t.Fatal(err)
	}
	if _, err := job.Run(context.Background(), one, version, parallel.LocalComms(1)[0]); err != nil {
		t.Fatal(err)
	}
	dir := gatShardedJobOf(t, version, 2, 1, smallGAT, gat.Start{Model: a.Model, Epoch: a.Epoch})
	runSpread(t, dir, 2)
	got, want := readProgress(t, dir), readProgress(t, one)
	if len(want) == 0 || want[0].Epoch != a.Epoch+1 {
		t.Fatalf("the resumed job of one rank starts at epoch %v, want %d", want, a.Epoch+1)
	}
	sameProgress(t, got, want)
}

// readArtifact is the artifact of the GAT job in dir.
func readArtifact(t *testing.T, dir string) *gat.Artifact {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, job.ArtifactFile))
	if err != nil {
		t.Fatal(err)
	}
	a, err := gat.UnmarshalArtifact(data)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// closeGATWeights fails t unless got's weights are want's to 1e-7: the
// ranks of a sharded job sum their own samples' gradients first, so the
// sums round otherwise than one process's.
func closeGATWeights(t *testing.T, label string, want, got *gat.Model) {
	t.Helper()
	for k := range want.Weights {
		for i, v := range want.Weights[k] {
			if g := got.Weights[k][i]; !(math.Abs(g-v) <= 1e-7*max(1, math.Abs(v))) {
				t.Fatalf("%s: weight %d of tensor %d is %.15g, in one process %.15g", label, i, k, g, v)
			}
		}
	}
}

// digestOf is the digest job.Result gives a GAT model's weights: the
// SHA-256 of their bits, little-endian, in order.
func digestOf(m *gat.Model) string {
	h := sha256.New()
	for _, w := range m.Weights {
		for _, v := range w {
			h.Write(binary.LittleEndian.AppendUint64(nil, math.Float64bits(v)))
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// TestGATShardRefused checks that the ranks of a sharded GAT job whose
// files were altered fail with an error naming what is wrong, and write
// no artifact: each rank's file holding the other's rows, the anchor's
// forecasts missing, the shard's statistics not JSON, and a start of
// other entities.
func TestGATShardRefused(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		alter      func(t *testing.T, dir string)
	}{
		{"rows of another rank", "not the", func(t *testing.T, dir string) {
			a, b := filepath.Join(dir, "shard-00000.parquet"), filepath.Join(dir, "shard-00001.parquet")
			for _, step := range [][2]string{{a, a + ".x"}, {b, a}, {a + ".x", b}} {
				if err := os.Rename(step[0], step[1]); err != nil {
					t.Fatal(err)
				}
			}
		}},
		{"no anchor forecasts", "needs its forecasts", func(t *testing.T, dir string) {
			for _, f := range []string{"anchor-00000.parquet", "anchor-00001.parquet"} {
				if err := os.Remove(filepath.Join(dir, f)); err != nil {
					t.Fatal(err)
				}
			}
		}},
		{"shard not JSON", "read the shard", func(t *testing.T, dir string) {
			if err := os.WriteFile(filepath.Join(dir, job.ShardFile), []byte("{processes: 2"), 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{"start of other entities", "entities", func(t *testing.T, dir string) {
			s := readStart(t, filepath.Join(dir, job.GATStartFile))
			s.Model.Entities++
			data, err := gat.MarshalStart(s)
			if err == nil {
				err = os.WriteFile(filepath.Join(dir, job.GATStartFile), data, 0o644)
			}
			if err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := gatShardedJobOf(t, version, 2, 1, smallGAT, gat.Start{}) // anchored to ets (see TestGATShardedJob)
			tc.alter(t, dir)
			refused(t, dir, 2, tc.want)
		})
	}
}
