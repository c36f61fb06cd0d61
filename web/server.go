//go:build duckdb_arrow

// Package web serves Mallard's dashboard: a page that shows the models
// and training runs of the registry, live, and the JSON API it reads. The
// HTTP side only reads: it reads the registry through mlops/registry and
// runs Mallard's read-only functions (recommend, detect_anomalies,
// evaluate, confusion_matrix, misclassified, feature_importance), never
// a write.
package web

import (
	"context"
	"embed"
	"io/fs"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/mallard/mallard/mlops/registry"
	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/storage"
)

//go:embed static
var static embed.FS

// Config configures the dashboard.
type Config struct {
	// Plan rewrites a query as the wire side plans a client's statement;
	// calls of Mallard's table functions need it.
	Plan func(query string) string
	// Authenticate checks the user and password of HTTP basic
	// authentication; nil lets every request in.
	// It is given the request's context and client address (RemoteAddr),
	// and may delay its answer to a failed login.
	Authenticate func(ctx context.Context, client, user, password string) bool
	// Poll is how often an event stream looks for changes in the registry;
	// zero means DefaultPoll.
	Poll time.Duration
	// Registry is the registry the dashboard shows; nil reads db's through
	// a registry of its own.
	Registry *registry.Registry
	// Setup are statements each of the dashboard's connections runs before
	// its query (SET schema = 'public'), so that the functions it calls
	// find a model's source and item table as the client's session that
	// trained it did.
	Setup []string
}

// DefaultPoll is how often event streams look for registry changes by default.
const DefaultPoll = 500 * time.Millisecond

// Server is the dashboard's http.Handler. Close ends its event streams,
// which would otherwise hold an http.Server's Shutdown until its deadline.
type Server struct {
	db      *storage.DB
	reg     *registry.Registry
	cfg     Config
	log     *slog.Logger
	handler http.Handler

	closeOnce sync.Once
	done      chan struct{}
}

// New returns the dashboard of db.
func New(db *storage.DB, cfg Config, log *slog.Logger) *Server {
	if cfg.Poll <= 0 {
		cfg.Poll = DefaultPoll
	}
	if cfg.Plan == nil {
		cfg.Plan = func(q string) string { return q }
	}
	if cfg.Registry == nil {
		cfg.Registry = registry.New(db, registry.Options{})
	}
	s := &Server{db: db, reg: cfg.Registry, cfg: cfg, log: log, done: make(chan struct{})}
	assets, err := fs.Sub(static, "static")
	if err != nil {
		panic(err) // the embedded directory is part of the binary
	}
	mux := http.NewServeMux()
	mux.Handle("GET /{$}", page(assets))
	mux.Handle("GET /static/", noCache(http.StripPrefix("/static/", http.FileServerFS(assets))))
	mux.HandleFunc("GET /api/models", s.api(s.models))
	mux.HandleFunc("GET /api/models/{name}", s.api(s.model))
	mux.HandleFunc("GET /api/models/{name}/report", s.api(s.report))
	mux.HandleFunc("GET /api/models/{name}/recommend", s.api(s.recommend))
	mux.HandleFunc("GET /api/models/{name}/anomalies", s.api(s.anomalies))
	mux.HandleFunc("GET /api/models/{name}/supervised", s.api(s.supervised))
	mux.HandleFunc("GET /api/models/{name}/misclassified", s.api(s.misclassified))
	mux.HandleFunc("GET /api/models/{name}/importance", s.api(s.importance))
	mux.HandleFunc("GET /api/runs", s.api(s.runs))
	mux.HandleFunc("GET /api/runs/{id}", s.api(s.run))
	mux.HandleFunc("GET /api/events", s.events)
	mux.HandleFunc("/api/", s.api(notFound))
	s.handler = s.authenticate(readOnly(mux))
	return s
}

// ServeHTTP serves the dashboard.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// Close ends the open event streams; requests after it are still served.
func (s *Server) Close() { s.closeOnce.Do(func() { close(s.done) }) }

// page serves index.html at the root.
func page(assets fs.FS) http.Handler {
	return noCache(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.ServeFileFS(w, r, assets, "index.html")
	}))
}

// noCache makes browsers ask again for the page after Mallard is upgraded.
func noCache(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		h.ServeHTTP(w, r)
	})
}

// readOnly refuses every method but GET and HEAD: the dashboard never writes.
func readOnly(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			writeJSON(w, http.StatusMethodNotAllowed, errorBody{Error: "the dashboard is read-only: " + r.Method + " is not allowed", Code: sqlstate.ReadOnlySQLTransaction})
			return
		}
		h.ServeHTTP(w, r)
	})
}

// authenticate requires HTTP basic authentication when the server has an
// Authenticate function: the same user and password as the wire side.
func (s *Server) authenticate(h http.Handler) http.Handler {
	if s.cfg.Authenticate == nil {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		user, password, ok := r.BasicAuth()
		if !ok || !s.cfg.Authenticate(r.Context(), r.RemoteAddr, user, password) {
			w.Header().Set("WWW-Authenticate", `Basic realm="Mallard", charset="UTF-8"`)
			writeJSON(w, http.StatusUnauthorized, errorBody{Error: "password authentication failed", Code: sqlstate.InvalidPassword})
			return
		}
		h.ServeHTTP(w, r)
	})
}
