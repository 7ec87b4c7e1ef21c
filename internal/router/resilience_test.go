package router

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/provider"
	"github.com/semantic-router/semantic-router/internal/provider/sim"
	"github.com/semantic-router/semantic-router/internal/telemetry"
)

// upstream is an OpenAI-compatible server (the simulator) that first answers the failures
// queued with fail, in order, and then completions, or always fails after failAlways. Each
// failure is the OpenAI error envelope with its status and Retry-After. It counts the chat
// completion calls it got.
type upstream struct {
	*httptest.Server
	calls atomic.Int64

	mu     sync.Mutex
	queue  []failure
	always *failure
}

type failure struct {
	status     int
	retryAfter string
}

func newUpstream(t *testing.T) *upstream {
	t.Helper()
	u := &upstream{}
	serve := sim.Handler(sim.Options{Model: "up"})
	u.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/chat/completions" {
			u.calls.Add(1)
			if f := u.next(); f != nil {
				if f.retryAfter != "" {
					w.Header().Set("Retry-After", f.retryAfter)
				}
				openai.WriteError(w, &openai.APIError{Status: f.status, Type: openai.TypeServer, Message: "scripted failure"})
				return
			}
		}
		serve.ServeHTTP(w, r)
	}))
	t.Cleanup(u.Close)
	return u
}

// fail queues failures for the next calls.
func (u *upstream) fail(fs ...failure) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.queue = append(u.queue, fs...)
}

// failAlways makes every call fail with status.
func (u *upstream) failAlways(status int) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.always = &failure{status: status}
}

func (u *upstream) next() *failure {
	u.mu.Lock()
	defer u.mu.Unlock()
	if len(u.queue) > 0 {
		f := u.queue[0]
		u.queue = u.queue[1:]
		return &f
	}
	return u.always
}

// upstreamModel is a model named name on u, with extra YAML lines (indented by four).
func upstreamModel(name string, u *upstream, extra string) string {
	return "  - model_name: " + name + "\n    provider: {type: openai_compatible, base_url: " + u.URL + "/v1}\n" + extra
}

// TestRetries: failures a repeat may cure are retried up to max_attempts; others are not.
func TestRetries(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name      string
		fails     []failure
		attempts  int
		calls     int64
		status    int // 0: served
		retries   float64
		retryWhat string
		errors    float64 // errors_total{m, retryWhat}: the request, once, if it failed
	}{
		{"a 502 and a 503, then an answer", []failure{{status: 502}, {status: 503}}, 3, 3, 0, 2, "upstream", 0},
		{"a 429, then an answer", []failure{{status: 429}}, 2, 2, 0, 1, "rate_limited", 0},
		{"failures past max_attempts", []failure{{status: 500}, {status: 500}, {status: 500}}, 2, 2, 502, 1, "upstream", 1},
		{"a 400 is not retried", []failure{{status: 400}}, 3, 1, 400, 0, "bad_request", 1},
		{"a 401 is not retried", []failure{{status: 401}}, 3, 1, 401, 0, "auth", 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			up := newUpstream(t)
			up.fail(tt.fails...)
			metrics := telemetry.NewMetrics(prometheus.NewRegistry())
			r := buildRouter(t, "models:\n"+upstreamModel("m", up, "    retry: {max_attempts: "+strconv.Itoa(tt.attempts)+", initial_backoff: 1ms, max_backoff: 2ms}\n"),
				nil, Options{Metrics: metrics})
			_, _, err := serve(r, chat("m", "hi"))
			if tt.status == 0 && err != nil {
				t.Fatalf("not served: %v", err)
			}
			if tt.status != 0 {
				if e := apiErr(t, err); e.Status != tt.status {
					t.Errorf("status %d, want %d", e.Status, tt.status)
				}
			}
			if got := up.calls.Load(); got != tt.calls {
				t.Errorf("%d calls, want %d", got, tt.calls)
			}
			if got := testutil.ToFloat64(metrics.Retries.WithLabelValues("m", tt.retryWhat)); got != tt.retries {
				t.Errorf("retries_total{m,%s} = %v, want %v", tt.retryWhat, got, tt.retries)
			}
			if got := testutil.ToFloat64(metrics.Errors.WithLabelValues("m", tt.retryWhat)); got != tt.errors {
				t.Errorf("errors_total{m,%s} = %v, want %v", tt.retryWhat, got, tt.errors)
			}
		})
	}
}

