package main

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"time"

	"github.com/mallard/mallard/mlops/job"
	"github.com/mallard/mallard/mlops/registry"
	"github.com/mallard/mallard/sqlfront"
	"github.com/mallard/mallard/storage"
)

// cancelWait is how long the sessions still running when the grace ends
// get to end once canceled, and the dashboard to answer its requests in
// flight; nothing they wait for legitimately takes this long.
const cancelWait = 10 * time.Second

// stopping is what a clean stop (SIGTERM or SIGINT) takes down, in order.
type stopping struct {
	log   *slog.Logger
	grace time.Duration
	srv   *sqlfront.Server
	dash  *dashboard
	db    *storage.DB
	reg   *registry.Registry
}

// stop takes the server down as Postgres' fast shutdown does, after a
// grace for the statements running: it accepts no more clients and ends
// idle sessions at once (57P01); statements running may complete for
// grace, and each session ends once its statement has; when grace is
// over the statements still running are canceled and their sessions end
// (57P01). Training runs stopped that way are recorded interrupted, their
// last checkpoint kept for resume := of the function that trained them
// (see resumeCalls). Last, the database is checkpointed and closed. Each
// step is logged.
func (s stopping) stop() error {
	s.log.Info("shutting down: accepting no more clients, ending idle sessions", "sessions", s.srv.Sessions(), "grace", s.grace.String())
	gctx, cancel := context.WithTimeout(context.Background(), s.grace)
	drained := s.srv.Drain(gctx) == nil
	cancel()
	var runs []int64
	if drained {
		s.log.Info("shutting down: every session has ended")
	} else {
		var err error
		if runs, err = s.reg.Unfinished(context.Background()); err != nil {
			s.log.Warn("shutting down: list unfinished training runs", "err", err)
		}
		s.log.Info("shutting down: grace over, canceling running statements", "sessions", s.srv.Sessions(), "training_runs", runs)
	}
	ctx, cancel := context.WithTimeout(context.Background(), cancelWait)
	defer cancel()
	err := errors.Join(s.dash.shutdown(ctx), s.srv.Shutdown(ctx))
	if len(runs) > 0 {
		if ierr := s.reg.Interrupted(ctx, runs); ierr != nil {
			err = errors.Join(err, ierr)
		} else {
			s.log.Info("shutting down: training runs interrupted; resume them with "+s.resumeCalls(ctx, runs), "run_ids", runs)
		}
	}
	s.log.Info("shutting down: checkpointing and closing the database")
	return errors.Join(err, s.db.Close(ctx))
}

// resumeCalls names the calls that resume the training runs ids, by the
// kinds of model they train: train_gat(..., resume := 'model') for a GAT,
// train_recommender(..., resume := 'model') for a recommender,
// train_classifier or train_regressor for a classifier or regressor, each once,
// joined by "or"; both where a run cannot be read.
func (s stopping) resumeCalls(ctx context.Context, ids []int64) string {
	fns := map[string]bool{}
	for _, id := range ids {
		run, err := s.reg.Run(ctx, id)
		switch {
		case err != nil:
			fns["train_gat"], fns["train_recommender"] = true, true
		case run.Kind == job.KindRecommender:
			fns["train_recommender"] = true
		case run.Kind == "classifier" || run.Kind == "regressor": // functions' kinds of supervised models
			fns["train_"+run.Kind] = true
		default:
			fns["train_gat"] = true
		}
	}
	var calls []string
	for _, fn := range []string{"train_gat", "train_recommender", "train_classifier", "train_regressor"} {
		if fns[fn] {
			calls = append(calls, fn+"(..., resume := 'model')")
		}
	}
	return strings.Join(calls, " or ")
}
