//go:build duckdb_arrow

package sqlfront

import (
	"bytes"
	"io"
	"testing"
)

// messageReader hands out one message per Read, as a socket does when the
// client sends a small message and waits for the answer.
type messageReader struct{ in chan []byte }

func (m messageReader) Read(p []byte) (int, error) {
	msg, ok := <-m.in
	if !ok {
		return 0, io.EOF
	}
	return copy(p, msg), nil
}

// TestReadAheadReusesBuffers requires the read-ahead to fill the buffers
// of the chunks the session has read again, rather than allocate a new one
// per read: a session that runs a small query per round trip would
// otherwise leave 32 KiB per query to the garbage collector.
func TestReadAheadReusesBuffers(t *testing.T) {
	src := messageReader{in: make(chan []byte)}
	ra := startReadAhead(src, func() {})
	msg := bytes.Repeat([]byte("Bind, Execute and Sync "), 3)
	got := make([]byte, len(msg))
	roundTrip := func() {
		src.in <- msg
		if _, err := io.ReadFull(ra, got); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, msg) {
			t.Fatalf("read %q, want %q", got, msg)
		}
	}
	for range readAheadChunks + 2 { // the buffers in circulation
		roundTrip()
	}
	if allocs := testing.AllocsPerRun(200, roundTrip); allocs >= 1 {
		t.Errorf("%.1f allocations per message, want none", allocs)
	}
	close(src.in)
	if _, err := ra.Read(got); err != io.EOF {
		t.Errorf("after the source ended: %v, want EOF", err)
	}
	ra.wait()
}
