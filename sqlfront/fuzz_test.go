package sqlfront_test

import (
	"io"
	"net"
	"testing"
	"time"

	"github.com/mallard/mallard/sqlfront"
)

// FuzzStartup sends the fuzzed bytes as the first bytes of a connection,
// then half-closes it. The server must close the connection after the
// client's EOF, within rawDeadline, and go on serving fresh connections.
// The corpus is in testdata/fuzz/FuzzStartup.
func FuzzStartup(f *testing.F) {
	addr := startServer(f, sqlfront.Config{MaxMessageSize: 1 << 20})
	f.Fuzz(func(t *testing.T, data []byte) {
		conn, err := net.DialTimeout("tcp", addr, rawDeadline)
		if err != nil {
			t.Fatalf("server no longer accepts connections: %v", err)
		}
		defer conn.Close()
		conn.SetDeadline(time.Now().Add(rawDeadline))
		conn.Write(data) // the server may close before reading it all
		conn.(*net.TCPConn).CloseWrite()
		if _, err := io.Copy(io.Discard, conn); isTimeout(err) {
			t.Fatalf("server kept the connection open %v after the client's EOF", rawDeadline)
		}
		assertServes(t, addr)
	})
}
