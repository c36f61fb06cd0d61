package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/mallard/mallard/mlops/job"
	"github.com/mallard/mallard/mlops/parallel"
)

const trainWorkerUsage = `Usage: mallard train-worker --job DIR

Runs the training job in DIR (its spec is DIR/job.json) as one rank of an
MPI job: start it with mpirun -np N, or as an MPIJob on Kubernetes. Rank 0
writes progress.jsonl, checkpoint.artifact and model.artifact to DIR. Built
without MPI (make build rather than make build-mpi), it runs as one rank.
`

// trainWorker runs `mallard train-worker`. A rank that fails returns its
// error, and main exits non-zero without leaving MPI: mpirun then ends the
// other ranks and fails the job.
func trainWorker(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("train-worker", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, trainWorkerUsage) }
	dir := fs.String("job", "", "the job directory")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dir == "" || fs.NArg() > 0 {
		fs.Usage()
		return errors.New("train-worker: --job DIR is required, and nothing else")
	}
	world, err := parallel.Init()
	if err != nil {
		return err
	}
	res, err := job.Run(ctx, *dir, Version, world)
	if err != nil {
		return fmt.Errorf("train-worker rank %d of %d: %w", world.Rank(), world.Size(), err)
	}
	fmt.Fprintf(stdout, "rank %d/%d: %d workers, %d epochs, weights sha256 %s, all-reduce across ranks %.3fs, read %d of %d rows, %d of the job's ranks on this machine, GOMAXPROCS %d of %d\n",
		res.Rank, res.Ranks, res.Workers, res.Epochs, res.Weights, res.Reducing.Seconds(), res.Read, res.Rows, world.Here(), res.Procs, res.HadProcs)
	return world.Close()
}
