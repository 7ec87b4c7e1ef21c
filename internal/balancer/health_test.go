package balancer

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// waitLimit bounds every wait of these tests; it is never reached when they pass.
const waitLimit = 10 * time.Second

// waitFor polls cond until it holds, failing the test after waitLimit.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, waitLimit)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// modelServer answers GET /v1/models with 200 while it is healthy and 503 otherwise.
type modelServer struct {
	*httptest.Server
	healthy atomic.Bool
	probes  atomic.Int64
}

func newModelServer(t *testing.T) *modelServer {
	t.Helper()
	s := &modelServer{}
	s.healthy.Store(true)
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || r.URL.Path != "/v1/models" {
			http.NotFound(w, r)
			return
		}
		s.probes.Add(1)
		if !s.healthy.Load() {
			http.Error(w, `{"error":{"message":"loading"}}`, http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"object":"list","data":[]}`))
	}))
	t.Cleanup(s.Close)
	return s
}

func TestHealthChecksEjectAndReturnAnEndpoint(t *testing.T) {
	t.Parallel()
	a, b := newModelServer(t), newModelServer(t)
	// One failure ejects, for longer than the test: only a probe brings b back.
	p := New([]Endpoint{{ID: a.URL + "/v1"}, {ID: b.URL + "/v1"}}, Options{ConsecutiveFailures: 1, EjectionTime: time.Hour, MaxEjectionTime: time.Hour})
	changes := make(chan string, 10)
	stop := p.StartHealthChecks(HealthCheck{Interval: 5 * time.Millisecond, Timeout: waitLimit, Path: "/models",
		OnChange: func(id string, err error) { changes <- fmt.Sprintf("%s: %v", strings.TrimPrefix(id, b.URL), err) }})
	t.Cleanup(stop)

	b.healthy.Store(false)
	waitFor(t, "b ejected by its probes", func() bool { return p.Status()[1].Ejected })
	if got := picks(t, p, 3, Success); got != strings.Repeat(a.URL+"/v1", 3) {
		t.Errorf("picks with b ejected = %s, want a's URL thrice", got)
	}
	b.healthy.Store(true)
	waitFor(t, "b returned by its probes", func() bool { return !p.Status()[1].Ejected })
	// a's probes run on a loop of their own, which a busy machine may start late: a second
	// probe received means the first was answered and recorded.
	waitFor(t, "a probed twice", func() bool { return a.probes.Load() >= 2 })
	stop()

	want := []string{"/v1: probe: unhealthy answer: 503 Service Unavailable", "/v1: <nil>"}
	for _, w := range want {
		if got := <-changes; got != w {
			t.Errorf("change = %q, want %q", got, w)
		}
	}
	if len(changes) != 0 {
		t.Errorf("%d more changes after %q, want none: a stayed healthy", len(changes), want)
	}
}

func TestProbe(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/ok":
			w.WriteHeader(http.StatusNoContent)
		case "/down":
			http.Error(w, "down", http.StatusBadGateway)
		case "/moved":
			http.Redirect(w, r, "/ok", http.StatusFound)
		case "/auth":
			if r.Header.Get("Authorization") != "Bearer sk-1" {
				http.Error(w, "who are you", http.StatusUnauthorized)
			}
		case "/hang":
			select { // answers nothing until the client gives up
			case <-r.Context().Done():
			case <-release:
			}
		}
	}))
	t.Cleanup(srv.Close)
	noRedirects := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	token := func(v string) func() (string, error) { return func() (string, error) { return v, nil } }
	tests := []struct {
		name, path string
		hc         HealthCheck
		want       string // "" is healthy
	}{
		{"2xx is healthy", "/ok", HealthCheck{}, ""},
		{"5xx is unhealthy", "/down", HealthCheck{}, "probe: unhealthy answer: 502 Bad Gateway"},
		{"a redirect not followed is unhealthy", "/moved", HealthCheck{Client: noRedirects}, "probe: unhealthy answer: 302 Found"},
		{"a redirect followed leads on", "/moved", HealthCheck{}, ""},
		{"the token is sent as a bearer", "/auth", HealthCheck{Token: token("sk-1")}, ""},
		{"without the token the server refuses", "/auth", HealthCheck{}, "probe: unhealthy answer: 401 Unauthorized"},
		{"a token that cannot be read fails the probe", "/ok",
			HealthCheck{Token: func() (string, error) { return "", errors.New("key file is gone") }}, "probe token: key file is gone"},
		{"no answer within the timeout", "/hang", HealthCheck{Timeout: 20 * time.Millisecond},
			`probe: Get "` + srv.URL + `/hang": context deadline exceeded`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			hc := tt.hc
			if hc.Client == nil {
				hc.Client = srv.Client()
			}
			if hc.Timeout == 0 {
				hc.Timeout = waitLimit
			}
			got := ""
			if err := probe(context.Background(), srv.URL+tt.path, hc); err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("probe = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestStopCancelsAProbeInFlightWithoutRecordingIt(t *testing.T) {
	t.Parallel()
	arrived := make(chan struct{}, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case arrived <- struct{}{}:
		default:
		}
		<-r.Context().Done() // answers nothing until the prober gives up
	}))
	t.Cleanup(srv.Close)
	p := New([]Endpoint{{ID: srv.URL}}, Options{ConsecutiveFailures: 1, EjectionTime: time.Hour})
	stop := p.StartHealthChecks(HealthCheck{Interval: time.Millisecond, Timeout: time.Hour, Path: "/models"})
	select {
	case <-arrived:
	case <-time.After(waitLimit):
		t.Fatalf("no probe within %s", waitLimit)
	}
	stop() // returns although the probe's timeout is an hour away
	stop() // and may be called again
	if st := p.Status()[0]; st.Ejected || st.ConsecutiveFailures != 0 {
		t.Errorf("after a cancelled probe, status = %+v, want neither failures nor ejection", st)
	}
}
