package sqlfront

import "io"

// readAhead reads the client's socket on its own goroutine so that a client
// that goes away is noticed while a statement runs, not only when the next
// message is read. The session reads from it like a socket.
type readAhead struct {
	chunks chan []byte
	cur    []byte
	err    error
	done   chan struct{} // closed when the reading goroutine ends
	errc   error         // the error that ended it; read after done
}

const readAheadChunk = 32 << 10

// startReadAhead reads from c until c fails, calling gone once when it does.
// Backpressure: at most a few chunks are buffered before reading pauses.
func startReadAhead(c io.Reader, gone func()) *readAhead {
	r := &readAhead{chunks: make(chan []byte, 4), done: make(chan struct{})}
	go func() {
		defer close(r.done)
		defer close(r.chunks)
		for {
			buf := make([]byte, readAheadChunk)
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
		r.cur = chunk
	}
	n := copy(p, r.cur)
	r.cur = r.cur[n:]
	return n, nil
}

// wait blocks until the reading goroutine has ended; the socket must be closed first.
func (r *readAhead) wait() {
	for range r.chunks {
	}
	<-r.done
}
