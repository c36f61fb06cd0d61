package training

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime/debug"
	"time"

	"github.com/mallard/mallard/mlops"
	"github.com/mallard/mallard/sqlstate"
)

// Job is what one training statement gives the lifecycle besides its
// model: the function's name (the prefix of its messages) and the
// services it reaches the engine and the caller through.
type Job struct {
	Fn       string
	Registry Registry
	Budget   Budget
	Notices  Notifier
	// Resume is the version a resumed run continues; nil for a new run.
	Resume *Resume
	// Patience, when above 0, stops a run whose selection loss has not
	// reached a new lowest in so many epochs: Run.Epoch then returns
	// ErrStopEarly. Models with an early stop of their own leave it 0.
	Patience int
}

// ErrStopEarly is what Run.Epoch returns when the run is to stop early
// (see Job.Patience): the model stops training and returns its result as
// if it had trained every epoch.
var ErrStopEarly = errors.New("stop early: no better selection loss within the patience")

// Start begins a run: read reads the model's data, reserving its memory
// through mem; the data is fingerprinted while the model prepares (see
// Preparer); a resumed run is checked against the fingerprint; and the
// run is registered. Any error before that leaves nothing registered and
// gives the memory back. Once registered, the model trains on a goroutine
// of the returned Rows, which streams a row per epoch while it trains;
// the memory is given back when Train returns, and the run ends, exactly
// once, finished with Train's result, or failed or canceled with its
// error (see Rows.Close).
func Start(ctx context.Context, j Job, read func(ctx context.Context, mem *Memory) (Model, error)) (rows *Rows, err error) {
	mem := &Memory{budget: j.Budget}
	defer func() {
		if rows == nil {
			mem.Release()
		}
	}()
	m, err := read(ctx, mem)
	if err != nil {
		return nil, err
	}
	fp, err := prepare(ctx, m)
	if err != nil {
		return nil, err
	}
	if err := j.Resume.check(j.Fn, fp); err != nil {
		return nil, err
	}
	spec := m.Spec()
	spec.Fingerprint = fp
	if j.Resume != nil {
		spec.ResumedFrom = j.Resume.From.String()
	}
	rec, err := j.Registry.Begin(ctx, spec)
	if err != nil {
		return nil, err
	}
	return j.stream(rec, spec, m, mem), nil
}

// prepare fingerprints m's data while m prepares, and returns the
// fingerprint once both are done.
func prepare(ctx context.Context, m Model) (string, error) {
	p, ok := m.(Preparer)
	if !ok {
		return m.Fingerprint(), nil
	}
	fp := make(chan string, 1)
	go func() { fp <- m.Fingerprint() }()
	err := p.Prepare(ctx)
	return <-fp, err
}

// Run is a registered run while its model trains: the model hands it
// each epoch.
type Run struct {
	job   Job
	rec   Record
	spec  Spec
	model Model
	ctx   context.Context
	rows  *Rows

	// checkpoints and lastEpoch are written by the training goroutine
	// only, and read by the model on it.
	checkpoints time.Duration
	lastEpoch   time.Time
	bestEpoch   int // the epoch of the lowest selection loss; 0 before the first
}

// Ref is the run's model version.
func (r *Run) Ref() mlops.Ref { return r.rec.Ref() }

// Notice sends text as a NOTICE to the session that started the run.
func (r *Run) Notice(text string) { r.job.Notices.Notice(text) }

// Checkpoints is the time the run has spent encoding and storing
// checkpoints so far.
func (r *Run) Checkpoints() time.Duration { return r.checkpoints }

// LastEpoch is when the last epoch's row was handed on; zero before.
func (r *Run) LastEpoch() time.Time { return r.lastEpoch }

// Epoch takes the model's epoch e through the lifecycle: it fails with
// 22000 if e's training loss is not finite; records e, and a checkpoint
// when one is due; sends e's NOTICE; and hands e's row on, waiting until
// it is taken. It returns ErrStopEarly when the run is to stop early (see
// Job.Patience); any other error (the run's context ended, the registry
// failed) is the model's cue to stop and return it.
func (r *Run) Epoch(e Epoch) error {
	if err := r.diverged(e); err != nil {
		return err
	}
	best, err := r.record(e)
	if err != nil {
		return err
	}
	r.Notice(fmt.Sprintf("%s %s: epoch %d %s", r.job.Fn, r.Ref(), e.Epoch, e.Notice))
	row := append(append([]any{int64(e.Epoch)}, e.Metrics...), best, e.ElapsedMS)
	err = r.rows.emit(r.ctx, row)
	r.lastEpoch = time.Now()
	if err != nil {
		return err
	}
	return r.patience(e.Epoch, best)
}

