//go:build duckdb_arrow

package functions

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/mallard/mallard/mlops"
	"github.com/mallard/mallard/mlops/gat"
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
	timeKinds       []string   // of the source's time columns
	lastTimes       [][]string // the source's last two time rows, latest first
	timeRows        [][]string // the source's time rows, in time order

	// from is the checkpoint a resumed run continues, fromRef its version.
	from            *gatArtifact
	fromRef         mlops.Ref
	fromFingerprint string
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

func (j *gatJob) start(ctx context.Context) (*run, error) {
	m, err := j.w.matrix(ctx, j.c, trainGATName)
	if err != nil {
		return nil, err
	}
	if m.T < minRows(j.cfg.Window) {
		return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: the source has %d time rows; window := %d needs at least %d",
			trainGATName, m.T, j.cfg.Window, minRows(j.cfg.Window))
	}
	if j.timeKinds, j.timeRows, err = j.w.timeRows(ctx, j.c); err != nil {
		return nil, err
	}
	j.lastTimes = lastTwo(j.timeRows)
	fp := dataFingerprint(j.w.entityNames(), m)
	var from gat.Start
	if j.from != nil {
		if err := j.checkResume(fp); err != nil {
			return nil, err
		}
		from = gat.Start{Model: j.from.Model, Epoch: j.from.Epoch}
	}
	spec := runSpec{kind: "gat", name: j.name, params: j.cfg, source: j.w.src.text, fingerprint: fp, rows: int64(m.T),
		entities: int64(m.N), scaler: j.scaler, epochs: j.cfg.Epochs, deploy: j.deploy, session: j.c.caller.ID()}
	if j.from != nil {
		spec.resumedFrom = j.fromRef.String()
	}
	tr, err := j.c.reg.begin(ctx, spec)
	if err != nil {
		return nil, err
	}
	return tr.stream(j.c, trainGATName, func(ctx context.Context, emit func(row ...any) error) (*finished, error) {
		last := from.Epoch
		model, err := gat.TrainFrom(ctx, j.cfg, m, from, func(e gat.Epoch) error {
			last = e.Epoch
			if err := j.record(tr, m, &e); err != nil {
				return err
			}
			j.c.caller.Notice(fmt.Sprintf("train_gat %s: epoch %d train_mse %.6g test_mse %.6g", tr.ref(), e.Epoch, e.TrainMSE, e.TestMSE))
			return emit(int64(e.Epoch), e.TrainMSE, e.TestMSE, e.Best, float64(e.Elapsed.Microseconds())/1000)
		})
		if err != nil {
			return nil, err
		}
		return j.result(m, model, last)
	}), nil
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

// record commits an epoch to the registry, marks it best when its test
// MSE is the lowest so far, and saves a checkpoint when one is due.
func (j *gatJob) record(tr *trainingRun, m series.Matrix, e *gat.Epoch) error {
	if math.IsNaN(e.TrainMSE) || math.IsInf(e.TrainMSE, 0) {
		return sqlstate.New(sqlstate.DataException, "%s: training diverged: train_mse is %v at epoch %d", trainGATName, e.TrainMSE, e.Epoch).
			WithHint("Lower lr (it is %g), or use optimizer := 'adam'.", j.cfg.LR)
	}
	best, err := tr.epoch(e.Epoch, e.TrainMSE, e.TestMSE, float64(e.Elapsed.Microseconds())/1000, nil)
	if err != nil {
		return err
	}
	e.Best = best
	if j.checkpointEvery == 0 && best || j.checkpointEvery > 0 && e.Epoch%j.checkpointEvery == 0 {
		data, err := j.artifact(m, e.Snapshot(), e.Epoch)
		if err != nil {
			return err
		}
		return tr.checkpoint(e.Epoch, data)
	}
	return nil
}

// result scores the trained model against the baselines and stores it.
func (j *gatJob) result(m series.Matrix, model *gat.Model, epoch int) (*finished, error) {
	metrics, err := gat.Evaluate(model, m, j.link.invert())
	if err != nil {
		return nil, err
	}
	data, err := j.artifact(m, model, epoch)
	if err != nil {
		return nil, err
	}
	report, err := j.report(m, model)
	if err != nil {
		return nil, err
	}
	return &finished{artifact: data, epoch: epoch, metrics: metrics, testLoss: metrics[0].TestMSE, report: report}, nil
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
