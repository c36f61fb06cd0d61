package gatrun

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/mallard/mallard/mlops"
	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/series"
	"github.com/mallard/mallard/mlops/training"
	"github.com/mallard/mallard/sqlstate"
)

// run is one execution of train_gat as the training lifecycle's model
// (see training.Model): the job and the matrix it read. It trains in this
// process, or across the job's MPI ranks.
type run struct {
	*Job
	m    series.Matrix
	read time.Time // when the source was read: the prepare phase starts
	// fp is the data's fingerprint once Fingerprint has returned; a long
	// source's scaler is named after it.
	fp string
	// scalerSaved says Train saved a long source's scaler, which Failed
	// removes again unless a version links it.
	scalerSaved bool
}

// Fingerprint identifies the entities and every value read, in time order.
func (r *run) Fingerprint() string {
	r.fp = dataFingerprint(r.Source.EntityNames(), r.m)
	return r.fp
}

// Prepare resolves the options that depend on the data (season, horizon)
// and checks that a resumed run has its checkpoint's entities.
func (r *run) Prepare(context.Context) error {
	r.noticeNeighbors(r.m)
	r.noticeAnchorOrigins(r.m)
	r.noticeLadder(r.m)
	gat.NoticeApproxNeighbors(r.Config, r.m.N, r.Caller.Notice)
	if err := r.resolveSeason(r.m); err != nil {
		return err
	}
	if err := r.resolveHorizon(r.m, r.Across != nil); err != nil {
		return err
	}
	r.lastTimes = LastTwo(r.timeRows)
	if entities := r.Source.EntityNames(); r.From != nil && !slices.Equal(r.From.Entities, entities) {
		return sqlstate.New(sqlstate.InvalidParameterValue, "%s: resume: the source's entity columns differ from those %s was trained on",
			Name, r.FromRef).WithDetail("It was trained on %s; the source has %s.",
			strings.Join(r.From.Entities, ", "), strings.Join(entities, ", "))
	}
	return nil
}

// Spec describes the run for mlops.training_runs and mlops.models. The
// lifecycle calls it after Fingerprint, so a long source's scaler has its
// name by then (Train saves it).
func (r *run) Spec() training.Spec {
	if r.Long {
		r.Scaler = longScalerName(r.Name, r.fp)
	}
	return training.Spec{Kind: "gat", Name: r.Name, Params: r.Config, Source: r.Text, Rows: int64(r.m.T),
		Entities: int64(r.m.N), Scaler: r.Scaler, Epochs: r.Config.Epochs, CheckpointEvery: r.CheckpointEvery, Deploy: r.Deploy,
		Session: r.Caller.ID()}
}

// Failed removes the scaler a failed run on a long source saved when
// training began, unless a version links it (the checkpoint a canceled
// run keeps, or an earlier version on the same data).
func (r *run) Failed(ctx context.Context) string {
	if !r.Long || !r.scalerSaved {
		return ""
	}
	if err := r.Scalers.DropUnlinkedScaler(ctx, r.Scaler); err != nil {
		return fmt.Sprintf("the scaler %s the run saved stays: %v", quote(r.Scaler), err)
	}
	return ""
}

// startPoint is where training begins: from scratch, or from the resumed
// checkpoint after its epochs.
func (j *Job) startPoint() gat.Start {
	if j.From == nil {
		return gat.Start{}
	}
	return gat.Start{Model: j.From.Model, Epoch: j.From.Epoch}
}

