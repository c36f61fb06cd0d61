package main

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/mallard/mallard/server"
	"github.com/mallard/mallard/sqlfront"
	"github.com/mallard/mallard/web"
)

// dashboard is the dashboard's HTTP server, which owns the goroutine
// serving it.
type dashboard struct {
	srv  *http.Server
	done chan error
}

// listenDashboard opens the dashboard's address as cfg says. It returns a
// nil listener when the dashboard is off, or on at the default address and
// that is taken.
func listenDashboard(cfg Config, log *slog.Logger) (net.Listener, error) {
	if cfg.HTTP == "" {
		return nil, nil
	}
	ln, err := net.Listen("tcp", cfg.HTTP)
	if err != nil {
		if cfg.HTTP == defaultHTTP {
			log.Warn("dashboard not started: its default address is taken; set -http", "addr", cfg.HTTP, "err", err)
			return nil, nil
		}
		return nil, fmt.Errorf("dashboard: listen: %w", err)
	}
	return ln, nil
}

// startDashboard serves the dashboard of mallard, and mon, on ln (from
// listenDashboard; nil for none): over TLS when the wire side has it,
// with its password when it has one.
func startDashboard(ln net.Listener, fc sqlfront.Config, mallard *server.Server, mon monitor, log *slog.Logger) *dashboard {
	if ln == nil {
		return nil
	}
	// The dashboard's connections resolve names in the schema a session
	// creates tables in, as the session that trained a model did.
	wcfg := web.Config{Plan: mallard.Plan, Registry: mallard.Registry, Setup: []string{"SET schema = '" + sqlfront.DefaultSchema + "'"}}
	if owner, reader := fc.Credentials, fc.Reader; owner != nil {
		// The dashboard only reads: the read-only role may see it too.
		wcfg.Authenticate = func(ctx context.Context, client, user, password string) bool {
			creds := owner
			if reader != nil && user == reader.User {
				creds = reader
			}
			if !creds.Verify(user, password) {
				mallard.Front.HTTPLoginFailed(ctx, client, user)
				return false
			}
			mallard.Front.HTTPLoginSucceeded(client)
			return true
		}
	}
	handler := web.New(mallard.DB, wcfg, log)
	mon.authenticate = wcfg.Authenticate
	srv := &http.Server{Handler: mon.routes(handler), ReadHeaderTimeout: 10 * time.Second,
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	srv.RegisterOnShutdown(handler.Close)
	scheme := "http"
	if fc.TLS != nil {
		ln, scheme = tls.NewListener(ln, fc.TLS), "https"
	}
	d := &dashboard{srv: srv, done: make(chan error, 1)}
	go func() {
		err := srv.Serve(ln)
		if errors.Is(err, http.ErrServerClosed) {
			err = nil
		}
		d.done <- err
	}()
	log.Info("dashboard listening", "url", scheme+"://"+ln.Addr().String()+"/")
	return d
}

// shutdown stops the dashboard, waiting for requests in flight until ctx ends.
func (d *dashboard) shutdown(ctx context.Context) error {
	if d == nil {
		return nil
	}
	return errors.Join(d.srv.Shutdown(ctx), <-d.done)
}
