//go:build duckdb_arrow

package functions

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/mallard/mallard/mlops"
	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/series"
	"github.com/mallard/mallard/mlops/training"
	"github.com/mallard/mallard/sqlstate"
)

// gatJob is one execution of train_gat: training runs on its own goroutine
// and hands each epoch to fill, which writes it as a row, so the rows reach
// the client while training runs.
type gatJob struct {
	c               *call
	w               *wide
	cfg             gat.Config
	name            string
	scaler          string
	link            *scaleLink
	deploy          string
	checkpointEvery int // 0: at every new lowest test MSE
	allowDataChange bool
	seasonalHighway bool       // the highway was not given: max(4, season) lags
	seasonGiven     bool       // season := n was given
	horizonGiven    bool       // horizon := h was given
	compareGraph    bool       // train the twin without the graph beside the network
	timeKinds       []string   // of the source's time columns
	lastTimes       [][]string // the source's last two time rows, latest first
	timeRows        [][]string // the source's time rows, in time order

	// from is the checkpoint a resumed run continues, fromRef its version.
	from            *gatArtifact
	fromRef         mlops.Ref
	fromFingerprint string

	// across launches the run across MPI ranks; nil trains in this process.
	across *training.Launch

	// phases is where the statement's time outside the epochs went, for
	// its closing NOTICE.
	phases gatPhases
}

// reserve takes the memory of the run's training data from the server's
// budget before the source is read (see gatTrainingBytes), until the run
// ends.
func (j *gatJob) reserve(ctx context.Context, mem *training.Memory) error {
	rows, err := countRows(ctx, j.c, j.w.src)
	if err != nil {
		return err
	}
	n := len(j.w.entities)
	if err := checkCompleteGraph(j.cfg.Neighbors, n); err != nil {
		return err
	}
	return mem.Reserve(ctx, gatTrainingBytes(j.cfg, rows, n),
		fmt.Sprintf("%s's training data (%d rows x %d entities)", trainGATName, rows, n))
}

// maxCompleteEntities is the most entities train_gat trains on the
// complete graph (neighbors := 0, or k of at least the other entities):
// 2,000 entities make 4 million edges a sample, whose correlations,
// attention and gradients take hundreds of MB per worker.
const maxCompleteEntities = 2000

// checkCompleteGraph fails with 54000 when neighbors asks for every pair
// of more than maxCompleteEntities entities.
func checkCompleteGraph(neighbors, n int) error {
	if n <= maxCompleteEntities || neighbors > 0 && neighbors < n-1 {
		return nil
	}
	return sqlstate.New(sqlstate.ProgramLimitExceeded,
		"%s: neighbors := %d makes every pair of the %d entities an edge (%d a sample); the complete graph is limited to %d entities",
		trainGATName, neighbors, n, n*(n-1), maxCompleteEntities).
		WithHint("Keep each entity's k strongest correlations with neighbors := 10 (any k below %d), in memory proportional to entities x k.", n-1)
}

// gatTrainingBytes estimates the memory train_gat's data takes for rows
// time rows of n entities, from the shapes alone: 8 bytes a cell three
// times over (the matrix read, the anchor's one-step forecasts of its
// rows, the evaluation's predictions of them); with a neighbour limit,
// the graph cache (4 bytes an edge, n x neighbors edges a row, at most
// the cache's 256 MiB) and each worker's running top-k (12 bytes a kept
// edge of one sample); without one, each worker's correlations and
// complete graph (8 + 24 bytes an ordered pair). On top comes the
// report's attention (see reportAttentionBytes). The network, its
// optimiser state and the per-sample buffers are O(n x (window + hidden))
// and are not counted.
func gatTrainingBytes(cfg gat.Config, rows int64, n int) int64 {
	cells := rows * int64(n)
	bytes := 3*8*cells + reportAttentionBytes(cfg, rows, n)
	if cfg.Neighbors > 0 && cfg.Neighbors < n-1 {
		return bytes + min(4*cells*int64(cfg.Neighbors), 256<<20) + int64(max(1, cfg.Workers))*12*int64(n)*int64(cfg.Neighbors)
	}
	return bytes + int64(max(1, cfg.Workers))*32*int64(n)*int64(n)
}

// reportAttentionBytes bounds the memory of the report's attention for
// rows time rows of n entities. Without a neighbour limit every pair is
// an edge: n x n of about 170 bytes each at the peak (its running sum,
// count and sample, 24; the model's edge, 24; its JSON in the report,
// about 55, and the copy of that the store makes). With a limit k the
// running sums hold each (source, target) pair that was an edge of some
// test sample, at most n x (k + 1) a sample, 16 bytes each and up to
// twice that as their lists grow; the report keeps n x (k + 1) of them
// (edge and JSON, about 140 bytes each).
func reportAttentionBytes(cfg gat.Config, rows int64, n int) int64 {
	pairs := int64(n) * int64(n)
	k := cfg.Neighbors
	if k <= 0 || k >= n-1 {
		return 170 * pairs
	}
	tests := max(1, int64(math.Ceil(float64(rows)*(1-cfg.TrainFraction))))
	kept := int64(n) * int64(k+1)
	return 32*min(pairs, kept*tests) + 140*kept
}

// countRows counts the rows of a source.
func countRows(ctx context.Context, c *call, src *source) (int64, error) {
	return readInt(ctx, c, src, "SELECT count(*) FROM "+src.from)
}

// readInt reads the BIGINT that query, on src, returns in its first row.
func readInt(ctx context.Context, c *call, src *source, query string) (int64, error) {
	rd, err := c.read(ctx, query)
	if err != nil {
		return 0, src.wrap(err)
	}
	defer rd.Close()
	var n int64
	for rd.Next() {
		if b := rd.Batch(); b.NumRows() > 0 {
			n = b.Column(0).(*array.Int64).Value(0)
		}
	}
	return n, src.wrap(rd.Err())
}

