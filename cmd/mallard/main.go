// Command mallard serves a DuckDB database over the Postgres wire protocol.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// The first signal starts a clean stop; a second one ends the process
	// at once, as Go does by default (the next start recovers the database
	// and marks unfinished training runs interrupted).
	go func() { <-ctx.Done(); stop() }()
	// A log reader that goes away (`make run 2>&1 | tee log`, then Ctrl-C)
	// must not kill the server mid-stop: with SIGPIPE notified, Go no
	// longer dies of a write to a broken stdout or stderr, and the write
	// fails quietly instead. Unlike ignoring it, this leaves SIGPIPE's
	// default to the processes the server starts (mpirun).
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	if err := Run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "mallard:", err)
		}
		os.Exit(2)
	}
}
