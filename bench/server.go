package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// stopGrace is how long the server gets to checkpoint and exit after
// SIGTERM before it is killed.
const stopGrace = 2 * time.Minute

// mallardServer is a Mallard server process serving one database file on
// one loopback port. It is started and stopped repeatedly; the port stays
// the same across restarts. While the process runs, one goroutine owned by
// the server waits for it and reports its exit on exited; stop collects it.
type mallardServer struct {
	bin, db, logPath string
	dataDirs         []string // directories the server's SQL may read (--data-dir)
	port             int
	cmd              *exec.Cmd
	exited           chan error
}

func (s *mallardServer) dsn() string { return mallardDSN(s.port) }

// mallardDSN is the connection string of a Mallard server on port.
func mallardDSN(port int) string {
	return fmt.Sprintf("host=127.0.0.1 port=%d user=mallard dbname=mallard sslmode=disable", port)
}

// start runs the server and returns once it answers a query.
func (s *mallardServer) start(ctx context.Context) error {
	if s.cmd != nil {
		return errors.New("mallard is already running")
	}
	log, err := os.OpenFile(s.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("mallard log: %w", err)
	}
	defer log.Close() // the child has its own descriptor
	args := []string{"serve", "--listen", fmt.Sprintf("127.0.0.1:%d", s.port), "--db", s.db, "--log-level", "warn", "--http", ""}
	for _, dir := range s.dataDirs {
		args = append(args, "--data-dir", dir)
	}
	cmd := exec.Command(s.bin, args...)
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start mallard: %w", err)
	}
	s.cmd, s.exited = cmd, make(chan error, 1)
	go func() { s.exited <- cmd.Wait() }()
	deadline := time.Now().Add(time.Minute)
	for {
		err := ping(ctx, s.dsn())
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return errors.Join(fmt.Errorf("mallard not ready after a minute: %w", err), s.stop())
		}
		select {
		case err := <-s.exited:
			s.cmd = nil
			return fmt.Errorf("mallard exited during start-up: %v (see %s)", err, s.logPath)
		case <-ctx.Done():
			return errors.Join(ctx.Err(), s.stop())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// stop sends SIGTERM and waits for the server to exit, killing it after
// stopGrace. Stopping a stopped server does nothing.
func (s *mallardServer) stop() error {
	if s.cmd == nil {
		return nil
	}
	cmd := s.cmd
	s.cmd = nil
	// Signal fails only when the process has already exited; exited says how.
	_ = cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-s.exited:
		if err != nil {
			return fmt.Errorf("mallard exited: %w (see %s)", err, s.logPath)
		}
		return nil
	case <-time.After(stopGrace):
		_ = cmd.Process.Kill()
		<-s.exited
		return fmt.Errorf("mallard did not exit within %v of SIGTERM; killed", stopGrace)
	}
}
