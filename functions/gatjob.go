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
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/mlops"
	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/registry"
	"github.com/mallard/mallard/mlops/scale"
	"github.com/mallard/mallard/mlops/series"
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

	// phases is where the statement's time outside the epochs went, for
	// its closing NOTICE.
	phases gatPhases
}

// gatPhases times the parts of a train_gat statement outside its epochs.
// Each is written by the goroutine that runs it before the phases are
// read, after those goroutines are waited for.
type gatPhases struct {
	read, prepare, setup, checkpoints  time.Duration
	evaluate, report, artifact, finish time.Duration
	// lastEpoch is when the last epoch's row was handed to fill, computed
	// when the result was, and stored the size of its artifact: the
	// training goroutine writes them, the NOTICE of storing reads them
	// once stream has handed fill the end, which comes after the writes.
	lastEpoch, computed time.Time
	stored              int // bytes of the stored artifact
}

// String lists the phases for the closing NOTICE; evaluate, report and
// artifact run at the same time, so finish, their wall time, is what they
// add to the statement.
func (p *gatPhases) String() string {
	s := func(d time.Duration) string { return fmt.Sprintf("%.2fs", d.Seconds()) }
	return fmt.Sprintf("read %s, prepare %s, setup %s, checkpoints %s, evaluate+report+artifact %s (together; alone %s, %s, %s)",
		s(p.read), s(p.prepare), s(p.setup), s(p.checkpoints), s(p.finish), s(p.evaluate), s(p.report), s(p.artifact))
}

// storing is the closing NOTICE's text once the result is stored, at
// now: how long storing took (writing the artifact and the report,
// marking the version ready, deploying it and freeing the run's memory,
// from when the result was computed), and the statement's time after its
// last epoch in all. It is the last phase outside the epochs, and says
// so, as the NOTICE of the others does.
func (p *gatPhases) storing(now time.Time) string {
	return fmt.Sprintf("outside the epochs: storing %.2fs (artifact %.2f MB); after the last epoch %.2fs in all",
		now.Sub(p.computed).Seconds(), float64(p.stored)/1e6, now.Sub(p.lastEpoch).Seconds())
}

// noticeStoring makes r send, when it ends with its result stored, the
// NOTICE of gatPhases.storing: stream stores the result after train
// returns and hands fill the end once it has.
func (j *gatJob) noticeStoring(r *run, ref mlops.Ref) *run {
	fill, noticed := r.fill, false
	r.fill = func(chunk duckdb.DataChunk) (int, error) {
		n, err := fill(chunk)
		if n == 0 && err == nil && !noticed && !j.phases.computed.IsZero() {
			noticed = true
			j.c.caller.Notice(fmt.Sprintf("train_gat %s: %s", ref, j.phases.storing(time.Now())))
		}
		return n, err
	}
	return r
}

// timed runs do and adds its duration to d.
func timed(d *time.Duration, do func() error) error {
	start := time.Now()
	err := do()
	*d += time.Since(start)
	return err
}

// scaleLink maps a model's entities to the columns of the scaler that
// rescaled them, to report and forecast in original units.
type scaleLink struct {
	scaler scale.Scaler
	column []int // scaler column of each entity
}

// invert maps an entity's value back to original units; nil without a scaler.
func (l *scaleLink) invert() gat.Invert {
	if l == nil {
		return nil
	}
	return func(i int, v float64) float64 { return l.scaler.Invert(l.column[i], v) }
}

// linkScaler loads the scaler named name (none if empty) and finds each entity's column in it.
func linkScaler(c *call, name string, entities []string) (*scaleLink, error) {
	if name == "" {
		return nil, nil
	}
	s, err := loadScaler(c.ctx(), c.db, trainGATName, name)
	if err != nil {
		return nil, err
	}
	link := &scaleLink{scaler: s}
	for _, e := range entities {
		k := -1
		for i, col := range s.Columns {
			if col == e {
				k = i
			}
		}
		if k < 0 {
			return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: scaler %s has no column %s", trainGATName, quote(name), e).
				WithHint("Link the scaler that rescaled this source: rescale(..., save_as := '%s').", name)
		}
		link.column = append(link.column, k)
	}
	return link, nil
}

