package gatrun

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/series"
	"github.com/mallard/mallard/mlops/training"
)

// result scores the trained model against the baselines and then encodes
// the model with the forecast state those fits give, while it computes and
// encodes its report: each reads the model and m and writes only its own
// result.
func (j *Job) result(m series.Matrix, model *gat.Model, epoch int) (*training.Result, error) {
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
			metrics, skipped, st, err = gat.EvaluateState(model, m, j.Link.Invert())
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
		j.Caller.Notice(fmt.Sprintf("train_gat: baseline left out: %v", s))
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
func (j *Job) noticeNeighbors(m series.Matrix) {
	if k := j.Config.Neighbors; k > 0 && k >= m.N-1 {
		j.Caller.Notice(fmt.Sprintf("train_gat: neighbors := %d is at least the %d other entities of each; every pair of entities is an edge, as with neighbors := 0", k, m.N-1))
	}
}

// noticeAnchorOrigins tells, where anchor "auto" scores its candidates
// on the validation span alone because m has more than
// gat.CatalogueEntities entities (and anchor_origins := was not given),
// that it does so and how to choose over every rolling origin instead.
func (j *Job) noticeAnchorOrigins(m series.Matrix) {
	if j.Config.Target != "change" || j.Config.Anchor != gat.AnchorAuto {
		return
	}
	if _, bySize := gat.AnchorOriginsFor(j.Config, m.N); bySize {
		j.Caller.Notice(fmt.Sprintf("train_gat: %d entities are more than %d: anchor 'auto' scores its candidates on the validation span alone (anchor_origins := 'validation'), "+
			"not over every rolling origin, which fits each candidate again before each origin; anchor_origins := 'rolling' chooses over every origin", m.N, gat.CatalogueEntities))
	}
}

// noticeLadder tells, where the ladder leaves arima out because m has
// more than gat.CatalogueEntities entities (and ladder := was not given),
// that it does so, why, and how to fit it on every entity instead.
func (j *Job) noticeLadder(m series.Matrix) {
	if _, bySize := gat.LadderFor(j.Config, m.N); bySize {
		j.Caller.Notice(fmt.Sprintf("train_gat: %d entities are more than %d: the ladder leaves arima out, of the methods compared and of the candidates of anchor 'auto' (ladder := 'without_arima'), "+
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
