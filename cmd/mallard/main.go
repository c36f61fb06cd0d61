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
	if err := Run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "mallard:", err)
		}
		os.Exit(2)
	}
}
