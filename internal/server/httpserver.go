package server

import (
	"bytes"
	"context"
	"log/slog"
	"net"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/router"
)

// HTTPServer is an http.Server with the router's limits on what a client may hold: a
// request's headers and body must arrive within their timeouts, an idle keep-alive
// connection is closed, a response that is not a stream must be taken within the write
// timeout, oversized headers get a 431 in the OpenAI error envelope, and a connection whose
// request framing was ambiguous is closed after its answer. Serve it with Serve, which
// watches each connection's framing.
type HTTPServer struct {
	*http.Server
	// end cancels every request's context: the server's base context.
	end context.CancelCauseFunc
}

// EndGrace is how long the requests still running when a drain's deadline passes have to
// tell their clients the router is shutting down before their connections are closed.
const EndGrace = time.Second

// NewHTTPServer returns the server of one listener (inference, management or metrics) for
// handler, with the limits of s.
func NewHTTPServer(handler http.Handler, s config.Server, log *slog.Logger) *HTTPServer {
	base, end := context.WithCancelCause(context.Background())
	return &HTTPServer{end: end, Server: &http.Server{
		BaseContext:       func(net.Listener) context.Context { return base },
		Handler:           guard(handler, s.ServerLimits),
		ReadHeaderTimeout: s.ReadHeaderTimeout.D(),
		// Go's server stops reading a request body at this deadline; once the body has been
		// read to its end it clears the deadline itself, so a long stream is not cut.
		ReadTimeout: s.ReadTimeout.D(),
		IdleTimeout: s.IdleTimeout.D(),
		// Above the limit guard enforces, so that guard, not net/http, answers an oversized
		// request (in the error envelope). Only headers more than twice the limit meet
		// net/http's own plain-text 431.
		MaxHeaderBytes: 2 * s.MaxHeaderBytes,
		// "OPTIONS *" reaches the handler, which answers it in the envelope.
		DisableGeneralOptionsHandler: true,
		ConnContext: func(ctx context.Context, c net.Conn) context.Context {
			if gc, ok := c.(*watchedConn); ok {
				return context.WithValue(ctx, connKey{}, gc)
			}
			return ctx
		},
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}}
}

// AllowH2C lets clients speak HTTP/2 without TLS, with prior knowledge, beside HTTP/1.1:
// net/http tells the two apart by the connection's first bytes. Go's HTTP/2 server sends a
// GOAWAY on Shutdown and lets the streams in flight finish, as it closes idle HTTP/1.1
// connections. Call it before Serve.
func (s *HTTPServer) AllowH2C() {
	p := new(http.Protocols)
	p.SetHTTP1(true)
	p.SetUnencryptedHTTP2(true)
	s.Protocols = p
}

// Shutdown stops the server as http.Server.Shutdown does: it stops accepting, closes idle
// connections and lets the requests and streams in flight finish until ctx ends. Those
// still running then are not cut silently: each is ended with router.ErrShuttingDown, so
// that it answers 503, or ends its stream with an error event, saying the router is shutting
// down; they have EndGrace to do so before their connections are closed. It returns ctx's
// error when requests had to be ended.
func (s *HTTPServer) Shutdown(ctx context.Context) error {
	err := s.Server.Shutdown(ctx)
	if err == nil {
		return nil
	}
	s.end(router.ErrShuttingDown)
	gctx, cancel := context.WithTimeout(context.Background(), EndGrace)
	defer cancel()
	if s.Server.Shutdown(gctx) != nil {
		_ = s.Close()
	}
	return err
}

// Serve accepts connections on ln, watching each one's request framing.
func (s *HTTPServer) Serve(ln net.Listener) error {
	return s.Server.Serve(watchedListener{ln})
}

type connKey struct{}

type watchedListener struct{ net.Listener }

func (l watchedListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &watchedConn{Conn: c}, nil
}

// watchedConn notes whether any request header block read on the connection carried both
// Content-Length and Transfer-Encoding. net/http serves such a request by its
// Transfer-Encoding and drops the Content-Length before a handler can see it, but RFC 9112
// §6.1 asks the server to close the connection after answering it: a front proxy that
// framed the request by its Content-Length would read the rest as another request.
type watchedConn struct {
	net.Conn
	// scan is used by Read only; net/http never reads a connection from two goroutines
	// at once.
	scan      framingScanner
	ambiguous atomic.Bool
}

func (c *watchedConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 && c.scan.feed(p[:n]) {
		c.ambiguous.Store(true)
	}
	return n, err
}

// CloseWrite lets net/http half-close the connection before closing it, so that a client
// still sending gets its answer rather than a reset.
func (c *watchedConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// framingScanner looks at the start of each line of what a connection sends, and reports a
// block of lines (up to an empty line) holding both a Content-Length and a
// Transfer-Encoding field. It does not parse HTTP: a body may contain such a block too, and
// then the connection is closed after its answer for nothing, which costs the client a
// reconnection and nothing else. Only the first bytes of each line are kept.
type framingScanner struct {
	prefix [len("transfer-encoding:")]byte
	n      int // length of the current line so far
	cl, te bool
}

func (s *framingScanner) feed(p []byte) (ambiguous bool) {
	for len(p) > 0 {
		end := bytes.IndexByte(p, '\n')
		seg := p
		if end >= 0 {
			seg = p[:end]
		}
		if s.n < len(s.prefix) {
			copy(s.prefix[s.n:], seg)
		}
		s.n += len(seg)
		if end < 0 {
			return ambiguous
		}
		line := s.prefix[:min(s.n, len(s.prefix))]
		switch {
		case s.n == 0 || s.n == 1 && line[0] == '\r':
			ambiguous = ambiguous || s.cl && s.te
			s.cl, s.te = false, false
		case hasFoldPrefix(line, "content-length:"):
			s.cl = true
		case hasFoldPrefix(line, "transfer-encoding:"):
			s.te = true
		}
		s.n = 0
		p = p[end+1:]
	}
	return ambiguous
}

func hasFoldPrefix(b []byte, prefix string) bool {
	if len(b) < len(prefix) {
		return false
	}
	for i := range len(prefix) {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != prefix[i] {
			return false
		}
	}
	return true
}