// Train trains the network in this process or across the ranks, then
// computes the result the run stores.
func (r *run) Train(ctx context.Context, run *training.Run) (*training.Result, error) {
	if r.Long {
		if err := r.saveLongScaler(ctx, r.fp); err != nil {
			return nil, err
		}
		r.scalerSaved = true
	}
	r.phases.prepare = time.Since(r.read)
	from := r.startPoint()
	var model *gat.Model
	var last int
	var err error
	if r.Across != nil {
		model, last, err = r.trainAcross(ctx, run, from)
	} else {
		model, last, err = r.trainHere(ctx, run, from)
	}
	if err != nil {
		return nil, err
	}
	if a := model.Anchor; a != nil {
		run.Notice(anchorNotice(run.Ref(), a, r.Config.Highway))
	}
	if r.Config.ValidationFraction > 0 {
		run.Notice(fmt.Sprintf("train_gat %s: keeps the weights of epoch %d, the lowest validation MSE%s of epoch %d (the network training started from) and the epochs that beat it by more than one standard error",
			run.Ref(), model.Kept, horizonText(r.Config.Horizon), from.Epoch))
	}
	if r.CompareGraph && r.From == nil && r.Across == nil {
		if model, err = r.trainTwin(ctx, run.Ref(), r.m, model); err != nil {
			return nil, err
		}
	}
	r.phases.checkpoints = run.Checkpoints()
	r.phases.lastEpoch = run.LastEpoch()
	res, err := r.result(r.m, model, last)
	if err == nil {
		run.Notice(fmt.Sprintf("train_gat %s: outside the epochs: %v; storing follows", run.Ref(), &r.phases))
		r.phases.computed, r.phases.stored = time.Now(), len(res.Artifact)
	}
	return res, err
}

// trainHere trains the network in this process, and returns it and the
// last epoch trained.
func (r *run) trainHere(ctx context.Context, run *training.Run, from gat.Start) (*gat.Model, int, error) {
	last := from.Epoch
	model, err := gat.TrainFrom(ctx, r.Config, r.m, from, func(e gat.Epoch) error {
		last, r.phases.setup = e.Epoch, e.Setup
		return run.Epoch(r.epoch(e, float64(e.Elapsed.Microseconds())/1000, "", func() ([]byte, error) {
			return r.artifact(r.m, e.Snapshot(), e.Epoch, false, nil)
		}))
	})
	return model, last, err
}

// epoch is e as the lifecycle takes it: its losses (the validation MSE,
// where there is one, selects the best epoch), its row's metrics
// train_mse, test_mse, val_mse, and its NOTICE, with suffix after it.
func (r *run) epoch(e gat.Epoch, elapsedMS float64, suffix string, snapshot func() ([]byte, error)) training.Epoch {
	selection, extra, val := e.TestMSE, any(nil), any(nil)
	note := fmt.Sprintf("train_mse %.6g test_mse %.6g", e.TrainMSE, e.TestMSE)
	if !math.IsNaN(e.ValMSE) {
		selection, extra, val = e.ValMSE, map[string]float64{"val_mse": e.ValMSE}, e.ValMSE
		note += fmt.Sprintf(" %s %.6g", valLabel(r.Config.Horizon), e.ValMSE)
	}
	return training.Epoch{
		Losses:  training.Losses{Epoch: e.Epoch, Train: e.TrainMSE, Test: e.TestMSE, Selection: selection, ElapsedMS: elapsedMS, Extra: extra},
		Measure: "train_mse", Metrics: []any{e.TrainMSE, e.TestMSE, val}, Notice: note + suffix, Snapshot: snapshot,
	}
}

// Diverged says where the input looks unscaled, and what to lower.
func (r *run) Diverged(err *sqlstate.Error) *sqlstate.Error {
	if big := largest(r.m); big > unscaledAbove {
		return err.WithDetail("The input looks unscaled: its values reach %.6g in magnitude.", big).
			WithHint("Rescale it first, SELECT * FROM rescale(source, save_as := 'name'), and train on that with scaler := 'name'; or lower lr (it is %g).", r.Config.LR)
	}
	return err.WithHint("Lower lr (it is %g), or use optimizer := 'adam'.", r.Config.LR)
}

// Stored sends the closing NOTICE of phases.storing.
func (r *run) Stored(ref mlops.Ref) {
	if !r.phases.computed.IsZero() {
		r.Caller.Notice(fmt.Sprintf("train_gat %s: %s", ref, r.phases.storing(time.Now())))
	}
}
