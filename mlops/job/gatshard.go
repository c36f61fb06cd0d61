package job

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/parallel"
	"github.com/mallard/mallard/mlops/series"
	"github.com/mallard/mallard/storage"
)

// GATStartFile is the start of a sharded GAT job, which WriteGATShards
// writes (the spec's Start names it), and anchorPattern the names of the
// anchor's forecasts of its ranks' targets, one file per rank.
const (
	GATStartFile  = "start.json"
	anchorPattern = "anchor-%05d.parquet"
)

// WriteGATShards writes a GAT job's source m sharded across ranks ranks
// into dir, as the SQL server exports it (see gat.Shard), with what
// gat.Prepare returned for cfg and m: the shard as ShardFile; the start
// the ranks train from as GATStartFile; and for every
// rank one Parquet file of the rows it holds (a BIGINT column t, the
// row's index in m, and one DOUBLE column per entity, e0, e1, ...) and,
// for an anchor other than the last value, one of the anchor's forecasts
// of its targets (alike; row t is the forecast of row t). The spec then
// names ShardFile in Shard and GATStartFile in Start. So a rank reads
// only its own samples' rows and fits nothing over every row itself.
func WriteGATShards(ctx context.Context, dir string, cfg gat.Config, m series.Matrix, start gat.Start, pre []float64, ranks int) error {
	s := gat.ShardOf(m, ranks)
	data, err := json.Marshal(s)
	if err != nil {
		return err
	}
	if err := writeFile(filepath.Join(dir, ShardFile), data); err != nil {
		return err
	}
	if data, err = gat.MarshalStart(start); err != nil {
		return err
	}
	if err := writeFile(filepath.Join(dir, GATStartFile), data); err != nil {
		return err
	}
	from := m.T - len(pre)/m.N // the row of pre's first forecast
	for p := range ranks {
		rows, targets, err := s.Held(cfg, p)
		if err != nil {
			return err
		}
		if err := writeRows(ctx, filepath.Join(dir, fmt.Sprintf("shard-%05d.parquet", p)), m.N, rows, m.Row); err != nil {
			return err
		}
		if pre == nil {
			continue
		}
		forecast := func(t int) []float64 { return pre[(t-from)*m.N : (t-from+1)*m.N] }
		if err := writeRows(ctx, filepath.Join(dir, fmt.Sprintf(anchorPattern, p)), m.N, targets, forecast); err != nil {
			return err
		}
	}
	return nil
}

// readRows reads the rows of a file writeRows wrote into dst, a matrix of
// every row (its T rows, its N values each), and returns their indexes.
func readRows(ctx context.Context, db *storage.DB, path string, dst series.Matrix) ([]int, error) {
	scan := storage.Parquet{Files: []string{path}, OrderBy: []string{"t"}, Columns: []storage.Cast{{Column: "t", Type: storage.TypeBigInt}}}
	for i := range dst.N {
		scan.Columns = append(scan.Columns, storage.Cast{Column: fmt.Sprintf("e%d", i), Type: storage.TypeDouble})
	}
	r, err := scan.Read(ctx, db)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", filepath.Base(path), err)
	}
	defer r.Close()
	var rows []int
	for r.Next() {
		b := r.Batch()
		ts := b.Column(0).(*array.Int64)
		for k := range int(b.NumRows()) {
			t := int(ts.Value(k))
			if t < 0 || t >= dst.T || (len(rows) > 0 && t <= rows[len(rows)-1]) {
				return nil, fmt.Errorf("read %s: row %d, after %d rows, is not a row of %d in order", filepath.Base(path), t, len(rows), dst.T)
			}
			for i := range dst.N {
				dst.Values[t*dst.N+i] = b.Column(1 + i).(*array.Float64).Value(k)
			}
			rows = append(rows, t)
		}
	}
	if err := r.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", filepath.Base(path), err)
	}
	return rows, nil
}

// gatShard is a rank's part of a sharded GAT job (see WriteGATShards).
type gatShard struct {
	s     gat.Shard
	start gat.Start
	part  series.Matrix
	pre   []float64 // nil without the anchor's forecasts
	read  int       // the rows the rank read
}

