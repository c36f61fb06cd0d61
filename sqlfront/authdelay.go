package sqlfront

import (
	"context"
	"net"
	"sync"
	"time"
)

// Defaults of the delay of failed logins (see Config.AuthDelay).
const (
	DefaultAuthDelay    = 100 * time.Millisecond
	DefaultMaxAuthDelay = 2 * time.Second
)

// failedLoginMemory is how long an address's failed logins count after
// its last one; maxFailedAddresses bounds how many addresses are
// remembered, the oldest forgotten first.
const (
	failedLoginMemory  = 10 * time.Minute
	maxFailedAddresses = 10000
)

// loginThrottle delays the answer to a failed login, as Postgres'
// auth_delay does, by AuthDelay times the failures of the client's
// address in a row, at most MaxAuthDelay: a password guesser from one
// address slows down with every guess. It is bounded so that it cannot
// tie up the server: a delayed wire connection keeps its place among
// Config.MaxStartups, so that no more connections wait than could be
// starting anyway; a delayed HTTP answer is one of at most maxDelayedHTTP
// (past that it is answered at once); and at most maxFailedAddresses
// addresses are remembered.
type loginThrottle struct {
	base, max time.Duration
	mu        sync.Mutex
	failures  map[string]*failedLogins // by client host
	http      chan struct{}            // a slot per HTTP answer being delayed
}

type failedLogins struct {
	count int
	delay time.Duration // the last delay given
	last  time.Time
}

// maxDelayedHTTP bounds the HTTP answers being delayed at once.
const maxDelayedHTTP = 64

func newLoginThrottle(base, max time.Duration) *loginThrottle {
	if base <= 0 {
		base = DefaultAuthDelay
	}
	if max <= 0 {
		max = DefaultMaxAuthDelay
	}
	return &loginThrottle{base: base, max: max, failures: map[string]*failedLogins{}, http: make(chan struct{}, maxDelayedHTTP)}
}

// failed records a failed login from client (host:port or host) and
// returns the failures in a row it makes and how long its answer is to be
// delayed.
func (t *loginThrottle) failed(client string) (int, time.Duration) {
	host := clientHost(client)
	t.mu.Lock()
	defer t.mu.Unlock()
	now := time.Now()
	f := t.failures[host]
	if f == nil || now.Sub(f.last) > failedLoginMemory {
		t.makeRoom()
		f = &failedLogins{}
		t.failures[host] = f
	}
	f.count++
	f.last = now
	f.delay = min(t.base*time.Duration(f.count), t.max)
	return f.count, f.delay
}

// makeRoom forgets the stalest address when the map is full. t.mu is held.
func (t *loginThrottle) makeRoom() {
	if len(t.failures) < maxFailedAddresses {
		return
	}
	var oldest string
	for host, f := range t.failures {
		if oldest == "" || f.last.Before(t.failures[oldest].last) {
			oldest = host
		}
	}
	delete(t.failures, oldest)
}

// succeeded forgets client's failed logins.
func (t *loginThrottle) succeeded(client string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.failures, clientHost(client))
}

// record is client's failed logins in a row and the last delay given.
func (t *loginThrottle) record(client string) (int, time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if f := t.failures[clientHost(client)]; f != nil {
		return f.count, f.delay
	}
	return 0, 0
}

// wait sleeps for d or until ctx ends.
func wait(ctx context.Context, d time.Duration) {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
	case <-timer.C:
	}
}

func clientHost(client string) string {
	if host, _, err := net.SplitHostPort(client); err == nil {
		return host
	}
	return client
}

// FailedLogins is the failed logins in a row of the client address
// (host, or host:port) and the delay the last of them was given.
func (s *Server) FailedLogins(client string) (attempts int, delay time.Duration) {
	return s.throttle.record(client)
}

// HTTPLoginFailed records a failed HTTP (dashboard) login from client
// (the request's RemoteAddr) as user, logs it as a failed wire login is
// logged, and delays the caller as a wire login would be, unless
// maxDelayedHTTP answers are delayed already or ctx ends.
func (s *Server) HTTPLoginFailed(ctx context.Context, client, user string) {
	_, d := s.throttle.failed(client)
	s.log.Warn("authentication failed", "client", client, "user", user, "via", "http", "delay", d.String())
	select {
	case s.throttle.http <- struct{}{}:
		defer func() { <-s.throttle.http }()
		wait(ctx, d)
	default:
	}
}

// HTTPLoginSucceeded forgets client's failed logins.
func (s *Server) HTTPLoginSucceeded(client string) { s.throttle.succeeded(client) }
