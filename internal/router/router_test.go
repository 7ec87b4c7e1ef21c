package router

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/telemetry"
)

// TestNewListsEveryFailure: New names every model it could not register, and every other
// problem, at once, each unreadable reference by its field path and line, logs a line per model, and touches no metric.
func TestNewListsEveryFailure(t *testing.T) {
	t.Parallel()
	cfg, err := config.Parse([]byte(`admission:
  api_keys: [{name: team, key: env.TEAM_KEY}]
models:
  - {model_name: a, provider: {type: openai_compatible, base_url: http://a.internal/v1, api_key: env.A_KEY}}
  - {model_name: b, provider: {type: bedrock, region: us-east-1, access_key_id: env.B_ID, secret_access_key: env.B_SECRET}}
  - {model_name: c, provider: {type: sim}}
  - {model_name: d, provider: {type: vertex, project: my-project, location: us-central1, service_account_key: env.D_SA}}
`))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	var mu sync.Mutex
	metrics := telemetry.NewMetrics(prometheus.NewRegistry())
	metrics.ModelRegistered.WithLabelValues("serving", "sim").Set(1)
	_, err = New(cfg, Options{Metrics: metrics, Logger: slog.New(slog.NewTextHandler(&lockedWriter{w: &buf, mu: &mu}, &slog.HandlerOptions{ReplaceAttr: dropTime})),
		LookupEnv: func(k string) (string, bool) { return "AKIDEXAMPLE", k == "B_ID" }})
	const notFound = " (names are case-sensitive and must match the Secret key exactly): secret not found"
	want := `models[0].provider.api_key (line 4): env.A_KEY: environment variable A_KEY is not set` + notFound + `
models[1].provider.secret_access_key (line 5): env.B_SECRET: environment variable B_SECRET is not set` + notFound + `
models[3].provider.service_account_key (line 7): env.D_SA: environment variable D_SA is not set` + notFound + `
admission.api_keys[0].key (line 2): env.TEAM_KEY: environment variable TEAM_KEY is not set` + notFound
	if err == nil || err.Error() != want {
		t.Errorf("New: %v\nwant %s", err, want)
	}
	mu.Lock()
	logged := buf.String()
	mu.Unlock()
	for _, line := range []string{
		`level=ERROR msg="model registration failed" model=a provider=openai_compatible error="model \"a\": models[0].provider.api_key env.A_KEY: environment variable A_KEY is not set` + notFound + `"`,
		`level=INFO msg="model registered" model=c provider=sim upstream_model=c base_url="" endpoints=0 exposed=true`,
		`level=ERROR msg="model registration failed" model=d provider=vertex`,
	} {
		if !strings.Contains(logged, line) {
			t.Errorf("log lacks %s:\n%s", line, logged)
		}
	}
	if n := testutil.CollectAndCount(metrics.ModelRegistered); n != 1 {
		t.Errorf("a refused router changed the registered-model gauge: %d series", n)
	}
}

