package gat

import (
	"context"
	"encoding/json"
	"fmt"
	"math"

	"github.com/mallard/mallard/mlops/parallel"
	"github.com/mallard/mallard/mlops/series"
)

// Shard describes a run across processes each of which holds only the
// rows its own samples read. Process p owns the p-th of Processes equal
// contiguous blocks of the fitting samples, and likewise of the
// validation and of the test samples, so that every process has its
// share of each; a sample reads the Span() rows before its target and
// the target, so a process holds about Rows / Processes rows plus three
// spans.
//
// What must be computed over every row is computed before the run, by
// whoever holds every row (the SQL server that exports the job): the
// anchor, the highway's least-squares fit and the initial weights (the
// untrained model, which the run starts from), and the anchor's forecast
// of every target row, which for ets or theta depends on every row before
// it (see Prepare).
type Shard struct {
	Processes int `json:"processes"`
	Rows      int `json:"rows"`
	Entities  int `json:"entities"`
}

// ShardOf is the shard of m's rows for processes processes.
func ShardOf(m series.Matrix, processes int) Shard {
	return Shard{Processes: processes, Rows: m.T, Entities: m.N}
}

// owners returns the process that owns every row as a sample's target
// (-1 for rows that are no sample's), for cfg.
func (s Shard) owners(cfg Config) ([]int32, error) {
	if s.Processes < 1 {
		return nil, fmt.Errorf("gat: a shard for %d processes", s.Processes)
	}
	fit, val, test, err := cfg.Samples(series.Matrix{T: s.Rows}) // the samples depend on the rows alone
	if err != nil {
		return nil, err
	}
	owner := make([]int32, s.Rows)
	for t := range owner {
		owner[t] = -1
	}
	for _, samples := range [][]int{fit, val, test} {
		for p := range s.Processes {
			for _, t := range samples[p*len(samples)/s.Processes : (p+1)*len(samples)/s.Processes] {
				owner[t] = int32(p)
			}
		}
	}
	return owner, nil
}

// Held returns, ascending, the rows process p holds (every row one of its
// samples reads) and its samples' targets, whose anchor forecasts it
// holds (see Prepare).
func (s Shard) Held(cfg Config, p int) (rows, targets []int, err error) {
	owner, err := s.owners(cfg)
	if err != nil {
		return nil, nil, err
	}
	span := cfg.Span()
	held := make([]bool, s.Rows)
	for t, o := range owner {
		if int(o) != p {
			continue
		}
		targets = append(targets, t)
		for r := max(t-span, 0); r <= t; r++ {
			held[r] = true
		}
	}
	for r, h := range held {
		if h {
			rows = append(rows, r)
		}
	}
	return rows, targets, nil
}

// Prepare returns what every process of a sharded run of cfg on m needs
// that reads every row: the start the run trains from (start itself when
// it holds a model, else the untrained network of Untrained at epoch 0,
// whose anchor and highway are fitted on every fitting sample) and the
// start's anchor's forecasts of rows Span().. of m, row by row (nil when
// the network is anchored to the last value or not anchored). A process
// holding every row and training from Prepare's start trains the model
// TrainOn trains from start.
func Prepare(cfg Config, m series.Matrix, start Start) (Start, []float64, error) {
	if start.Model == nil {
		u, err := Untrained(cfg, m)
		if err != nil {
			return Start{}, nil, err
		}
		start = Start{Model: u}
	}
	f, err := start.Model.Anchor.forecaster()
	if err != nil || f == nil || !cfg.anchored() {
		return start, nil, err
	}
	return start, anchorRows(f, m, cfg.Span()), nil
}

// MarshalStart encodes start as a sharded run's processes read it (see
// UnmarshalStart): its model and epoch.
func MarshalStart(start Start) ([]byte, error) {
	if start.Model == nil {
		return nil, fmt.Errorf("gat: encode start: no model")
	}
	return json.Marshal(Artifact{Model: start.Model, Epoch: start.Epoch})
}

// UnmarshalStart decodes a start's model and epoch from what MarshalStart
// or Artifact.Marshal encoded.
func UnmarshalStart(data []byte) (Start, error) {
	var a Artifact
	if err := json.Unmarshal(data, &a); err != nil {
		return Start{}, fmt.Errorf("gat: decode start: %w", err)
	}
	if a.Model == nil {
		return Start{}, fmt.Errorf("gat: decode start: no model")
	}
	return Start{Model: a.Model, Epoch: a.Epoch}, nil
}

// TrainShard trains as TrainOn does from start, in a process of a run
// across s.Processes processes that holds only its own samples' rows of
// part (part is s.Rows x s.Entities, and the rows it does not hold are
// never read: NaN shows it), with pre the anchor's forecasts that Prepare
// returns, those of its own samples' targets at least. start must be
// Prepare's. The workers of coll in this process take their shares of the
// process's samples in every mini-batch and evaluation. Every process
// returns the same model, whose curve is that of one process of as many
// workers on every row to the order of floating-point sums; report is
// called in the process of rank 0 only.
func TrainShard(ctx context.Context, coll parallel.Collective, cfg Config, part series.Matrix, pre []float64, s Shard, start Start,
	report func(Epoch) error) (*Model, error) {
	lead, locals := parallel.Locals(coll)
	switch {
	case coll.Size() != s.Processes*locals || lead%locals != 0:
		return nil, fmt.Errorf("gat: the rows are sharded for %d processes, and %d workers run %d to a process", s.Processes, coll.Size(), locals)
	case part.T != s.Rows || part.N != s.Entities || len(part.Values) != s.Rows*s.Entities:
		return nil, fmt.Errorf("gat: a shard of %d rows x %d entities for a matrix of %d x %d", s.Rows, s.Entities, part.T, part.N)
	case start.Model == nil || start.Model.Entities != s.Entities:
		return nil, fmt.Errorf("gat: a sharded run of %d entities starts from the model Prepare returns for them", s.Entities)
	case pre != nil && len(pre) != max(s.Rows-cfg.Span(), 0)*s.Entities:
		return nil, fmt.Errorf("gat: %d anchor forecasts for %d rows of %d entities from row %d", len(pre), s.Rows, s.Entities, cfg.Span())
	}
	owner, err := s.owners(cfg)
	if err != nil {
		return nil, err
	}
	return train(ctx, coll, cfg, part, start, report, &sharding{owner: owner, process: int32(lead / locals), pre: pre})
}

// sharding is how a sharded run's process finds its samples (see Shard).
type sharding struct {
	owner   []int32 // the process that owns each row as a sample's target
	process int32
	pre     []float64 // the anchor's forecasts, of the process's targets at least
}

// own appends to dst the samples of samples that the process owns, in order.
func (s *sharding) own(dst, samples []int) []int {
	for _, t := range samples {
		if s.owner[t] == s.process {
			dst = append(dst, t)
		}
	}
	return dst
}

// NaNMatrix returns a rows x entities matrix of NaNs, for a process to
// fill with the rows it holds.
func NaNMatrix(rows, entities int) series.Matrix {
	m := series.Matrix{T: rows, N: entities, Values: make([]float64, rows*entities)}
	for i := range m.Values {
		m.Values[i] = math.NaN()
	}
	return m
}