// result scores the trained model against the baselines and then encodes
// the model with the forecast state those fits give, while it computes and
// encodes its report: each reads the model and m and writes only its own
// result.
func (j *gatJob) result(m series.Matrix, model *gat.Model, epoch int) (*training.Result, error) {
	var (
		metrics []gat.Metrics
		skipped []error
		data    []byte
		report  json.RawMessage
		wg      sync.WaitGroup
		errs    [3]error
		ph      = &j.phases
	)
	began := time.Now()
	wg.Go(func() { // the artifact keeps the forecast state evaluate's fits give
		var st *gat.ForecastState
		errs[0] = timed(&ph.evaluate, func() (err error) {
			metrics, skipped, st, err = gat.EvaluateState(model, m, j.link.invert())
			return err
		})
		if errs[0] == nil {
			errs[2] = timed(&ph.artifact, func() (err error) { data, err = j.artifact(m, model, epoch, true, st); return err })
		}
	})
	wg.Go(func() {
		errs[1] = timed(&ph.report, func() error {
			r, err := j.report(m, model)
			if err == nil {
				report, err = r.encode() // here, beside the others, rather than when storing
			}
			return err
		})
	})
	wg.Wait()
	ph.finish = time.Since(began)
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	for _, s := range skipped {
		j.c.caller.Notice(fmt.Sprintf("train_gat: baseline left out: %v", s))
	}
	return &training.Result{Artifact: data, Epoch: epoch, Metrics: metrics, TestLoss: metrics[0].TestMSE, ValLoss: metrics[0].ValMSE,
		Report: report}, nil
}

// anchorNotice is the NOTICE naming the anchor a run chose and, when it
// was chosen automatically, every candidate's validation MSE. The last
// value with a highway of lags is named as what it forecasts, the last
// value plus the highway's autoregression on differences, so that its
// figure is not read as evaluate's plain last_value.
func anchorNotice(ref fmt.Stringer, a *gat.Anchor, highway int) string {
	name := func(k string) string {
		if k == gat.AnchorLastValue && highway > 0 {
			return fmt.Sprintf("last_value+highway (ar_diff of %d lags)", highway)
		}
		return k
	}
	chosen := a.String()
	if a.Kind == gat.AnchorLastValue {
		chosen = name(a.Kind)
	}
	var parts []string
	for _, k := range gat.AnchorKinds() {
		if v, ok := a.Validation[k]; ok {
			parts = append(parts, fmt.Sprintf("%s %.6g", name(k), v))
		}
	}
	scores := ""
	if len(parts) > 0 {
		scores = ", the lowest validation MSE of " + strings.Join(parts, ", ")
	}
	return fmt.Sprintf("train_gat %s: anchored to %s%s", ref, chosen, scores)
}

// unscaledAbove is the magnitude beyond which a diverged run's input is
// said to look unscaled: rescale's outputs are a few units at most.
const unscaledAbove = 100

// largest is the largest magnitude in m.
func largest(m series.Matrix) float64 {
	big := 0.0
	for _, v := range m.Values {
		big = max(big, math.Abs(v))
	}
	return big
}

// noticeNeighbors tells, where neighbors := k asks for at least every
// other entity of m's, that the graph keeps every pair, as neighbors := 0
// does: the clamp the README documents.
func (j *gatJob) noticeNeighbors(m series.Matrix) {
	if k := j.cfg.Neighbors; k > 0 && k >= m.N-1 {
		j.c.caller.Notice(fmt.Sprintf("train_gat: neighbors := %d is at least the %d other entities of each; every pair of entities is an edge, as with neighbors := 0", k, m.N-1))
	}
}

// noticeAnchorOrigins tells, where anchor "auto" scores its candidates
// on the validation span alone because m has more than
// gat.CatalogueEntities entities (and anchor_origins := was not given),
// that it does so and how to choose over every rolling origin instead.
func (j *gatJob) noticeAnchorOrigins(m series.Matrix) {
	if j.cfg.Target != "change" || j.cfg.Anchor != gat.AnchorAuto {
		return
	}
	if _, bySize := gat.AnchorOriginsFor(j.cfg, m.N); bySize {
		j.c.caller.Notice(fmt.Sprintf("train_gat: %d entities are more than %d: anchor 'auto' scores its candidates on the validation span alone (anchor_origins := 'validation'), "+
			"not over every rolling origin, which fits each candidate again before each origin; anchor_origins := 'rolling' chooses over every origin", m.N, gat.CatalogueEntities))
	}
}

// noticeLadder tells, where the ladder leaves arima out because m has
// more than gat.CatalogueEntities entities (and ladder := was not given),
// that it does so, why, and how to fit it on every entity instead.
func (j *gatJob) noticeLadder(m series.Matrix) {
	if _, bySize := gat.LadderFor(j.cfg, m.N); bySize {
		j.c.caller.Notice(fmt.Sprintf("train_gat: %d entities are more than %d: the ladder leaves arima out, of the methods compared and of the candidates of anchor 'auto' (ladder := 'without_arima'), "+
			"since its order search costs about four times ets's on every entity; ladder := 'full' fits it on every entity", m.N, gat.CatalogueEntities))
	}
}

// dataFingerprint identifies the data a model is trained on: the entities
// and every value read, in time order.
func dataFingerprint(entities []string, m series.Matrix) string {
	h := sha256.New()
	for _, e := range entities {
		fmt.Fprintf(h, "%q\n", e)
	}
	var b [8]byte
	for _, v := range m.Values {
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(v))
		h.Write(b[:])
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}