// patience is ErrStopEarly, with a NOTICE saying so, once Job.Patience
// epochs have passed since the best; nil before.
func (r *Run) patience(epoch int, best bool) error {
	if best || r.bestEpoch == 0 {
		r.bestEpoch = epoch
	}
	p := r.job.Patience
	if p <= 0 || epoch-r.bestEpoch < p {
		return nil
	}
	r.Notice(fmt.Sprintf("%s %s: stopped early at epoch %d: no lower selection loss in the %d epochs since epoch %d",
		r.job.Fn, r.Ref(), epoch, p, r.bestEpoch))
	return ErrStopEarly
}

// diverged is the error of an epoch whose training loss is not finite,
// explained by the model where it can; nil while the loss is finite.
func (r *Run) diverged(e Epoch) error {
	if !math.IsNaN(e.Train) && !math.IsInf(e.Train, 0) {
		return nil
	}
	err := sqlstate.New(sqlstate.DataException, "%s: training diverged: %s is %v at epoch %d", r.job.Fn, e.Measure, e.Train, e.Epoch)
	if d, ok := r.model.(Diverger); ok {
		return d.Diverged(err)
	}
	return err
}

// record commits e to the registry and stores its snapshot as the
// version's checkpoint when one is due; it reports whether e is the best
// epoch so far.
func (r *Run) record(e Epoch) (bool, error) {
	best, err := r.rec.Epoch(e.Losses)
	if err != nil || e.Snapshot == nil || !mlops.CheckpointDue(r.spec.CheckpointEvery, e.Epoch, r.spec.Epochs, best) {
		return best, err
	}
	began := time.Now()
	defer func() { r.checkpoints += time.Since(began) }()
	data, err := e.Snapshot()
	if err != nil || data == nil {
		return best, err
	}
	return best, r.rec.Checkpoint(e.Epoch, data)
}

// Memory is what a run holds of the server's memory budget, from Start
// until its model's Train returns.
type Memory struct {
	budget Budget
	held   []func()
	closes []io.Closer
}

// NewMemory is a holding of budget for work outside a run (reading a
// model's data again to explain it); its holder calls Release when done.
func NewMemory(budget Budget) *Memory { return &Memory{budget: budget} }

// Reserve takes n bytes for what (see Budget.Reserve) until the run ends.
func (m *Memory) Reserve(ctx context.Context, n int64, what string) error {
	release, err := m.budget.Reserve(ctx, n, what)
	if err == nil {
		m.held = append(m.held, release)
	}
	return err
}

// Hold closes c when the memory is given back: what a run keeps outside
// the budget in proportion to its data (the file its rows are spilled
// to) ends with the run, whether it finishes, fails or is canceled, or
// is refused before it trains.
func (m *Memory) Hold(c io.Closer) { m.closes = append(m.closes, c) }

// Release gives back everything reserved and closes what Hold was given.
func (m *Memory) Release() {
	for _, r := range m.held {
		r()
	}
	m.held = nil
	for _, c := range m.closes {
		c.Close()
	}
	m.closes = nil
}

// train runs the model on the run's goroutine and ends the run with its
// result or error: the memory is given back when Train returns, before
// the result is stored.
func (r *Run) train(mem *Memory) {
	res, err := func() (*Result, error) {
		defer mem.Release()
		return r.model.Train(r.ctx, r)
	}()
	var note string
	if err == nil {
		note = r.rec.Finish(res)
	} else {
		note = r.rec.Fail(err)
	}
	if note != "" {
		r.Notice(r.job.Fn + ": " + note)
	}
	if s, ok := r.model.(Storer); ok && err == nil {
		s.Stored(r.Ref())
	}
	if f, ok := r.model.(Failer); ok && err != nil {
		if note := f.Failed(context.WithoutCancel(r.ctx)); note != "" {
			r.Notice(r.job.Fn + ": " + note)
		}
	}
	// The stored artifact and the training state are garbage now: at
	// MovieLens-25M scale hundreds of megabytes the heap would keep.
	res = nil
	debug.FreeOSMemory()
	r.rows.end(err)
}
