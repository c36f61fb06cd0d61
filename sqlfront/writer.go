package sqlfront

import (
	"encoding/binary"
	"io"

	"github.com/jackc/pgx/v5/pgproto3"
)

// flushAt is how much output is buffered before it is written: results reach
// the client at least every 64 KiB and at the end of every command.
const flushAt = 64 << 10

// writer buffers backend messages. Only the session goroutine uses it.
type writer struct {
	w   io.Writer
	buf []byte
	err error // the first write error; later writes are dropped
	// partial is where the message begun by beginMessage starts while it
	// is not ended; -1 otherwise.
	partial int
}

func newWriter(w io.Writer) *writer {
	return &writer{w: w, buf: make([]byte, 0, 2*flushAt), partial: -1}
}

// send appends msg and writes out the buffer if it is full.
func (w *writer) send(msg pgproto3.BackendMessage) {
	var err error
	w.buf, err = msg.Encode(w.buf)
	if err != nil && w.err == nil {
		w.err = err
	}
	w.maybeFlush()
}

func (w *writer) maybeFlush() {
	if len(w.buf) >= flushAt {
		w.flush()
	}
}

// flush writes out everything buffered.
func (w *writer) flush() error {
	if len(w.buf) > 0 && w.err == nil {
		_, w.err = w.w.Write(w.buf)
	}
	w.buf = w.buf[:0]
	return w.err
}

// beginMessage starts a message of type t whose length is patched by endMessage.
func (w *writer) beginMessage(t byte) int {
	w.partial = len(w.buf)
	w.buf = append(w.buf, t, 0, 0, 0, 0)
	return len(w.buf) - 4
}

func (w *writer) endMessage(at int) {
	binary.BigEndian.PutUint32(w.buf[at:], uint32(len(w.buf)-at))
	w.partial = -1
	w.maybeFlush()
}

// dropPartial drops a message begun and not ended, which a panic
// interrupted: what the client receives stays well-formed.
func (w *writer) dropPartial() {
	if w.partial >= 0 {
		w.buf = w.buf[:w.partial]
		w.partial = -1
	}
}
