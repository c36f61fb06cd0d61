package parallel

import (
	"context"
	"errors"
	"sync"
)

// Run runs work for ranks 0..workers-1, each on a goroutine of its own,
// and waits for all of them. The first error cancels the context the
// others run under, so that workers blocked in a Collective return; Run
// returns that first error (ctx's cause when ctx ended first), not the
// cancellations it caused.
func Run(ctx context.Context, workers int, work func(ctx context.Context, rank int) error) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var wg sync.WaitGroup
	errs := make([]error, workers)
	for rank := range workers {
		wg.Go(func() {
			if errs[rank] = work(ctx, rank); errs[rank] != nil {
				cancel(errs[rank])
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		if cause := context.Cause(ctx); cause != nil {
			return cause
		}
		return err
	}
	return nil
}
