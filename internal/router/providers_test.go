package router

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/provider/bedrock"
	"github.com/semantic-router/semantic-router/internal/provider/openaicompat"
	"github.com/semantic-router/semantic-router/internal/provider/providertest"
	"github.com/semantic-router/semantic-router/internal/provider/sim"
	"github.com/semantic-router/semantic-router/internal/provider/vertex"
	"github.com/semantic-router/semantic-router/internal/telemetry"
)

// TestEveryProviderType: each provider type is built from its configuration and reaches
// its service with the upstream model id and the credentials the references name.
func TestEveryProviderType(t *testing.T) {
	t.Parallel()
	script := providertest.NewScript()
	oa := providertest.NewOpenAIFake(t, script, "sk-openai")
	bf := providertest.NewBedrockFake(t, script, "eu-west-1", aws.Credentials{AccessKeyID: "AKIDROUTER", SecretAccessKey: "aws-secret", SessionToken: "aws-session"})
	vf := providertest.NewVertexFake(t, script, "my-project", "us-central1")
	env := map[string]string{"OA_KEY": "sk-openai", "AKID": "AKIDROUTER", "SECRET": "aws-secret", "SESSION": "aws-session",
		"SA": base64.StdEncoding.EncodeToString(vf.NewKey(t))}
	r := buildRouter(t, `models:
  - model_name: oa
    provider: {type: openai_compatible, base_url: `+oa.Server.URL+`/v1, model: org/oa-model, api_key: env.OA_KEY}
  - model_name: pool
    provider:
      type: openai_compatible
      model: org/pool-model
      api_key: env.OA_KEY
      endpoints: [{base_url: `+oa.Server.URL+`/v1}, {base_url: `+strings.Replace(oa.Server.URL, "127.0.0.1", "localhost", 1)+`/v1}]
  - model_name: br
    provider: {type: bedrock, region: eu-west-1, base_url: `+bf.Server.URL+`, model: anthropic.claude-x, access_key_id: env.AKID, secret_access_key: env.SECRET, session_token: env.SESSION}
  - model_name: vx
    provider: {type: vertex, project: my-project, location: us-central1, base_url: `+vf.Server.URL+`, model: gemini-x, service_account_key: env.SA}
  - model_name: sm
    provider: {type: sim, sim: {first_token_latency: 1ms, token_latency: 1ms, reply: "simulated {model}"}}
`, env, Options{})
	for _, tt := range []struct {
		model, upstream, credential, answer string
		check                               func(any) bool
	}{
		{"oa", "org/oa-model", "sk-openai", "Hello from the fake.", func(p any) bool { _, ok := p.(*openaicompat.Client); return ok }},
		{"pool", "org/pool-model", "sk-openai", "Hello from the fake.", func(p any) bool { _, ok := p.(*balanced); return ok }},
		{"br", "anthropic.claude-x", "AKIDROUTER", "Hello from the fake.", func(p any) bool { _, ok := p.(*bedrock.Client); return ok }},
		{"vx", "gemini-x", "", "Hello from the fake.", func(p any) bool { _, ok := p.(*vertex.Client); return ok }},
		{"sm", "", "", "simulated sm", func(p any) bool { _, ok := p.(*sim.Model); return ok }},
	} {
		if p := r.models[tt.model].provider; !tt.check(p) {
			t.Errorf("%s: provider %T", tt.model, p)
		}
		before := len(script.Seen())
		resp, _, err := serve(r, chat(tt.model, "hi"))
		if err != nil {
			t.Errorf("%s: %v", tt.model, err)
			continue
		}
		var answer openai.ChatResponse
		if err := json.Unmarshal(resp.Body, &answer); err != nil || answer.Choices[0].Message.Content.String() != tt.answer {
			t.Errorf("%s: answer %s, %v; want %q", tt.model, resp.Body, err, tt.answer)
		}
		if tt.upstream == "" {
			continue
		}
		seen, _ := script.Last()
		if len(script.Seen()) != before+1 || seen.Model != tt.upstream || (tt.credential != "" && seen.Credential != tt.credential) ||
			(tt.model == "vx" && vf.KeyOf(seen.Credential) == "") {
			t.Errorf("%s: the service saw model %q with credential %q; want %q with %q", tt.model, seen.Model, seen.Credential, tt.upstream, tt.credential)
		}
	}
}

