package server

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/stackgrow"
)

// guard enforces the limits of one listener around handler:
//   - a request line and headers over lim.MaxHeaderBytes get 431 in the error envelope;
//   - an answer given without reading the whole request body closes an HTTP/1.x connection,
//     and the server does not wait for the rest of the body (net/http would otherwise read
//     up to 256 KiB of it, at the client's pace, before answering or before the next
//     request); over HTTP/2 the server resets that request's stream alone, and the
//     connection's other requests go on;
//   - an answer that is not an event stream must be taken by the client within
//     lim.WriteTimeout from its first byte;
//   - an HTTP/1.x connection whose framing was ambiguous (Content-Length with
//     Transfer-Encoding) is closed after the answer. HTTP/2 frames every request itself.
func guard(handler http.Handler, lim config.ServerLimits) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// An HTTP/2 stream's goroutine is new for each request, and would grow to 8 KiB while
		// decoding it, forty frames deep, where the copy costs most (see stackgrow). Here, a
		// few frames deep, it is cheap. An HTTP/1.1 connection's goroutine, which starts at
		// the runtime's average or has grown already, is left as it is.
		stackgrow.To8KiB()
		rc := http.NewResponseController(w)
		h1 := r.ProtoMajor == 1
		g := &guardedWriter{ResponseWriter: w, rc: rc, writeTimeout: lim.WriteTimeout.D(), h1: h1}
		if r.Body != nil && r.Body != http.NoBody {
			g.body = &watchedBody{ReadCloser: r.Body}
			r.Body = g.body
		}
		if c, ok := r.Context().Value(connKey{}).(*watchedConn); ok && h1 && c.ambiguous.Load() {
			w.Header().Set("Connection", "close")
		}
		if n := headerBytes(r); n > lim.MaxHeaderBytes {
			writeError(g, &openai.APIError{Status: http.StatusRequestHeaderFieldsTooLarge, Type: openai.TypeInvalidRequest, Code: "headers_too_large",
				Message: fmt.Sprintf("the request line and headers are %d bytes, more than %d (server.max_header_bytes)", n, lim.MaxHeaderBytes)})
		} else {
			handler.ServeHTTP(g, r)
		}
		if g.unreadBody.Load() {
			// The answer is written and the connection will close (over HTTP/2, the
			// request's stream is reset): end the wait for a body nobody will read.
			_ = rc.SetReadDeadline(time.Now())
		}
	})
}

// headerBytes is the size of the request line and headers as they were sent, give or take
// the spaces around each colon.
func headerBytes(r *http.Request) int {
	n := len(r.Method) + len(r.RequestURI) + len(r.Proto) + len("  \r\n")
	if r.Host != "" {
		n += len("Host: \r\n") + len(r.Host)
	}
	for k, vs := range r.Header {
		for _, v := range vs {
			n += len(k) + len(": \r\n") + len(v)
		}
	}
	return n
}

// watchedBody records whether the request body was read to its end.
type watchedBody struct {
	io.ReadCloser
	eof atomic.Bool
}

func (b *watchedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF {
		b.eof.Store(true)
	}
	return n, err
}

// guardedWriter acts when the status line is written: it arms the write deadline of an
// answer that is not a stream, and closes an HTTP/1.x connection after an answer given
// before the body was read. It forwards Flush and the deadlines through Unwrap.
type guardedWriter struct {
	http.ResponseWriter
	rc           *http.ResponseController
	writeTimeout time.Duration
	h1           bool         // the request came over HTTP/1.x
	body         *watchedBody // nil: the request has no body
	wroteHeader  bool
	unreadBody   atomic.Bool
}

func (g *guardedWriter) WriteHeader(code int) {
	if !g.wroteHeader && code >= 200 {
		g.wroteHeader = true
		h := g.Header()
		if g.body != nil && !g.body.eof.Load() {
			if g.h1 {
				// Over HTTP/2 this would end every stream of the connection.
				h.Set("Connection", "close")
			}
			g.unreadBody.Store(true)
		}
		if g.writeTimeout > 0 && !strings.HasPrefix(h.Get("Content-Type"), "text/event-stream") {
			_ = g.rc.SetWriteDeadline(time.Now().Add(g.writeTimeout))
		}
	}
	g.ResponseWriter.WriteHeader(code)
}

func (g *guardedWriter) Write(b []byte) (int, error) {
	if !g.wroteHeader {
		g.WriteHeader(http.StatusOK)
	}
	return g.ResponseWriter.Write(b)
}

func (g *guardedWriter) Unwrap() http.ResponseWriter { return g.ResponseWriter }