// TestRetryAfter: a 503's Retry-After no longer than retry.max_retry_after is waited for
// and the call repeated; a longer one, or one the request budget cannot cover, is not, and
// the client gets the backend's Retry-After.
func TestRetryAfter(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name       string
		retryAfter string
		extra      string
		calls      int64
		wantAfter  time.Duration // 0: served
		logged     string
	}{
		{"within max_retry_after", "1", "    retry: {max_attempts: 2, max_retry_after: 3s}\n", 2, 0,
			"msg=retrying request_id=test model=m serving_model=m attempt=2 wait_ms=1000 "},
		{"past max_retry_after", "30", "    retry: {max_attempts: 3, max_retry_after: 2s}\n", 1, 30 * time.Second,
			`msg="not waiting for Retry-After longer than retry.max_retry_after" request_id=test model=m serving_model=m retry_after_ms=30000 max_retry_after_ms=2000`},
		{"past the request budget", "5", "    retry: {max_attempts: 3, max_retry_after: 10s}\n", 1, 5 * time.Second, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			up := newUpstream(t)
			up.fail(failure{status: 503, retryAfter: tt.retryAfter})
			var buf bytes.Buffer
			var mu sync.Mutex
			r := buildRouter(t, "routing: {request_budget: 3s}\nmodels:\n"+upstreamModel("m", up, "    timeout: 3s\n"+tt.extra), nil, Options{})
			log := slog.New(slog.NewTextHandler(&lockedWriter{w: &buf, mu: &mu}, nil))
			_, _, err := serveOn(NewPipeline(NewHolder(r), PipelineOptions{Logger: log}), chat("m", "hi"))
			if tt.wantAfter == 0 {
				if err != nil {
					t.Fatalf("not served: %v", err)
				}
			} else if e := apiErr(t, err); e.Status != http.StatusBadGateway || e.RetryAfter != tt.wantAfter {
				t.Errorf("got %d Retry-After %v, want 502 with %v", e.Status, e.RetryAfter, tt.wantAfter)
			}
			if got := up.calls.Load(); got != tt.calls {
				t.Errorf("%d calls, want %d", got, tt.calls)
			}
			mu.Lock()
			defer mu.Unlock()
			if tt.logged != "" && !strings.Contains(buf.String(), tt.logged) {
				t.Errorf("log %q lacks %q", buf.String(), tt.logged)
			}
		})
	}
}

// TestFallbacks: a model that fails in a way another may cure hands the request to its
// fallbacks in order; a failure of the request itself does not.
func TestFallbacks(t *testing.T) {
	t.Parallel()
	a, b, c := newUpstream(t), newUpstream(t), newUpstream(t)
	metrics := telemetry.NewMetrics(prometheus.NewRegistry())
	r := buildRouter(t, "models:\n"+upstreamModel("a", a, "    fallbacks: [b, c]\n")+upstreamModel("b", b, "")+
		upstreamModel("c", c, "    exposed: false\n"), nil, Options{Metrics: metrics})

	a.fail(failure{status: 502})
	b.fail(failure{status: 500})
	_, rt, err := serve(r, chat("a", "hi"))
	if err != nil || rt.Model != "c" || rt.FallbackFrom != "a" {
		t.Fatalf("route %+v, %v; want c serving after a", rt, err)
	}
	if na, nb, nc := a.calls.Load(), b.calls.Load(), c.calls.Load(); na != 1 || nb != 1 || nc != 1 {
		t.Errorf("calls a %d, b %d, c %d; want one each, in order", na, nb, nc)
	}
	for _, l := range [][2]string{{"a", "b"}, {"b", "c"}} {
		if got := testutil.ToFloat64(metrics.Fallbacks.WithLabelValues(l[0], l[1], "upstream")); got != 1 {
			t.Errorf("fallbacks_total{%s,%s,upstream} = %v, want 1", l[0], l[1], got)
		}
	}
	// Served in the end: not a failed request.
	if n := testutil.CollectAndCount(metrics.Errors); n != 0 {
		t.Errorf("errors_total has %d series after a request that fell back and was served, want none", n)
	}
	// The same for a stream that falls back before its first event.
	a.fail(failure{status: 502})
	res, _, err := NewPipeline(NewHolder(r), PipelineOptions{}).Serve(context.Background(),
		&Request{ID: "test", Header: http.Header{}, Body: newBody(chatBody("a", "hi", true))})
	if err != nil {
		t.Fatalf("stream: %v", err)
	}
	drain(t, res.Stream)
	res.Close()
	if n := testutil.CollectAndCount(metrics.Errors); n != 0 {
		t.Errorf("errors_total has %d series after a stream that fell back and was served, want none", n)
	}

	// Every model fails: the client gets the last one's failure.
	a.fail(failure{status: 502})
	b.fail(failure{status: 503})
	c.fail(failure{status: 429})
	_, rt, err = serve(r, chat("a", "hi"))
	if e := apiErr(t, err); e.Status != http.StatusTooManyRequests || rt.Model != "c" || rt.FallbackFrom != "a" ||
		e.Message != `upstream model server for model "c" answered 429 Too Many Requests (request id test)` {
		t.Errorf("all failing: %d %q, route %+v", e.Status, e.Message, rt)
	}
	// One failed request, by the model that failed last.
	if n, got := testutil.CollectAndCount(metrics.Errors), testutil.ToFloat64(metrics.Errors.WithLabelValues("c", "rate_limited")); n != 1 || got != 1 {
		t.Errorf("errors_total: %d series, {c,rate_limited} = %v; want the one", n, got)
	}

	// A rejected request is the client's to fix: no fallback.
	a.fail(failure{status: 400})
	nb := b.calls.Load()
	_, rt, err = serve(r, chat("a", "hi"))
	if e := apiErr(t, err); e.Status != http.StatusBadRequest || rt.Model != "a" || rt.FallbackFrom != "" || b.calls.Load() != nb {
		t.Errorf("a 400: %d, route %+v, b called %d more times; want 400 from a and no fallback", e.Status, rt, b.calls.Load()-nb)
	}
}

