package sqlfront

import (
	"slices"
	"strings"
	"sync"

	"github.com/mallard/mallard/sqlstate"
)

// notices queues the NOTICE messages Mallard's functions send while a
// statement runs. A function runs on a DuckDB thread, and only the session
// goroutine writes to the client, so a function only queues and wakes the
// session: the session sends the queue while it waits on a progressive
// statement (see await), before the next rows and before the statement's end.
type notices struct {
	mu      sync.Mutex
	pending []queuedNotice
	// queued holds a token once a notice is queued, until the session takes
	// it; await wakes on it.
	queued chan struct{}
}

func newNotices() *notices { return &notices{queued: make(chan struct{}, 1)} }

// queuedNotice is a queued message and its severity, NOTICE or WARNING.
type queuedNotice struct{ severity, message string }

func (n *notices) add(message string) { n.queue(queuedNotice{"NOTICE", message}) }

// warn queues a WARNING, as pg_cancel_backend sends for an unknown pid.
func (n *notices) warn(message string) { n.queue(queuedNotice{"WARNING", message}) }

func (n *notices) queue(q queuedNotice) {
	n.mu.Lock()
	n.pending = append(n.pending, q)
	n.mu.Unlock()
	select {
	case n.queued <- struct{}{}:
	default: // a token is there already
	}
}

func (n *notices) take() []queuedNotice {
	n.mu.Lock()
	defer n.mu.Unlock()
	out := n.pending
	n.pending = nil
	return out
}

// sendNotices sends the queued notices, or drops those whose severity
// client_min_messages is above; it reports whether it sent any.
func (s *session) sendNotices() bool {
	sent := false
	for _, m := range s.notices.take() {
		if s.wantsMessage(m.severity) {
			code := sqlstate.SuccessfulCompletion
			if m.severity == "WARNING" {
				code = sqlstate.Warning
			}
			s.w.send(noticeResponse(m.severity, code, m.message))
			sent = true
		}
	}
	return sent
}

// sendNotice sends a NoticeResponse of severity (NOTICE or WARNING) unless
// the session's client_min_messages is above it. Every notice goes
// through here or sendNotices.
func (s *session) sendNotice(severity string, code sqlstate.Code, msg string) {
	if s.wantsMessage(severity) {
		s.w.send(noticeResponse(severity, code, msg))
	}
}

// wantsMessage reports whether client_min_messages lets a message of
// severity reach the client.
func (s *session) wantsMessage(severity string) bool {
	return messageLevel(severity) >= messageLevel(s.params.get("client_min_messages"))
}

// messageLevels are the values of client_min_messages, least severe first,
// as Postgres orders them for the client.
var messageLevels = []string{"debug5", "debug4", "debug3", "debug2", "debug1", "log", "notice", "warning", "error"}

// messageLevel is the rank of a severity or client_min_messages value in
// messageLevels; an unknown one ranks as notice, the default.
func messageLevel(severity string) int {
	if i := slices.Index(messageLevels, strings.ToLower(severity)); i >= 0 {
		return i
	}
	return slices.Index(messageLevels, "notice")
}

// await runs call, a call into DuckDB, and returns when it does. For a
// progressive statement, whose functions take long between rows (a
// training epoch), call runs on a goroutine of its own while the session
// goroutine sends each notice as soon as it is queued, flushed: a notice
// reaches the client when its function sends it, not when DuckDB next
// hands over rows. call must not write to the client. A panic in call is
// raised again on the session goroutine.
func (s *session) await(progressive bool, call func()) {
	if !progressive {
		call()
		return
	}
	done := make(chan any, 1)
	go func() {
		defer func() { done <- recover() }()
		call()
	}()
	for {
		select {
		case r := <-done:
			if r != nil {
				panic(r)
			}
			return
		case <-s.notices.queued:
			if s.sendNotices() {
				s.w.flush()
			}
		}
	}
}