// readGATShard reads this rank's part of a sharded GAT job: the shard,
// the start, and the rows it holds and the anchor's forecasts of its
// targets, from its own files only; every other row is NaN.
func readGATShard(ctx context.Context, db *storage.DB, dir string, spec Spec, cfg gat.Config, files []string, rank, ranks int) (*gatShard, error) {
	var g gatShard
	data, err := os.ReadFile(filepath.Join(dir, spec.Shard))
	if err == nil {
		err = json.Unmarshal(data, &g.s)
	}
	if err != nil {
		return nil, fmt.Errorf("read the shard %s: %w", spec.Shard, err)
	}
	if g.s.Processes != ranks || len(files) != ranks {
		return nil, fmt.Errorf("job spec: the source is sharded for %d ranks in %d files, and the job runs as %d ranks", g.s.Processes, len(files), ranks)
	}
	if g.s.Rows < 1 || g.s.Entities < 2 {
		return nil, fmt.Errorf("read the shard %s: %d rows of %d entities", spec.Shard, g.s.Rows, g.s.Entities)
	}
	if data, err = os.ReadFile(filepath.Join(dir, spec.Start)); err == nil {
		g.start, err = gat.UnmarshalStart(data)
	}
	if err != nil {
		return nil, fmt.Errorf("read the start %s: %w", spec.Start, err)
	}
	want, targets, err := g.s.Held(cfg, rank)
	if err != nil {
		return nil, err
	}
	g.part = gat.NaNMatrix(g.s.Rows, g.s.Entities)
	rows, err := readRows(ctx, db, files[rank], g.part)
	if err != nil {
		return nil, err
	}
	if !slices.Equal(rows, want) {
		return nil, fmt.Errorf("read %s: %d rows, not the %d that rank %d of %d holds", filepath.Base(files[rank]), len(rows), len(want), rank, ranks)
	}
	g.read = len(rows)
	anchor := filepath.Join(dir, fmt.Sprintf(anchorPattern, rank))
	if _, err := os.Stat(anchor); errors.Is(err, fs.ErrNotExist) {
		return &g, nil
	}
	forecasts := gat.NaNMatrix(g.s.Rows, g.s.Entities) // row t is the forecast of row t
	if rows, err = readRows(ctx, db, anchor, forecasts); err != nil {
		return nil, err
	}
	if !slices.Equal(rows, targets) {
		return nil, fmt.Errorf("read %s: %d rows, not the %d targets of rank %d of %d", filepath.Base(anchor), len(rows), len(targets), rank, ranks)
	}
	g.pre = forecasts.Values[min(cfg.Span(), g.s.Rows)*g.s.Entities:] // from row Span(), as gat.Prepare returns them
	return &g, nil
}

// runGATShard trains a sharded GAT job: the rank reads only its own
// samples' rows (see readGATShard), and rank 0's checkpoints and artifact
// are the model and its epoch alone (gat.MarshalStart), which the server
// that exported the job completes with the rows it holds.
func runGATShard(ctx context.Context, dir string, spec Spec, cfg gat.Config, files []string, db *storage.DB, comm parallel.Comm) (Result, error) {
	g, err := readGATShard(ctx, db, dir, spec, cfg, files, comm.Rank(), comm.Size())
	if err != nil {
		return Result{}, err
	}
	encode := func(model *gat.Model, epoch int, _ bool) ([]byte, error) {
		return gat.MarshalStart(gat.Start{Model: model, Epoch: epoch})
	}
	coll := parallel.NewRanks(comm, spec.workers())
	model, epochs, err := trainGAT(dir, spec, comm, g.start.Epoch, encode, func(report func(gat.Epoch) error) (*gat.Model, error) {
		return gat.TrainShard(ctx, coll, cfg, g.part, g.pre, g.s, g.start, report)
	})
	if err != nil {
		return Result{}, err
	}
	return Result{Rank: comm.Rank(), Ranks: comm.Size(), Workers: spec.workers(), Epochs: epochs, Weights: digest(model.Weights),
		Reducing: coll.Reducing(), Read: g.read, Rows: g.s.Rows}, nil
}
