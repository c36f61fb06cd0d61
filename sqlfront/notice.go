package sqlfront

import (
	"sync"

	"github.com/mallard/mallard/sqlstate"
)

// notices queues the NOTICE messages Mallard's functions send while a
// statement runs. A function runs on a DuckDB thread while the session
// goroutine waits for rows, so it only queues; the session sends the queue
// before the next rows and before the statement's end.
type notices struct {
	mu      sync.Mutex
	pending []string
}

func (n *notices) add(message string) {
	n.mu.Lock()
	n.pending = append(n.pending, message)
	n.mu.Unlock()
}

func (n *notices) take() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	out := n.pending
	n.pending = nil
	return out
}

// sendNotices sends the queued notices; it reports whether there were any.
func (s *session) sendNotices() bool {
	msgs := s.notices.take()
	for _, m := range msgs {
		s.w.send(noticeResponse("NOTICE", sqlstate.SuccessfulCompletion, m))
	}
	return len(msgs) > 0
}
