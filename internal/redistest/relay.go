package redistest

import (
	"bytes"
	"io"
	"net"
	"sync"
	"testing"
)

// Relay forwards connections to a Redis server, except that a write from a client carrying
// a given command waits until Release. It notes whether it holds one, and whether the
// client has closed that connection since (a client gives up on a command that way).
type Relay struct {
	addr string
	hold []byte

	mu       sync.Mutex
	held     bool
	closed   bool
	released chan struct{}
}

// Hold starts a relay to s that holds every write carrying command (lower case, as go-redis
// sends it, e.g. "set"). Its connections and its held writes end with the test.
func (s *Server) Hold(t testing.TB, command string) *Relay {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &Relay{addr: ln.Addr().String(), hold: []byte("\r\n" + command + "\r\n"), released: make(chan struct{})}
	t.Cleanup(func() {
		_ = ln.Close()
		r.Release()
	})
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial("tcp", s.Addr())
			if err != nil {
				_ = c.Close()
				continue
			}
			go func() { _, _ = io.Copy(c, up); _ = c.Close() }()
			go r.forward(c, up)
		}
	}()
	return r
}

// Addr is the relay's host:port, for the cache's address.
func (r *Relay) Addr() string { return r.addr }

// forward copies what the client sends to Redis, holding a write that carries r.hold.
func (r *Relay) forward(c, up net.Conn) {
	defer func() { _ = up.Close() }()
	buf := make([]byte, 64<<10)
	for {
		n, err := c.Read(buf)
		if n > 0 && bytes.Contains(buf[:n], r.hold) {
			r.mu.Lock()
			r.held = true
			r.mu.Unlock()
			go func() { // the client closing while its write is held
				if _, err := c.Read(make([]byte, 1)); err != nil {
					r.mu.Lock()
					r.closed = true
					r.mu.Unlock()
				}
			}()
			<-r.released
			_, _ = up.Write(buf[:n])
			return
		}
		if n > 0 {
			if _, werr := up.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// State reports whether a write is held and whether its client has closed the connection.
func (r *Relay) State() (held, closed bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.held, r.closed
}

// Release lets the held writes (and any later one) through.
func (r *Relay) Release() {
	r.mu.Lock()
	defer r.mu.Unlock()
	select {
	case <-r.released:
	default:
		close(r.released)
	}
}
