package faults

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/logtest"
	"github.com/semantic-router/semantic-router/internal/redact"
	"github.com/semantic-router/semantic-router/internal/router"
	"github.com/semantic-router/semantic-router/internal/server"
	"github.com/semantic-router/semantic-router/internal/telemetry"
)

// harness is a router built as the program builds it: a JSON log through the redacting
// handler, env references resolved from env, the inference listener and the management API.
type harness struct {
	inference, management string
	logs                  *logtest.Buffer
}

func startHarness(t *testing.T, yaml string, env map[string]string) *harness {
	t.Helper()
	cfg, err := config.Parse([]byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{logs: &logtest.Buffer{}}
	red := redact.New()
	log := slog.New(redact.Handler(slog.NewJSONHandler(h.logs, nil), red))
	metrics := telemetry.NewMetrics(prometheus.NewRegistry())
	rt, err := router.New(cfg, router.Options{Logger: log, Metrics: metrics, Redactor: red,
		LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = rt.Close() })
	src := router.NewHolder(rt)
	inf := httptest.NewServer(server.NewInference(router.NewPipeline(src, router.PipelineOptions{Logger: log}), log, metrics))
	mgmt := httptest.NewServer(server.NewManagement(src, &server.Readiness{}, inf.URL, log, nil))
	t.Cleanup(inf.Close)
	t.Cleanup(mgmt.Close)
	h.inference, h.management = inf.URL, mgmt.URL
	return h
}

// TestHungEndpointIsEjected: an endpoint that the router gives up on at first_token_timeout
// or stream_idle_timeout is failing, not merely slow to a client that left, and so is one
// whose events the router refuses: after the configured consecutive failures it is ejected
// and gets no more calls.
func TestHungEndpointIsEjected(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		script    fault
		timeout   string
		wantFirst int    // the status of the calls that reach the endpoint
		wantIn    string // in their body or last event
	}{
		{"no first event", hang, "first_token_timeout: 500ms", 504, "sent no first event in time"},
		{"silent mid-stream", silentAfter, "stream_idle_timeout: 150ms", 200, "stopped sending events in the middle of the stream"},
		{"an event that is not JSON", notJSON, "timeout: 10s", 200, "sent a malformed stream"},
		{"a first event that is not JSON", notJSONFirst, "timeout: 10s", 502, "sent a malformed stream"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			be := newBadBackend(t, tt.script)
			h := startHarness(t, fmt.Sprintf(`management: {auth: disabled}
models:
  - model_name: primary
    %s
    provider:
      type: openai_compatible
      model: up
      endpoints: [{base_url: %s/v1}]
      outlier_detection: {consecutive_failures: 2, ejection_time: 1h}
`, tt.timeout, be.URL), nil)
			for i := range 2 {
				o := call(t, h.inference, true)
				got := o.body + strings.Join(o.events, "\n")
				if o.status != tt.wantFirst || !strings.Contains(got, tt.wantIn) {
					t.Fatalf("call %d: %d %q, want %d with %q", i, o.status, got, tt.wantFirst, tt.wantIn)
				}
			}
			o := call(t, h.inference, true)
			// Ejected for an hour: the client is told when the first endpoint returns.
			if o.status != 502 || !strings.Contains(o.body, `every endpoint of model \"primary\" is ejected after consecutive failures; the first returns in 1h0m0s (request id `) ||
				o.retry != "3600" {
				t.Errorf("after two failures: %d %s (Retry-After %q), want 502 naming the ejection and its end, Retry-After 3600", o.status, o.body, o.retry)
			}
			if n := be.calls.Load(); n != 2 {
				t.Errorf("the failing endpoint got %d calls, want 2", n)
			}
			if models := get(t, h.management+"/api/v1/models"); !strings.Contains(models, `"ejected":true`) {
				t.Errorf("/api/v1/models does not show the ejection: %s", models)
			}
		})
	}
}

