package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"sync"
)

// replayServer answers every connection with the bytes Mallard sent on one
// recorded connection, read from a file and handed to the socket by the
// kernel (sendfile), doing no other work. A client reading from it goes as
// fast as it can alone on this machine: its time is the floor of that
// client's time from any server, Mallard or PostgreSQL.
type replayServer struct {
	ln   net.Listener
	path string
	wg   sync.WaitGroup
}

// recordReplay starts a proxy to the Mallard server at target (host:port),
// runs run once against it with the proxy's connection string, keeping what
// the server sent in a file under dir, and then serves that recording to
// every later connection.
func recordReplay(ctx context.Context, target, dir string, run func(dsn string) error) (*replayServer, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	r := &replayServer{ln: ln, path: filepath.Join(dir, "mallard-stream.replay")}
	recorded := make(chan error, 1)
	go func() { recorded <- r.record(target) }()
	err = run(mallardDSN(ln.Addr().(*net.TCPAddr).Port))
	if err != nil {
		ln.Close()
	}
	if err = errors.Join(err, <-recorded); err != nil {
		os.Remove(r.path)
		return nil, fmt.Errorf("replay: %w", err)
	}
	r.wg.Go(r.serve)
	return r, nil
}

// record relays one connection to target, writing the server's side to
// r.path as well.
func (r *replayServer) record(target string) error {
	c, err := r.ln.Accept()
	if err != nil {
		return err
	}
	defer c.Close()
	s, err := net.Dial("tcp", target)
	if err != nil {
		return err
	}
	defer s.Close()
	f, err := os.Create(r.path)
	if err != nil {
		return err
	}
	go func() {
		io.Copy(s, c) // the client's messages, until the client closes
		s.(*net.TCPConn).CloseWrite()
	}()
	_, err = io.Copy(io.MultiWriter(c, f), s)
	return errors.Join(err, f.Close())
}

func (r *replayServer) serve() {
	for {
		c, err := r.ln.Accept()
		if err != nil {
			return
		}
		r.wg.Go(func() {
			defer c.Close()
			go io.Copy(io.Discard, c) // what the client sends is not read
			f, err := os.Open(r.path)
			if err != nil {
				return
			}
			defer f.Close()
			io.Copy(c, f)
		})
	}
}

func (r *replayServer) dsn() string { return mallardDSN(r.ln.Addr().(*net.TCPAddr).Port) }

func (r *replayServer) close() error {
	err := r.ln.Close()
	r.wg.Wait()
	return errors.Join(err, os.Remove(r.path))
}
