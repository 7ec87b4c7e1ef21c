package artifact

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// hub serves model repositories as Hugging Face does: GET
// /{org}/{name}/resolve/{revision}/{path...}, with a strong ETag, range requests, a bearer
// token when one is set, X-Error-Message on errors, and optionally a redirect of every file
// to a second server (the CDN), as the Hub does for large files.
type hub struct {
	t     *testing.T
	srv   *httptest.Server
	files map[string][]byte // "org/name/revision/path"
	token string            // required bearer token; empty: none

	mu       sync.Mutex
	requests []seen
	// cutAfter, when > 0, makes the first response of every file end after that many
	// bytes by dropping the connection.
	cutAfter int
	cut      map[string]bool
	cutEvery bool // cut every response, not only the first
	// fail answers this many first requests with 503.
	fail int
	// cdn, when set, receives every file by a 302 carrying a signed-looking query.
	cdn *hub
	// hold, when set, stops every response after half the file until it is closed.
	hold chan struct{}
	// noETag leaves the ETag out, as some mirrors and proxies do; ignoreRange answers a
	// cut response's range request with the whole file, as a server without range
	// support does.
	noETag, ignoreRange bool
	// ignoreIfRange answers a range request with the range even when If-Range names
	// another version; rangeFromStart answers it with a 206 of the whole file.
	ignoreIfRange, rangeFromStart bool
	// endless sends the file over and over without a Content-Length, until the client
	// goes; claimLength announces that Content-Length, sends the file and drops the
	// connection.
	endless     bool
	claimLength int64
	// contentType, when set, is the Content-Type of every file; redirect, when set, is
	// where every request is sent with a 302.
	contentType, redirect string
}

// seen is what the server recorded of one request.
type seen struct {
	path, auth, rng, ifRange string
}

func newHub(t *testing.T, tls bool) *hub {
	h := &hub{t: t, files: map[string][]byte{}, cut: map[string]bool{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{org}/{name}/resolve/{rev}/{path...}", h.resolve)
	h.start(mux, tls)
	return h
}

// newCDN is the server a hub redirects files to.
func newCDN(t *testing.T) *hub {
	h := &hub{t: t, files: map[string][]byte{}, cut: map[string]bool{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /cdn-blob/{key...}", h.blob)
	h.start(mux, false)
	return h
}

func (h *hub) start(mux *http.ServeMux, tls bool) {
	h.srv = httptest.NewUnstartedServer(mux)
	// The TLS test's refused handshakes are expected; keep them out of the output.
	h.srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	if tls {
		h.srv.StartTLS()
	} else {
		h.srv.Start()
	}
	h.t.Cleanup(h.srv.Close)
}

func (h *hub) add(repo, rev, path string, data []byte) string {
	h.files[repo+"/"+rev+"/"+path] = data
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

func (h *hub) caPEM() string {
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: h.srv.Certificate().Raw}))
}

func (h *hub) seen() []seen {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]seen(nil), h.requests...)
}

func (h *hub) record(r *http.Request) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.requests = append(h.requests, seen{path: r.URL.EscapedPath(), auth: r.Header.Get("Authorization"), rng: r.Header.Get("Range"), ifRange: r.Header.Get("If-Range")})
}

func (h *hub) resolve(w http.ResponseWriter, r *http.Request) {
	h.record(r)
	h.mu.Lock()
	failing := h.fail > 0
	h.fail--
	h.mu.Unlock()
	if failing {
		w.Header().Set("X-Error-Message", "try again later")
		http.Error(w, "unavailable", http.StatusServiceUnavailable)
		return
	}
	if h.token != "" && r.Header.Get("Authorization") != "Bearer "+h.token {
		w.Header().Set("X-Error-Message", "Invalid credentials in Authorization header")
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return
	}
	if h.redirect != "" {
		http.Redirect(w, r, h.redirect, http.StatusFound)
		return
	}
	key := r.PathValue("org") + "/" + r.PathValue("name") + "/" + r.PathValue("rev") + "/" + r.PathValue("path")
	data, ok := h.files[key]
	if !ok {
		w.Header().Set("X-Error-Message", "Entry not found")
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	w.Header().Set("X-Repo-Commit", "0123456789abcdef0123456789abcdef01234567")
	if h.cdn != nil {
		h.cdn.files[key] = data
		http.Redirect(w, r, h.cdn.srv.URL+"/cdn-blob/"+key+"?X-Amz-Signature=secret-signature", http.StatusFound)
		return
	}
	h.serve(w, r, key, data)
}

func (h *hub) blob(w http.ResponseWriter, r *http.Request) {
	h.record(r)
	key := r.PathValue("key")
	data, ok := h.files[key]
	if !ok {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	h.serve(w, r, key, data)
}

func (h *hub) serve(w http.ResponseWriter, r *http.Request, key string, data []byte) {
	sum := sha256.Sum256(data)
	if !h.noETag {
		w.Header().Set("ETag", fmt.Sprintf("%q", hex.EncodeToString(sum[:])))
	}
	h.mu.Lock()
	cut := h.cutAfter > 0 && (h.cutEvery || !h.cut[key])
	h.cut[key] = true
	hold := h.hold
	h.mu.Unlock()
	switch {
	case cut:
		// Promise the rest of the file, send cutAfter bytes of it, drop the connection.
		start := 0
		if rng, ok := strings.CutPrefix(r.Header.Get("Range"), "bytes="); ok && !h.ignoreRange {
			start, _ = strconv.Atoi(strings.TrimSuffix(rng, "-"))
			w.Header().Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", start, len(data)-1, len(data)))
			w.Header().Set("Content-Length", fmt.Sprint(len(data)-start))
			w.WriteHeader(http.StatusPartialContent)
		} else {
			w.Header().Set("Content-Length", fmt.Sprint(len(data)))
			w.WriteHeader(http.StatusOK)
		}
		end := min(start+h.cutAfter, len(data))
		_, _ = w.Write(data[start:end])
		if end < len(data) {
			_ = http.NewResponseController(w).Flush()
			panic(http.ErrAbortHandler)
		}
	case hold != nil:
		w.Header().Set("Content-Length", fmt.Sprint(len(data)))
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(data[:len(data)/2])
		_ = http.NewResponseController(w).Flush()
		<-hold
		_, _ = w.Write(data[len(data)/2:])
	case h.endless:
		w.WriteHeader(http.StatusOK)
		for {
			if _, err := w.Write(data); err != nil {
				return
			}
		}
	case h.claimLength > 0:
		w.Header().Set("Content-Length", strconv.FormatInt(h.claimLength, 10))
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(data)
		_ = http.NewResponseController(w).Flush()
		panic(http.ErrAbortHandler)
	case h.rangeFromStart && r.Header.Get("Range") != "":
		w.Header().Set("Content-Range", fmt.Sprintf("bytes 0-%d/%d", len(data)-1, len(data)))
		w.WriteHeader(http.StatusPartialContent)
		_, _ = w.Write(data)
	default:
		if h.contentType != "" {
			w.Header().Set("Content-Type", h.contentType)
		}
		if h.ignoreIfRange {
			r.Header.Del("If-Range")
		}
		http.ServeContent(w, r, key, time.Time{}, bytes.NewReader(data))
	}
}

// env is a LookupEnv over a map.
func env(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

func paths(ss []seen) string {
	var b strings.Builder
	for _, s := range ss {
		fmt.Fprintf(&b, "%s range=%q if-range=%t auth=%t\n", s.path, s.rng, s.ifRange != "", s.auth != "")
	}
	return b.String()
}
