package server

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/semantic-router/semantic-router/internal/openai"
)

// routes serves a fixed set of exact paths. Unlike http.ServeMux it never redirects: a
// path with "..", "//" or a trailing slash is simply unknown, so no client can make the
// router answer with a Location it chose (GET /../../etc/passwd gets a 404, not a 307 to
// /etc/passwd). A known path asked with another method gets 405 with Allow; GET routes
// answer HEAD too.
type routes struct {
	byPath   map[string][]route
	prefixes []prefixRoute
	notFound http.HandlerFunc
}

type route struct {
	method  string
	handler http.HandlerFunc
}

type prefixRoute struct {
	prefix  string
	handler http.HandlerFunc
}

func newRoutes(notFound http.HandlerFunc) *routes {
	return &routes{byPath: map[string][]route{}, notFound: notFound}
}

// handle serves method on the exact path.
func (rs *routes) handle(method, path string, h http.HandlerFunc) {
	rs.byPath[path] = append(rs.byPath[path], route{method, h})
}

// handlePrefix serves every method on the paths under prefix that no exact path serves.
func (rs *routes) handlePrefix(prefix string, h http.HandlerFunc) {
	rs.prefixes = append(rs.prefixes, prefixRoute{prefix, h})
}

func (rs *routes) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// The refusals are functions of their own, so that this frame, under every request on
	// the connection's goroutine, stays small.
	if r.Method == http.MethodConnect {
		refuseConnect(w)
		return
	}
	rts, ok := rs.byPath[r.URL.Path]
	if !ok {
		for _, p := range rs.prefixes {
			if strings.HasPrefix(r.URL.Path, p.prefix) {
				p.handler(w, r)
				return
			}
		}
		rs.notFound(w, r)
		return
	}
	method := r.Method
	if method == http.MethodHead {
		method = http.MethodGet
	}
	for _, rt := range rts {
		if rt.method == method {
			rt.handler(w, r)
			return
		}
	}
	refuseMethod(w, r, rts)
}

// refuseConnect answers CONNECT, which names a host, not a path ("CONNECT
// example.com:443"): the listener is no proxy.
func refuseConnect(w http.ResponseWriter) {
	w.Header().Set("Allow", "GET, HEAD, POST")
	writeError(w, &openai.APIError{Status: http.StatusMethodNotAllowed, Type: openai.TypeInvalidRequest, Code: "method_not_allowed",
		Message: "method CONNECT is not allowed; this server is not a proxy"})
}

// refuseMethod answers a method that none of rts, the routes of the path, serves.
func refuseMethod(w http.ResponseWriter, r *http.Request, rts []route) {
	var allowed, use []string
	for _, rt := range rts {
		allowed = append(allowed, rt.method)
		use = append(use, rt.method)
		if rt.method == http.MethodGet {
			allowed = append(allowed, http.MethodHead)
		}
	}
	w.Header().Set("Allow", strings.Join(allowed, ", "))
	writeError(w, &openai.APIError{Status: http.StatusMethodNotAllowed, Type: openai.TypeInvalidRequest,
		Message: fmt.Sprintf("method %s is not allowed on %s; use %s", clip(r.Method), clip(r.URL.Path), strings.Join(use, " or "))})
}

// clip shortens what a client sent before it is quoted back in an error message.
func clip(s string) string {
	const maxLen = 256
	if len(s) <= maxLen {
		return s
	}
	return s[:maxLen] + "…"
}

// NewMetrics serves the Prometheus handler h at GET /metrics and nothing else: another path is
// a 404 and another method a 405, in the error envelope like every other answer.
func NewMetrics(h http.Handler) http.Handler {
	rs := newRoutes(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, openai.NotFound("unknown_url", fmt.Sprintf("unknown path %s; the metrics listener serves GET /metrics", clip(r.URL.Path))))
	})
	rs.handle(http.MethodGet, "/metrics", h.ServeHTTP)
	return rs
}