// read reserves the training data's memory (release frees it; a run that
// starts keeps it until it ends), reads the source's matrix and time rows,
// and checks that there are enough rows for the window.
func (j *gatJob) read(ctx context.Context) (series.Matrix, func(), error) {
	release, err := j.reserve(ctx)
	if err != nil {
		return series.Matrix{}, nil, err
	}
	m, err := j.w.matrix(ctx, j.c, trainGATName)
	if err == nil && j.w.long != nil {
		err = j.rescaleLong(m)
	}
	if err == nil {
		j.timeKinds, j.timeRows, err = j.w.timeRows(ctx, j.c)
	}
	if err == nil && m.T < minRows(j.cfg.Span()) {
		err = sqlstate.New(sqlstate.InvalidParameterValue, "%s: the source has %d time rows; window := %d and highway := %d need at least %d",
			trainGATName, m.T, j.cfg.Window, j.cfg.Highway, minRows(j.cfg.Span()))
	}
	if err != nil {
		release()
		return series.Matrix{}, nil, err
	}
	return m, release, nil
}

func (j *gatJob) start(ctx context.Context) (r *run, err error) {
	began := time.Now()
	m, release, err := j.read(ctx)
	if err != nil {
		return nil, err
	}
	defer func() {
		if r == nil {
			release()
		}
	}()
	j.phases.read = time.Since(began)
	began = time.Now()
	fpDone := make(chan string, 1)
	go func() { fpDone <- dataFingerprint(j.w.entityNames(), m) }() // beside the season's detection
	j.noticeNeighbors(m)
	err = j.resolveSeason(m)
	if err == nil {
		err = j.resolveHorizon(m, false)
	}
	fp := <-fpDone
	if err == nil && j.w.long != nil {
		err = j.saveLongScaler(ctx, fp)
	}
	if err != nil {
		return nil, err
	}
	j.lastTimes = lastTwo(j.timeRows)
	var from gat.Start
	if j.from != nil {
		if err := j.checkResume(fp); err != nil {
			return nil, err
		}
		from = gat.Start{Model: j.from.Model, Epoch: j.from.Epoch}
	}
	spec := registry.Spec{Kind: "gat", Name: j.name, Params: j.cfg, Source: j.w.src.text, Fingerprint: fp, Rows: int64(m.T),
		Entities: int64(m.N), Scaler: j.scaler, Epochs: j.cfg.Epochs, CheckpointEvery: j.checkpointEvery, Deploy: j.deploy,
		Session: j.c.caller.ID()}
	if j.from != nil {
		spec.ResumedFrom = j.fromRef.String()
	}
	tr, err := j.c.reg.Begin(ctx, spec)
	if err != nil {
		return nil, err
	}
	j.phases.prepare = time.Since(began)
	return j.noticeStoring(stream(j.c, trainGATName, tr, func(ctx context.Context, emit func(row ...any) error) (*registry.Result, error) {
		defer release()
		last := from.Epoch
		model, err := gat.TrainFrom(ctx, j.cfg, m, from, func(e gat.Epoch) error {
			last, j.phases.setup = e.Epoch, e.Setup
			if err := j.record(tr, m, &e); err != nil {
				return err
			}
			var val any
			note := fmt.Sprintf("train_gat %s: epoch %d train_mse %.6g test_mse %.6g", tr.Ref(), e.Epoch, e.TrainMSE, e.TestMSE)
			if !math.IsNaN(e.ValMSE) {
				val = e.ValMSE
				note += fmt.Sprintf(" %s %.6g", valLabel(j.cfg.Horizon), e.ValMSE)
			}
			j.c.caller.Notice(note)
			err := emit(int64(e.Epoch), e.TrainMSE, e.TestMSE, val, e.Best, float64(e.Elapsed.Microseconds())/1000)
			j.phases.lastEpoch = time.Now()
			return err
		})
		if err != nil {
			return nil, err
		}
		if a := model.Anchor; a != nil {
			j.c.caller.Notice(anchorNotice(tr.Ref(), a, j.cfg.Highway))
		}
		if j.cfg.ValidationFraction > 0 {
			j.c.caller.Notice(fmt.Sprintf("train_gat %s: keeps the weights of epoch %d, the lowest validation MSE%s (epoch %d is the network training started from)",
				tr.Ref(), model.Kept, horizonText(j.cfg.Horizon), from.Epoch))
		}
		if j.compareGraph && j.from == nil {
			if model, err = j.trainTwin(ctx, tr.Ref(), m, model); err != nil {
				return nil, err
			}
		}
		res, err := j.result(m, model, last)
		if err == nil {
			j.c.caller.Notice(fmt.Sprintf("train_gat %s: outside the epochs: %v; storing follows", tr.Ref(), &j.phases))
			j.phases.computed, j.phases.stored = time.Now(), len(res.Artifact)
		}
		return res, err
	}), tr.Ref()), nil
}

