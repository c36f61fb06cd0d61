package sqlfront

import "io"

// readAhead reads the client's socket on its own goroutine so that a client
// that goes away is noticed while a statement runs, not only when the next
// message is read. The session reads from it like a socket.
type readAhead struct {
	chunks chan []byte
	// free takes back the buffers of chunks the session has read, for the
	// reading goroutine to fill again: a session that sends a small
	// message per query would otherwise leave a 32 KiB buffer per message
	// to the garbage collector.
	free chan []byte
	cur  []byte // what is left of the chunk being read
	buf  []byte // that chunk's whole buffer
	err  error
	done chan struct{} // closed when the reading goroutine ends
	errc error         // the error that ended it; read after done
}

const (
	readAheadChunk = 32 << 10
	// readAheadChunks is how many chunks are buffered before reading pauses.
	readAheadChunks = 4
)

// startReadAhead reads from c until c fails, calling gone once when it does.
// Backpressure: at most readAheadChunks chunks are buffered before reading
// pauses.
func startReadAhead(c io.Reader, gone func()) *readAhead {
	r := &readAhead{
		chunks: make(chan []byte, readAheadChunks),
		free:   make(chan []byte, readAheadChunks+2),
		done:   make(chan struct{}),
	}
	go func() {
		defer close(r.done)
		defer close(r.chunks)
		for {
			var buf []byte
			select {
			case buf = <-r.free:
			default:
				buf = make([]byte, readAheadChunk)
			}
			n, err := c.Read(buf)
			if n > 0 {
				r.chunks <- buf[:n]
			}
			if err != nil {
				r.errc = err
				gone()
				return
			}
		}
	}()
	return r
}

func (r *readAhead) Read(p []byte) (int, error) {
	for len(r.cur) == 0 {
		if r.err != nil {
			return 0, r.err
		}
		chunk, ok := <-r.chunks
		if !ok {
			<-r.done
			r.err = r.errc
			if r.err == nil {
				r.err = io.EOF
			}
			continue
		}
		r.cur, r.buf = chunk, chunk
	}
	n := copy(p, r.cur)
	r.cur = r.cur[n:]
	if len(r.cur) == 0 {
		select {
		case r.free <- r.buf[:cap(r.buf)]:
		default:
		}
		r.buf = nil
	}
	return n, nil
}

// wait blocks until the reading goroutine has ended; the socket must be closed first.
func (r *readAhead) wait() {
	for range r.chunks {
	}
	<-r.done
}