func TestBackoff(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name         string
		initial, max time.Duration
		attempt      int
		ceiling      time.Duration
	}{
		{"the first retry", 100 * time.Millisecond, 2 * time.Second, 1, 100 * time.Millisecond},
		{"doubling", 100 * time.Millisecond, 2 * time.Second, 3, 400 * time.Millisecond},
		{"capped", 100 * time.Millisecond, 2 * time.Second, 6, 2 * time.Second},
		{"a shift past the int64 range", time.Second, 5 * time.Second, 80, 5 * time.Second},
		{"no delay at all", 0, 0, 1, 0},
	} {
		var seen bool
		for range 200 {
			d := backoff(tt.initial, tt.max, tt.attempt)
			if tt.ceiling == 0 {
				if d != 0 {
					t.Fatalf("%s: %v, want 0", tt.name, d)
				}
				continue
			}
			if d < 1 || d > tt.ceiling {
				t.Fatalf("%s: %v, want in (0, %v]", tt.name, d, tt.ceiling)
			}
			seen = seen || d < tt.ceiling
		}
		if tt.ceiling > 1 && !seen {
			t.Errorf("%s: 200 delays were all the ceiling: no jitter", tt.name)
		}
	}
}

func TestRetryableAndFallbackWorthy(t *testing.T) {
	t.Parallel()
	for kind, want := range map[provider.Kind][2]bool{
		provider.KindInternal: {false, false}, provider.KindConnect: {true, true}, provider.KindTLS: {false, false},
		provider.KindTimeout: {true, true}, provider.KindCanceled: {false, false}, provider.KindAuth: {false, false},
		provider.KindNotFound: {false, false}, provider.KindBadRequest: {false, false}, provider.KindRateLimited: {true, true},
		provider.KindUpstream: {true, true}, provider.KindProtocol: {false, true},
	} {
		err := error(&provider.Error{Kind: kind})
		if got := [2]bool{retryable(err), fallbackWorthy(err)}; got != want {
			t.Errorf("%s: retryable, fallbackWorthy = %v, want %v", kind, got, want)
		}
	}
	if retryable(errors.New("boom")) || fallbackWorthy(context.Canceled) {
		t.Error("an error that is no provider error is retried")
	}
}

// TestRequestBudget: whichever of routing.request_budget and the model's timeout passes
// first ends the call, and the log names it. A model called once whose timeout is the
// shorter needs no budget deadline of its own (model.timeoutFirst); one with retries or
// fallbacks keeps it, since its attempts together may outlast the budget.
func TestRequestBudget(t *testing.T) {
	t.Parallel()
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body) // then the server notices the caller leaving
		<-r.Context().Done()
	}))
	t.Cleanup(hang.Close)
	hung := &upstream{Server: hang}
	// A simulated model is bounded as a served one is (the demo configuration runs on it).
	sim := func(extra string) string {
		return "  - model_name: m\n    provider: {type: sim, sim: {first_token_latency: 20s}}\n" + extra
	}
	served := func(extra string) string { return upstreamModel("m", hung, extra) }
	for _, tt := range []struct {
		name         string
		budget       string
		model        string
		timeoutFirst bool
		logged       string
	}{
		{"the budget is shorter", "200ms", served("    timeout: 10s\n"), false, "routing.request_budget of 200ms passed"},
		{"the timeout is shorter", "10s", served("    timeout: 200ms\n"), true, "timeout of 200ms passed"},
		{"the timeout is shorter, with retries", "300ms", served("    timeout: 200ms\n    retry: {max_attempts: 3, initial_backoff: 1ms}\n"), false,
			"routing.request_budget of 300ms passed"},
		{"sim, the budget is shorter", "200ms", sim("    timeout: 10s\n"), false, "routing.request_budget of 200ms passed"},
		{"sim, the timeout is shorter", "10s", sim("    timeout: 200ms\n"), true, "timeout of 200ms passed"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var buf bytes.Buffer
			var mu sync.Mutex
			r := buildRouter(t, "routing: {request_budget: "+tt.budget+"}\nmodels:\n"+tt.model, nil, Options{})
			if got := r.models["m"].timeoutFirst; got != tt.timeoutFirst {
				t.Errorf("timeoutFirst = %v, want %v", got, tt.timeoutFirst)
			}
			log := slog.New(slog.NewTextHandler(&lockedWriter{w: &buf, mu: &mu}, nil))
			_, _, err := serveOn(NewPipeline(NewHolder(r), PipelineOptions{Logger: log}), chat("m", "hi"))
			if e := apiErr(t, err); e.Status != http.StatusGatewayTimeout {
				t.Errorf("status %d, want 504", e.Status)
			}
			mu.Lock()
			defer mu.Unlock()
			if !strings.Contains(buf.String(), tt.logged) {
				t.Errorf("log %q lacks %q", buf.String(), tt.logged)
			}
		})
	}
}
