//go:build duckdb_arrow

package web

import (
	"fmt"
	"net/http"
	"time"

	"github.com/mallard/mallard/sqlstate"
)

// keepAlive is how often an idle event stream sends a comment, so that
// proxies and browsers keep it open.
const keepAlive = 15 * time.Second

// events is a server-sent event stream: an event "change" with a sequence
// number at once and whenever the registry's state changes. It ends when
// the client goes away or the server closes.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	flusher, ok := w.(http.Flusher)
	if !ok {
		writeJSON(w, http.StatusInternalServerError, errorBody{Error: "streaming is not supported", Code: sqlstate.FeatureNotSupported})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	poll, idle := time.NewTicker(s.cfg.Poll), time.Now()
	defer poll.Stop()
	seq, last := 0, ""
	for {
		state, err := s.reg.State(r.Context())
		switch {
		case err != nil:
			if r.Context().Err() == nil {
				s.log.Warn("dashboard event stream", "err", err)
			}
		case state != last:
			last = state
			seq++
			if _, err := fmt.Fprintf(w, "event: change\ndata: {\"seq\":%d}\n\n", seq); err != nil {
				return
			}
			flusher.Flush()
			idle = time.Now()
		case time.Since(idle) > keepAlive:
			if _, err := fmt.Fprint(w, ": idle\n\n"); err != nil {
				return
			}
			flusher.Flush()
			idle = time.Now()
		}
		select {
		case <-poll.C:
		case <-r.Context().Done():
			return
		case <-s.done:
			return
		}
	}
}