// TestEchoingBackendLeaksNoKey: a backend that echoes the Authorization header it received,
// in an error (400, 401, 500, a mid-stream error event) or in its answer, gets the router's
// key into neither the client's response nor the log, streaming or not, with the upstream's
// detail exposed to clients or not.
func TestEchoingBackendLeaksNoKey(t *testing.T) {
	t.Parallel()
	const key = "sk-backend-SECRET-4c1e9a"
	for _, f := range []fault{echo400, echo401, echo500, echoStream, echoAnswer} {
		for _, expose := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s expose %v", f, expose), func(t *testing.T) {
				t.Parallel()
				be := newBadBackend(t, f)
				h := startHarness(t, fmt.Sprintf(`management: {auth: disabled}
routing: {expose_upstream_errors: %v}
models:
  - model_name: primary
    provider: {type: openai_compatible, base_url: %s/v1, model: up, api_key: env.BACKEND_KEY}
`, expose, be.URL), map[string]string{"BACKEND_KEY": key})
				var shown strings.Builder
				for _, stream := range []bool{false, true} {
					o := call(t, h.inference, stream)
					fmt.Fprintf(&shown, "%d %s %s\n", o.status, o.body, strings.Join(o.events, "\n"))
				}
				shown.WriteString(get(t, h.management+"/api/v1/models"))
				if strings.Contains(shown.String(), key) || strings.Contains(h.logs.String(), key) {
					t.Fatalf("the key leaked:\nclient: %s\nlogs: %s", shown.String(), h.logs)
				}
				// The echo did arrive, and was redacted where it was shown.
				if expose || f == echoAnswer {
					if !strings.Contains(shown.String(), "Bearer [redacted]") {
						t.Errorf("the relayed echo is not redacted but missing:\n%s", shown.String())
					}
				}
				if f != echoAnswer && !strings.Contains(h.logs.String(), "Bearer [redacted]") {
					t.Errorf("the log lacks the upstream's (redacted) message:\n%s", h.logs)
				}
			})
		}
	}
}

// TestClientErrorNamesNoInternals: the client's error says the kind of failure, the model and
// the request id; the log line with that id says where and what to check.
func TestClientErrorNamesNoInternals(t *testing.T) {
	t.Parallel()
	be := newBadBackend(t, status500)
	be401 := newBadBackend(t, echo401)
	h := startHarness(t, fmt.Sprintf(`management: {auth: disabled}
models:
  - model_name: primary
    provider: {type: openai_compatible, base_url: %s/v1, model: up, api_key: env.BACKEND_KEY}
  - model_name: other
    provider: {type: openai_compatible, base_url: %s/v1, model: up}
`, be401.URL, be.URL), map[string]string{"BACKEND_KEY": "sk-backend-SECRET-77"})
	o := call(t, h.inference, false)
	want := fmt.Sprintf(`{"error":{"message":"upstream model server for model \"primary\" answered 401 Unauthorized (request id %s)","type":"authentication_error","param":null,"code":"upstream_auth_failed"}}`, o.id)
	if o.status != 401 || strings.TrimSpace(o.body) != want {
		t.Errorf("client error\n got %d %s\nwant 401 %s", o.status, o.body, want)
	}
	var line map[string]any
	for _, l := range strings.Split(h.logs.String(), "\n") {
		if strings.Contains(l, `"msg":"upstream failure"`) && strings.Contains(l, `"request_id":"`+o.id+`"`) {
			if err := json.Unmarshal([]byte(l), &line); err != nil {
				t.Fatal(err)
			}
		}
	}
	wantCause := fmt.Sprintf("%s/v1 rejected the API key with 401: check that env.BACKEND_KEY holds a current key for this server (env.VAR names are case-sensitive; restart after changing an env Secret): you sent Authorization: Bearer [redacted]", be401.URL)
	if line == nil || line["error"] != wantCause || line["model"] != "primary" || line["upstream_status"] != float64(401) {
		t.Errorf("the log line of request %s\n got %v\nwant error %q", o.id, line, wantCause)
	}
	if models := get(t, h.management+"/api/v1/models"); !strings.Contains(models, `"request_id":"`+o.id+`"`) || !strings.Contains(models, "env.BACKEND_KEY") {
		t.Errorf("/api/v1/models lacks the last failure: %s", models)
	}
}

// capture is a backend that records each request body and answers with next.
type capture struct {
	mu     sync.Mutex
	bodies []map[string]any
}

func (c *capture) handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var m map[string]any
		_ = json.Unmarshal(b, &m)
		c.mu.Lock()
		c.bodies = append(c.bodies, m)
		c.mu.Unlock()
		r.Body = io.NopCloser(bytes.NewReader(b))
		next.ServeHTTP(w, r)
	})
}