// TestProviderErrors: a CA bundle or credential that cannot be used stops the model's
// registration with the field named; a type without a provider is refused.
func TestProviderErrors(t *testing.T) {
	t.Parallel()
	const notFound = " (names are case-sensitive and must match the Secret key exactly): secret not found"
	for _, tt := range []struct {
		name, provider string
		want           string
	}{
		{"a CA bundle that holds no certificate", "{type: openai_compatible, base_url: https://a.internal/v1, ca_cert_pem: env.CA}",
			`model "m": provider.ca_cert_pem: no PEM certificate found (expected -----BEGIN CERTIFICATE-----)`},
		{"a CA bundle with a broken certificate", "{type: openai_compatible, base_url: https://a.internal/v1, ca_cert_pem: env.BAD_CERT}",
			`model "m": provider.ca_cert_pem: certificate 1 does not parse: x509: malformed certificate`},
		{"an unset CA bundle", "{type: openai_compatible, base_url: https://a.internal/v1, ca_cert_pem: env.NO_CA}",
			`models[0].provider.ca_cert_pem (line 3): env.NO_CA: environment variable NO_CA is not set` + notFound},
		{"an unset session token", "{type: bedrock, region: us-east-1, access_key_id: env.CA, secret_access_key: env.CA, session_token: env.NO_TOKEN}",
			`models[0].provider.session_token (line 3): env.NO_TOKEN: environment variable NO_TOKEN is not set` + notFound},
	} {
		cfg, err := config.Parse([]byte("models:\n  - model_name: m\n    provider: " + tt.provider + "\n"))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		env := map[string]string{"CA": "not a certificate", "BAD_CERT": "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"}
		_, err = New(cfg, Options{LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }})
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s: %v\nwant %s", tt.name, err, tt.want)
		}
	}
	r := newSimRouter(t)
	defer func() { _ = r.Close() }()
	if _, err := r.newProvider(config.Model{Name: "g", Provider: config.Provider{Type: "grpc"}}); err == nil || err.Error() != `provider type "grpc" is not supported` {
		t.Errorf("an unknown type: %v", err)
	}
}

// traceparentBackend is an OpenAI-compatible model server that records the traceparent
// header of each request it receives (empty when none), which got returns.
func traceparentBackend(t *testing.T) (url string, got func() []string) {
	t.Helper()
	var mu sync.Mutex
	var sent []string
	serveSim := sim.Handler(sim.Options{Model: "up"})
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		sent = append(sent, r.Header.Get("Traceparent"))
		mu.Unlock()
		serveSim.ServeHTTP(w, r)
	}))
	t.Cleanup(backend.Close)
	return backend.URL, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(sent)
	}
}

// TestTraceContextPassesThroughWithoutTracing: with tracing off (a no-op tracer, the W3C
// propagator) the router starts no span of its own, and the caller's trace context reaches
// the model server as the caller sent it, so that the caller's and the server's spans still
// join; a request without one sends none.
func TestTraceContextPassesThroughWithoutTracing(t *testing.T) {
	t.Parallel()
	backend, got := traceparentBackend(t)
	tracing, err := telemetry.NewTracing(context.Background(), config.Tracing{}, "test", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := buildRouter(t, "models:\n  - {model_name: m, provider: {type: openai_compatible, base_url: "+backend+"/v1}}\n", nil, Options{Tracing: tracing})
	p := NewPipeline(NewHolder(r), PipelineOptions{Tracing: tracing})
	const parent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
	for _, h := range []http.Header{{"Traceparent": {parent}}, {}} {
		ctx, span := p.StartSpan(context.Background(), "POST /v1/chat/completions", h)
		res, _, err := p.Serve(ctx, &Request{ID: "x", Header: h, Body: newBody(chatBody("m", "hi", false))})
		if err != nil {
			t.Fatal(err)
		}
		res.Close()
		span.End()
	}
	if got := got(); len(got) != 2 || got[0] != parent || got[1] != "" {
		t.Errorf("traceparent at the backend = %q, want %q, then none", got, parent)
	}
}

// TestTraceContextReachesTheBackend: with tracing, the provider's transport passes the
// request's trace context on, so that the model server's spans join the trace.
func TestTraceContextReachesTheBackend(t *testing.T) {
	t.Parallel()
	backend, sent := traceparentBackend(t)
	tracing, exp := newTracing(t)
	r := buildRouter(t, "models:\n  - {model_name: m, provider: {type: openai_compatible, base_url: "+backend+"/v1}}\n", nil, Options{Tracing: tracing})
	p := NewPipeline(NewHolder(r), PipelineOptions{Tracing: tracing})
	ctx, span := tracing.Tracer().Start(context.Background(), "client")
	res, _, err := p.Serve(ctx, &Request{ID: "x", Header: http.Header{}, Body: newBody(chatBody("m", "hi", false))})
	if err != nil {
		t.Fatal(err)
	}
	res.Close()
	span.End()
	got := sent()
	trace := span.SpanContext().TraceID().String()
	if len(got) != 1 || !strings.HasPrefix(got[0], "00-"+trace+"-") {
		t.Fatalf("traceparent at the backend = %q, want one in trace %s", got, trace)
	}
	// The backend's parent is the router's upstream span.
	var upstreamSpan string
	for _, s := range exp.GetSpans() {
		if s.Name == "upstream" {
			upstreamSpan = s.SpanContext.SpanID().String()
		}
	}
	if want := "00-" + trace + "-" + upstreamSpan + "-01"; got[0] != want {
		t.Errorf("traceparent = %s, want %s (the upstream span)", got[0], want)
	}
}
