package router

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/telemetry"
)

const planConfig = `models:
  - model_name: qwen
    reasoning_family: qwen3
    provider: {type: openai_compatible, base_url: http://vllm.internal/v1, model: Qwen/Qwen3-8B, api_key: env.UP_KEY}
  - model_name: cloud
    provider: {type: openai_compatible, base_url: https://api.example.com/v1}
  - model_name: local
    provider: {type: openai_compatible, base_url: "http://[::1]:8000/v1", api_key: env.MISSING}
signals:
  keywords:
    - {name: proof, keywords: [prove]}
decisions:
  - {name: math, priority: 10, rules: {signal: proof}, models: [{model: qwen}], system_prompt: "Think step by step.", reasoning: {enabled: true}}
`

// TestPlanRewritesTheRequest: the body Envoy forwards names the upstream model, carries the
// decision's system prompt and reasoning switch, and asks a stream for its usage; Target
// and Authorization say where it goes and with which key.
func TestPlanRewritesTheRequest(t *testing.T) {
	t.Parallel()
	metrics := telemetry.NewMetrics(prometheus.NewRegistry())
	r := buildRouter(t, planConfig, map[string]string{"UP_KEY": "sk-up-0001"}, Options{PlanOnly: true, Metrics: metrics})
	p := NewPipeline(NewHolder(r), PipelineOptions{})
	for _, tt := range []struct {
		name, body string
		body2      string
		target     Target
		auth       string
		stream     bool
		explain    string
	}{
		{"routed, streamed", chatBody("auto", "prove it", true),
			`{"model":"Qwen/Qwen3-8B","messages":[{"role":"system","content":"Think step by step."},{"role":"user","content":"prove it"}],"stream":true,"stream_options":{"include_usage":true},"chat_template_kwargs":{"enable_thinking":true}}`,
			Target{Model: "qwen", Provider: "openai_compatible", UpstreamModel: "Qwen/Qwen3-8B", BaseURL: "http://vllm.internal/v1", Endpoint: "vllm.internal:80"},
			"Bearer sk-up-0001", true, "x-vsr-selected-model=qwen x-vsr-selected-decision=math x-vsr-selected-confidence=1.00"},
		{"direct, whole", `{"model":"cloud","messages":[{"role":"user","content":"hi"}],"seed":7}`,
			`{"model":"cloud","messages":[{"role":"user","content":"hi"}],"seed":7}`,
			Target{Model: "cloud", Provider: "openai_compatible", UpstreamModel: "cloud", BaseURL: "https://api.example.com/v1", Endpoint: "api.example.com:443"},
			"", false, "x-vsr-selected-model=cloud"},
		{"a stream that asked for usage, a key Envoy holds", `{"model":"local","messages":[{"role":"user","content":"hi"}],"stream":true,"stream_options":{"include_usage":true}}`,
			`{"model":"local","messages":[{"role":"user","content":"hi"}],"stream":true,"stream_options":{"include_usage":true}}`,
			Target{Model: "local", Provider: "openai_compatible", UpstreamModel: "local", BaseURL: "http://[::1]:8000/v1", Endpoint: "[::1]:8000"},
			"", true, "x-vsr-selected-model=local"},
	} {
		h := bearer("sk-client")
		pl, trail, err := p.Plan(context.Background(), &Request{ID: "p1", Header: h, Body: newBody(tt.body)})
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if string(pl.Body) != tt.body2 {
			t.Errorf("%s: body\n got %s\nwant %s", tt.name, pl.Body, tt.body2)
		}
		if pl.Target != tt.target || pl.Authorization != tt.auth || pl.Stream != tt.stream || pl.Trace != nil {
			t.Errorf("%s: target %+v, authorization %q, stream %v, trace %v; want %+v, %q, %v, none", tt.name, pl.Target, pl.Authorization, pl.Stream, pl.Trace, tt.target, tt.auth, tt.stream)
		}
		if got := joinHeaders(pl.Explain()); got != tt.explain {
			t.Errorf("%s: explain %q, want %q", tt.name, got, tt.explain)
		}
		if trail.Route.Model != tt.target.Model {
			t.Errorf("%s: Trail.Route.Model %q", tt.name, trail.Route.Model)
		}
		pl.Done(http.StatusOK, nil, nil)
	}
	for model, want := range map[string]float64{"qwen": 1, "cloud": 1, "local": 1} {
		if got := testutil.ToFloat64(metrics.Planned.WithLabelValues(model)); got != want {
			t.Errorf("planned_requests_total{%s} = %v, want %v", model, got, want)
		}
	}
}

