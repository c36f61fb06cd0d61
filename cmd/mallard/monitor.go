package main

import (
	"context"
	"errors"
	"net/http"
	"time"
)

// monitor is what the dashboard's port serves for monitoring besides the
// dashboard: /metrics for Prometheus, behind the dashboard's password;
// /healthz (the process answers) and /readyz (the wire server accepts clients and
// can set up a new session) without one, for probes.
type monitor struct {
	metrics      http.Handler
	ready        func(ctx context.Context) error
	authenticate func(ctx context.Context, client, user, password string) bool // nil: no password
}

// readyTimeout bounds a /readyz check.
const readyTimeout = 2 * time.Second

// routes serves the monitoring paths and hands every other to dashboard.
func (m monitor) routes(dashboard http.Handler) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/", dashboard)
	mux.Handle("GET /metrics", m.withPassword(m.metrics))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("ok\n")) })
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), readyTimeout)
		defer cancel()
		if err := m.ready(ctx); err != nil {
			http.Error(w, "not ready: "+err.Error(), http.StatusServiceUnavailable)
			return
		}
		w.Write([]byte("ready\n"))
	})
	return mux
}

func (m monitor) withPassword(h http.Handler) http.Handler {
	if m.authenticate == nil {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		user, password, ok := r.BasicAuth()
		if !ok || !m.authenticate(r.Context(), r.RemoteAddr, user, password) {
			w.Header().Set("WWW-Authenticate", `Basic realm="Mallard", charset="UTF-8"`)
			http.Error(w, "authentication required", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// errNotAccepting is /readyz's answer while the server starts or stops.
var errNotAccepting = errors.New("the server does not accept clients")