// TestModelListings: the models clients may name, the models operators see, and the
// metric label of a requested name.
func TestModelListings(t *testing.T) {
	t.Parallel()
	up := newUpstream(t)
	up.failAlways(http.StatusInternalServerError)
	metrics := telemetry.NewMetrics(prometheus.NewRegistry())
	metrics.ModelRegistered.WithLabelValues("removed", "sim").Set(1)
	r := buildRouter(t, `routing: {virtual_model: router, default_model: zeta}
models:
  - {model_name: zeta, provider: {type: sim}}
  - {model_name: hidden, exposed: false, provider: {type: openai_compatible, base_url: `+up.URL+`/v1, model: org/hidden-7b}}
  - {model_name: alpha, provider: {type: sim, model: alpha-sim}}
signals: {keywords: [{name: hard, keywords: [hard]}]}
decisions: [{name: hard, rules: {signal: hard}, models: [{model: hidden}]}]
`, nil, Options{Metrics: metrics})
	if got := strings.Join(r.ExposedModels(), " "); got != "router zeta alpha" {
		t.Errorf("ExposedModels = %q, want the virtual model, then the exposed ones in configuration order", got)
	}
	if _, _, err := serve(r, chat("router", "hi")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := serve(r, chat("router", "a hard one")); err == nil {
		t.Fatal("the failing model answered")
	}
	var names []string
	for _, mi := range r.Models() {
		names = append(names, mi.Name)
		switch mi.Name {
		case "hidden":
			f := mi.LastFailure
			if mi.Exposed || mi.IsDefault || !mi.Registered || mi.UpstreamID != "org/hidden-7b" || mi.BaseURL != up.URL+"/v1" || f == nil ||
				f.RequestID != "test" || f.Kind != "upstream" || f.Status != 500 || f.Detail != up.URL+"/v1 failed with 500: scripted failure" {
				t.Errorf("hidden: %+v, last failure %+v", mi, f)
			}
		case "zeta":
			if !mi.Exposed || !mi.IsDefault || mi.Provider != "sim" || mi.UpstreamID != "zeta" || mi.LastFailure != nil {
				t.Errorf("zeta: %+v", mi)
			}
		}
	}
	if got := strings.Join(names, " "); got != "alpha hidden zeta" {
		t.Errorf("Models() names = %q, want them sorted", got)
	}
	for name, want := range map[string]string{"router": "router", "zeta": "zeta", "hidden": "hidden", "auto": "unknown", "gpt-9": "unknown", "": "unknown"} {
		if got := r.MetricModel(name); got != want {
			t.Errorf("MetricModel(%q) = %q, want %q", name, got, want)
		}
	}
	if n := testutil.CollectAndCount(metrics.ModelRegistered); n != 3 || testutil.ToFloat64(metrics.ModelRegistered.WithLabelValues("hidden", "openai_compatible")) != 1 {
		t.Errorf("registered-model gauge: %d series, want the 3 models of the router that serves", n)
	}
	if r.Config() != r.cfg {
		t.Error("Config() is not the router's configuration")
	}
	if ok := testutil.CollectAndCount(metrics.UpstreamDuration); ok != 2 {
		t.Errorf("upstream duration series = %d, want zeta ok and hidden upstream", ok)
	}
}

// TestModelsWithoutProviders: a router that routes only registers no provider, and says so.
func TestModelsWithoutProviders(t *testing.T) {
	t.Parallel()
	r := buildRouter(t, "models:\n  - {model_name: m, provider: {type: openai_compatible, base_url: http://m.internal/v1, api_key: env.UNSET}}\n",
		nil, Options{ClassifyOnly: true})
	if mi := r.Models(); len(mi) != 1 || mi[0].Registered {
		t.Errorf("Models() = %+v, want m unregistered", mi)
	}
}

// TestAnswersAreRedacted: a credential of the configuration that an answer echoes is
// redacted before the client gets it, and the answer's usage is counted.
func TestAnswersAreRedacted(t *testing.T) {
	t.Parallel()
	metrics := telemetry.NewMetrics(prometheus.NewRegistry())
	r := buildRouter(t, "admission: {api_keys: [{name: team, key: env.TEAM_KEY}]}\n"+simModels,
		map[string]string{"TEAM_KEY": "sk-team-0123456789"}, Options{Metrics: metrics})
	p := NewPipeline(NewHolder(r), PipelineOptions{})
	res, _, err := p.Serve(t.Context(), &Request{ID: "x", Header: bearer("sk-team-0123456789"),
		Body: newBody(chatBody("m", "repeat sk-team-0123456789", false))})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	var answer openai.ChatResponse
	if err := json.Unmarshal(res.Response.Body, &answer); err != nil {
		t.Fatal(err)
	}
	if got := answer.Choices[0].Message.Content.String(); got != "This is m answering: repeat [redacted]" {
		t.Errorf("answer %q, want the key redacted", got)
	}
	if got := testutil.ToFloat64(metrics.Tokens.WithLabelValues("m", "completion")); got != float64(res.Response.Usage.CompletionTokens) || got == 0 {
		t.Errorf("tokens_total{m,completion} = %v, want the answer's %d", got, res.Response.Usage.CompletionTokens)
	}
}