func joinHeaders(kv [][2]string) string {
	var parts []string
	for _, h := range kv {
		parts = append(parts, h[0]+"="+h[1])
	}
	return strings.Join(parts, " ")
}

// TestPlanWithoutPlanOnly: a router that opened no model key plans requests without an
// Authorization.
func TestPlanWithoutPlanOnly(t *testing.T) {
	t.Parallel()
	r := buildRouter(t, planConfig, map[string]string{"UP_KEY": "sk-up-0001"}, Options{ClassifyOnly: true})
	pl, _, err := NewPipeline(NewHolder(r), PipelineOptions{}).Plan(context.Background(),
		&Request{ID: "p", Header: http.Header{}, Body: newBody(chatBody("qwen", "hi", false))})
	if err != nil {
		t.Fatal(err)
	}
	defer pl.Done(200, nil, nil)
	if pl.Authorization != "" {
		t.Errorf("Authorization = %q, want none", pl.Authorization)
	}
}

// TestPlanCarriesTheTrace: with a propagator, the plan carries the request's trace
// context for the upstream request.
func TestPlanCarriesTheTrace(t *testing.T) {
	t.Parallel()
	r := buildRouter(t, planConfig, nil, Options{PlanOnly: true})
	tracing, _ := newTracing(t)
	p := NewPipeline(NewHolder(r), PipelineOptions{Tracing: tracing})
	ctx, span := tracing.Tracer().Start(context.Background(), "envoy request")
	defer span.End()
	pl, _, err := p.Plan(ctx, &Request{ID: "p", Header: http.Header{}, Body: newBody(chatBody("cloud", "hi", false))})
	if err != nil {
		t.Fatal(err)
	}
	defer pl.Done(200, nil, nil)
	sc := span.SpanContext()
	want := "00-" + sc.TraceID().String() + "-" + sc.SpanID().String() + "-01"
	if len(pl.Trace) != 1 || pl.Trace["traceparent"] != want {
		t.Errorf("Trace = %v, want traceparent %s", pl.Trace, want)
	}
}

// TestPlanDone: Done charges the usage to the token limits and the token metric, frees the
// slot, and reports the endpoint's outcome: reported 503s eject it.
func TestPlanDone(t *testing.T) {
	t.Parallel()
	metrics := telemetry.NewMetrics(prometheus.NewRegistry())
	r := buildRouter(t, `admission:
  api_keys: [{name: team, key: env.TEAM_KEY, tokens_per_minute: 100}]
  max_in_flight: 1
models:
`+endpointModel("m", "http://a.internal:8000", "http://b.internal:8000", ""), map[string]string{"TEAM_KEY": "sk-team", "KEY": "sk-up-0001"},
		Options{PlanOnly: true, Metrics: metrics})
	h := NewHolder(r)
	p := NewPipeline(h, PipelineOptions{})
	plan := func() (*Plan, error) {
		pl, _, err := p.Plan(context.Background(), &Request{ID: "p", Header: bearer("sk-team"), Body: newBody(chatBody("m", "hi", false))})
		return pl, err
	}

	// Two 503s from b eject it: every plan after goes to a.
	seen := map[string]int{}
	for range 4 {
		pl, err := plan()
		if err != nil {
			t.Fatal(err)
		}
		seen[pl.Target.Endpoint]++
		if pl.Target.Endpoint == "b.internal:8000" {
			pl.Done(http.StatusServiceUnavailable, nil, nil)
		} else {
			pl.Done(http.StatusOK, nil, nil)
		}
	}
	if seen["a.internal:8000"] != 2 || seen["b.internal:8000"] != 2 {
		t.Fatalf("endpoints of four plans = %v, want two each", seen)
	}
	if st := endpointsOf(r, "m"); !st[1].Ejected || st[0].Ejected {
		t.Fatalf("endpoints = %+v, want b ejected", st)
	}

	// The slot is held until Done; the usage is charged then.
	held, err := plan()
	if err != nil || held.Target.Endpoint != "a.internal:8000" {
		t.Fatalf("plan with b ejected: %+v, %v", held, err)
	}
	_, err = plan()
	if e := apiErr(t, err); e.Status != http.StatusServiceUnavailable || e.Code != "overloaded" {
		t.Errorf("a plan while the slot is held: %d %s, want 503 overloaded", e.Status, e.Code)
	}
	held.Done(http.StatusOK, &openai.Usage{PromptTokens: 600, CompletionTokens: 500}, nil)
	if p, c := testutil.ToFloat64(metrics.Tokens.WithLabelValues("m", "prompt")), testutil.ToFloat64(metrics.Tokens.WithLabelValues("m", "completion")); p != 600 || c != 500 {
		t.Errorf("tokens_total{m} = %v prompt, %v completion; want 600 and 500", p, c)
	}
	_, err = plan()
	want := `API key "team" is at its limit of 100 tokens per minute; retry after the Retry-After header's seconds`
	if e := apiErr(t, err); e.Status != http.StatusTooManyRequests || e.Message != want {
		t.Errorf("after 1100 tokens: %d %q, want 429 %q", e.Status, e.Message, want)
	}
}