// reserve takes the memory of the run's training data from the server's
// budget before the source is read (see gatTrainingBytes); release gives
// it back when the run ends, and is called once training returns.
func (j *gatJob) reserve(ctx context.Context) (release func(), err error) {
	rows, err := countRows(ctx, j.c, j.w.src)
	if err != nil {
		return nil, err
	}
	n := len(j.w.entities)
	if err := checkCompleteGraph(j.cfg.Neighbors, n); err != nil {
		return nil, err
	}
	return j.c.db.Budget().Reserve(ctx, gatTrainingBytes(j.cfg, rows, n),
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
// complete graph (8 + 24 bytes an ordered pair). The network, its
// optimiser state and the per-sample buffers are O(n x (window + hidden))
// and are not counted.
func gatTrainingBytes(cfg gat.Config, rows int64, n int) int64 {
	cells := rows * int64(n)
	bytes := 3 * 8 * cells
	if cfg.Neighbors > 0 && cfg.Neighbors < n-1 {
		return bytes + min(4*cells*int64(cfg.Neighbors), 256<<20) + int64(max(1, cfg.Workers))*12*int64(n)*int64(cfg.Neighbors)
	}
	return bytes + int64(max(1, cfg.Workers))*32*int64(n)*int64(n)
}

// countRows counts the rows of a source.
func countRows(ctx context.Context, c *call, src *source) (int64, error) {
	rd, err := c.read(ctx, "SELECT count(*) FROM "+src.from)
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

// checkResume checks that a resumed run trains on the entities, and unless
// allowed the data, that its checkpoint was trained on.
func (j *gatJob) checkResume(fp string) error {
	if !slices.Equal(j.from.Entities, j.w.entityNames()) {
		return sqlstate.New(sqlstate.InvalidParameterValue, "%s: resume: the source's entity columns differ from those %s was trained on",
			trainGATName, j.fromRef).WithDetail("It was trained on %s; the source has %s.",
			strings.Join(j.from.Entities, ", "), strings.Join(j.w.entityNames(), ", "))
	}
	if fp != j.fromFingerprint && !j.allowDataChange {
		return sqlstate.New(sqlstate.InvalidParameterValue, "%s: resume: the data differs from the data %s was trained on", trainGATName, j.fromRef).
			WithDetail("Its fingerprint was %s; the source's is %s.", j.fromFingerprint, fp).
			WithHint("allow_data_change := true resumes on the new data.")
	}
	return nil
}

// record commits an epoch to the registry, marks it best when its
// selection MSE (validation, else test) is the lowest so far, and saves a
// checkpoint when one is due (see registry.Training.Record).
func (j *gatJob) record(tr *registry.Training, m series.Matrix, e *gat.Epoch) error {
	if err := diverged(trainGATName, "train_mse", e.TrainMSE, e.Epoch); err != nil {
		if big := largest(m); big > unscaledAbove {
			return err.WithDetail("The input looks unscaled: its values reach %.6g in magnitude.", big).
				WithHint("Rescale it first, SELECT * FROM rescale(source, save_as := 'name'), and train on that with scaler := 'name'; or lower lr (it is %g).", j.cfg.LR)
		}
		return err.WithHint("Lower lr (it is %g), or use optimizer := 'adam'.", j.cfg.LR)
	}
	selection, extra := e.TestMSE, any(nil)
	if !math.IsNaN(e.ValMSE) {
		selection, extra = e.ValMSE, map[string]float64{"val_mse": e.ValMSE}
	}
	var checkpoint time.Time // when the checkpoint, if one is due, began
	best, err := tr.Record(registry.Losses{Epoch: e.Epoch, Train: e.TrainMSE, Test: e.TestMSE, Selection: selection,
		ElapsedMS: float64(e.Elapsed.Microseconds()) / 1000, Extra: extra}, func() ([]byte, error) {
		checkpoint = time.Now()
		return j.artifact(m, e.Snapshot(), e.Epoch, false, nil)
	})
	if !checkpoint.IsZero() {
		j.phases.checkpoints += time.Since(checkpoint)
	}
	e.Best = best
	return err
}

// result scores the trained model against the baselines and then encodes
// the model with the forecast state those fits give, while it computes and
// encodes its report: each reads the model and m and writes only its own
// result.
func (j *gatJob) result(m series.Matrix, model *gat.Model, epoch int) (*registry.Result, error) {
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
				report, err = json.Marshal(r) // here, beside the others, rather than when storing
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
	return &registry.Result{Artifact: data, Epoch: epoch, Metrics: metrics, TestLoss: metrics[0].TestMSE, ValLoss: metrics[0].ValMSE,
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