func (c *capture) last(t *testing.T) map[string]any {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.bodies) == 0 {
		t.Fatal("the backend got no request")
	}
	return c.bodies[len(c.bodies)-1]
}

// TestFallbackGetsItsOwnReasoningDialect: a decision's thinking switch is applied for each
// model tried, so a fallback of another reasoning family gets its own dialect and nothing of
// the first model's.
func TestFallbackGetsItsOwnReasoningDialect(t *testing.T) {
	t.Parallel()
	var qwen, deep, oai capture
	failing := func(c *capture) string {
		s := httptest.NewServer(c.handler(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(500)
			_, _ = io.WriteString(w, `{"error":{"message":"down"}}`)
		})))
		t.Cleanup(s.Close)
		return s.URL
	}
	good := newBadBackend(t, ok)
	oaiURL := httptest.NewServer(oai.handler(good.good))
	t.Cleanup(oaiURL.Close)
	h := startHarness(t, fmt.Sprintf(`models:
  - model_name: primary
    reasoning_family: qwen3
    provider: {type: openai_compatible, base_url: %s/v1, model: up}
    fallbacks: [deep, oai]
  - model_name: deep
    reasoning_family: deepseek
    provider: {type: openai_compatible, base_url: %s/v1, model: up}
  - model_name: oai
    reasoning_family: openai
    provider: {type: openai_compatible, base_url: %s/v1, model: up}
signals:
  keywords: [{name: proof, keywords: [prove]}]
decisions:
  - name: think
    rules: {signal: proof}
    models: [{model: primary}]
    reasoning: {enabled: true, effort: high}
`, failing(&qwen), failing(&deep), oaiURL.URL), nil)
	for _, stream := range []bool{false, true} {
		resp, err := http.Post(h.inference+"/v1/chat/completions", "application/json", strings.NewReader(
			fmt.Sprintf(`{"model":"auto","stream":%t,"messages":[{"role":"user","content":"prove it"}]}`, stream)))
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || resp.Header.Get("X-Vsr-Selected-Model") != "oai" {
			t.Fatalf("stream %v: %d served by %q", stream, resp.StatusCode, resp.Header.Get("X-Vsr-Selected-Model"))
		}
		for _, tt := range []struct {
			name string
			got  map[string]any
			kw   any
			eff  any
		}{
			{"qwen3", qwen.last(t), map[string]any{"enable_thinking": true}, nil},
			{"deepseek", deep.last(t), map[string]any{"thinking": true}, nil},
			{"openai", oai.last(t), nil, "high"},
		} {
			if fmt.Sprint(tt.got["chat_template_kwargs"]) != fmt.Sprint(tt.kw) || tt.got["reasoning_effort"] != tt.eff {
				t.Errorf("stream %v: %s got chat_template_kwargs %v and reasoning_effort %v, want %v and %v",
					stream, tt.name, tt.got["chat_template_kwargs"], tt.got["reasoning_effort"], tt.kw, tt.eff)
			}
		}
	}
}

// TestStreamTokensAreCharged: a stream's tokens count against tokens_per_minute whether or
// not the client asked for include_usage; the backend is always asked, and a client that did
// not ask sees no usage chunk.
func TestStreamTokensAreCharged(t *testing.T) {
	t.Parallel()
	var seen capture
	good := newBadBackend(t, ok)
	be := httptest.NewServer(seen.handler(good.good))
	t.Cleanup(be.Close)
	h := startHarness(t, fmt.Sprintf(`admission:
  model_limits: [{model: primary, tokens_per_minute: 5}]
models:
  - model_name: primary
    provider: {type: openai_compatible, base_url: %s/v1, model: up}
`, be.URL), nil)
	o := call(t, h.inference, true)
	if o.status != 200 || !o.finished {
		t.Fatalf("stream: %d %q", o.status, o.events)
	}
	for _, ev := range o.events {
		if strings.Contains(ev, `"usage":{`) {
			t.Errorf("a client that did not ask got the usage chunk: %s", ev)
		}
	}
	if so, _ := seen.last(t)["stream_options"].(map[string]any); so["include_usage"] != true {
		t.Errorf("the backend was not asked for usage: %v", seen.last(t))
	}
	if o := call(t, h.inference, true); o.status != 429 {
		t.Errorf("the next request after the stream spent the tokens: %d %s, want 429", o.status, o.body)
	}
}