// TestPlanWithEveryEndpointEjected: the client gets 502 saying so, and the slot is freed.
func TestPlanWithEveryEndpointEjected(t *testing.T) {
	t.Parallel()
	r := buildRouter(t, "admission: {max_in_flight: 1}\nmodels:\n"+endpointModel("m", "http://a.internal", "http://b.internal", ""),
		map[string]string{"KEY": "sk-up-0001"}, Options{PlanOnly: true})
	p := NewPipeline(NewHolder(r), PipelineOptions{})
	for range 4 {
		pl, _, err := p.Plan(context.Background(), &Request{ID: "p", Header: http.Header{}, Body: newBody(chatBody("m", "hi", false))})
		if err != nil {
			t.Fatal(err)
		}
		pl.Done(0, nil, errors.New("upstream connect error or disconnect/reset before headers"))
	}
	for range 2 {
		_, trail, err := p.Plan(context.Background(), &Request{ID: "p9", Header: http.Header{}, Body: newBody(chatBody("m", "hi", false))})
		e := apiErr(t, err)
		if e.Status != http.StatusBadGateway || e.Message != `every endpoint of model "m" is ejected after consecutive failures; the first returns in 1h0m0s (request id p9)` || e.RetryAfter != time.Hour {
			t.Errorf("%d %q", e.Status, e.Message)
		}
		if trail.Route.Model != "m" {
			t.Errorf("Trail.Route = %+v", trail.Route)
		}
	}
}

// TestPlanHoldsTheRouter: a router replaced while a planned request runs is closed only
// when the plan is Done.
func TestPlanHoldsTheRouter(t *testing.T) {
	t.Parallel()
	h := NewHolder(buildRouter(t, planConfig, nil, Options{PlanOnly: true}))
	pl, _, err := NewPipeline(h, PipelineOptions{}).Plan(context.Background(),
		&Request{ID: "p", Header: http.Header{}, Body: newBody(chatBody("cloud", "hi", false))})
	if err != nil {
		t.Fatal(err)
	}
	drained := h.Swap(buildRouter(t, simModels, nil, Options{}))
	if closed(drained) {
		t.Fatal("the router was closed under a planned request")
	}
	pl.Done(http.StatusOK, nil, nil)
	if !closed(drained) {
		t.Error("the router was not closed after Done")
	}
}

func TestHostPort(t *testing.T) {
	t.Parallel()
	for base, want := range map[string]string{
		"http://vllm:8000/v1":       "vllm:8000",
		"http://vllm/v1":            "vllm:80",
		"https://api.openai.com/v1": "api.openai.com:443",
		"HTTPS://api.openai.com/v1": "api.openai.com:443",
		"http://[fd00::1]/v1":       "[fd00::1]:80",
		"https://[fd00::1]:8443/v1": "[fd00::1]:8443",
		"vllm:8000/v1":              "",
		"/v1":                       "",
		"http://%zz":                "",
	} {
		if got := hostPort(base); got != want {
			t.Errorf("hostPort(%q) = %q, want %q", base, got, want)
		}
	}
}
