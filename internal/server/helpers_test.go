package server

import (
	"bufio"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/logtest"
	"github.com/semantic-router/semantic-router/internal/router"
	"github.com/semantic-router/semantic-router/internal/telemetry"
)

// fixture is a router on a YAML config, served by the real inference and management
// handlers.
type fixture struct {
	inference, management string
	infHandler, mgmtH     http.Handler
	holder                *router.Holder
	reg                   *prometheus.Registry
	metrics               *telemetry.Metrics
	logs                  *logtest.Buffer
}

func newFixture(t *testing.T, yaml string, env map[string]string) *fixture {
	t.Helper()
	cfg, err := config.Parse([]byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{reg: prometheus.NewRegistry(), logs: &logtest.Buffer{}}
	metrics := telemetry.NewMetrics(f.reg)
	f.metrics = metrics
	log := slog.New(slog.NewJSONHandler(f.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	rt, err := router.New(cfg, router.Options{Logger: log, Metrics: metrics, LookupEnv: func(k string) (string, bool) {
		v, ok := env[k]
		return v, ok
	}})
	if err != nil {
		t.Fatal(err)
	}
	f.holder = router.NewHolder(rt)
	t.Cleanup(func() { _ = f.holder.Close() })
	f.infHandler = NewInference(router.NewPipeline(f.holder, router.PipelineOptions{Logger: log}), log, metrics)
	inf := httptest.NewServer(f.infHandler)
	f.mgmtH = NewManagement(f.holder, &Readiness{}, inf.URL, log, nil)
	mgmt := httptest.NewServer(f.mgmtH)
	t.Cleanup(inf.Close)
	t.Cleanup(mgmt.Close)
	f.inference, f.management = inf.URL, mgmt.URL
	return f
}

type reply struct {
	status int
	header http.Header
	body   string
	close  bool // the response said Connection: close
}

func do(t *testing.T, method, url, token, body string) reply {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return reply{resp.StatusCode, resp.Header, string(b), resp.Close}
}

func chat(model string, stream bool) string {
	if stream {
		return `{"model":"` + model + `","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"hi"}]}`
	}
	return `{"model":"` + model + `","messages":[{"role":"user","content":"hi"}]}`
}

const simModels = `
models:
  - model_name: general
    provider: {type: sim, sim: {first_token_latency: 0s, token_latency: 0s}}
  - model_name: reasoning
    provider: {type: sim, sim: {first_token_latency: 0s, token_latency: 0s}}
`

// listen serves h on 127.0.0.1:0 as the router does, with the limits of s, and returns the
// address.
func listen(t *testing.T, h http.Handler, s config.Server) string {
	t.Helper()
	return serveOn(t, h, s, false)
}

// listenH2C is listen with HTTP/2 without TLS allowed, as the inference listener serves.
func listenH2C(t *testing.T, h http.Handler, s config.Server) string {
	t.Helper()
	return serveOn(t, h, s, true)
}

func serveOn(t *testing.T, h http.Handler, s config.Server, h2c bool) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return serveListener(t, h, s, h2c, ln)
}

// serveListener is serveOn on the listener ln.
func serveListener(t *testing.T, h http.Handler, s config.Server, h2c bool, ln net.Listener) string {
	t.Helper()
	srv := NewHTTPServer(h, s, slog.New(slog.DiscardHandler))
	if h2c {
		srv.AllowH2C()
	}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return ln.Addr().String()
}

// real serves the fixture's inference and management handlers on real servers with the
// fixture's limits.
func (f *fixture) real(t *testing.T) (inference, management string) {
	t.Helper()
	s := f.holder.Current().Config().Server
	return listen(t, f.infHandler, s), listen(t, f.mgmtH, s)
}

// dial opens a connection to addr and writes raw, as a client that speaks HTTP by hand.
func dial(t *testing.T, addr, raw string) (net.Conn, *bufio.Reader) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	if _, err := io.WriteString(c, raw); err != nil {
		t.Fatal(err)
	}
	return c, bufio.NewReader(c)
}

// waitLimit bounds every wait of these tests: far past any limit a test sets, so that only
// a server that never acts runs into it.
const waitLimit = 10 * time.Second

// readReply reads one response from br, with its body.
func readReply(t *testing.T, c net.Conn, br *bufio.Reader) reply {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(waitLimit))
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("no response within %s: %v", waitLimit, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("reading the response body: %v", err)
	}
	return reply{resp.StatusCode, resp.Header, string(b), resp.Close}
}

// waitClosed waits for the server to close c, reading and dropping whatever comes first.
func waitClosed(t *testing.T, c net.Conn, br *bufio.Reader) {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(waitLimit))
	_, err := io.Copy(io.Discard, br)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("the server kept the connection open for %s", waitLimit)
	}
	// nil is a clean close; a reset is a close too.
}

// waitFor polls cond until it holds, failing the test after waitLimit.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, waitLimit)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
