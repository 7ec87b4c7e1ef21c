package router

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/signal"
)

// TestConfigVocabulariesMatchTheSignals keeps the names the config validates against in step
// with what the extractors know.
func TestConfigVocabulariesMatchTheSignals(t *testing.T) {
	var domains []string
	for _, d := range signal.BuiltinDomains() {
		domains = append(domains, d.Name)
	}
	slices.Sort(domains)
	if !slices.Equal(domains, config.BuiltinDomains) {
		t.Errorf("config.BuiltinDomains = %v, signal knows %v", config.BuiltinDomains, domains)
	}
	var types []string
	for _, p := range signal.PIITypes() {
		types = append(types, string(p))
	}
	slices.Sort(types)
	if !slices.Equal(types, config.PIITypes) {
		t.Errorf("config.PIITypes = %v, signal knows %v", config.PIITypes, types)
	}
}

// TestEverySignalKind classifies prompts against one signal of each cheap kind and checks
// which match.
func TestEverySignalKind(t *testing.T) {
	cfg, err := config.Parse([]byte(`
models:
  - model_name: m
    provider: {type: sim}
signals:
  keywords:
    - {name: kw_any, keywords: [kubernetes, docker]}
    - {name: kw_all, operator: all, keywords: [kubernetes, docker]}
    - {name: kw_fuzzy, keywords: [kubernetes], fuzzy: 2}
  regex:
    - {name: ticket, patterns: ['\bJIRA-\d+\b']}
  language:
    - {name: german, languages: [de]}
  context_length:
    - {name: tiny, max_tokens: 8}
  complexity:
    - {name: hard, min_level: high}
  headers:
    - {name: premium, header: x-tier, values: [premium]}
  users:
    - {name: alice, users: [alice]}
`))
	if err != nil {
		t.Fatal(err)
	}
	r, err := New(cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = r.Close() }()
	tests := []struct {
		prompt string
		header http.Header
		want   string
	}{
		{"kubernetes and docker", nil, "kw_all,kw_any,kw_fuzzy,tiny"},
		{"my kubernets cluster is down", nil, "kw_fuzzy,tiny"},
		{"please look at JIRA-1234 today", nil, "ticket,tiny"},
		{"Wie kann ich heute Abend in Berlin gut und günstig essen gehen?", nil, "german"},
		{"hello", http.Header{"X-Tier": {"premium"}}, "premium,tiny"},
		{"First, derive the closed form of the recurrence T(n) = 2T(n/2) + n log n step by step, then prove by induction " +
			"that it holds for all n, and finally compare it with the bound from the master theorem and explain each step.", nil, "hard"},
	}
	for _, tt := range tests {
		c, err := r.Classify(context.Background(), tt.prompt, tt.header)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, s := range c.Signals {
			if s.Matched {
				got = append(got, s.Name)
			}
		}
		slices.Sort(got)
		if strings.Join(got, ",") != tt.want {
			t.Errorf("%q: matched %v, want %s", tt.prompt, got, tt.want)
		}
	}
	// The user signal reads the request's "user" field.
	in := r.inputOf(&openai.ChatRequest{User: "alice", Messages: []openai.Message{{Role: "user", Content: openai.TextContent("hi")}}}, nil)
	res, _, err := r.signals.evaluate(context.Background(), in, map[string]bool{"alice": true})
	if err != nil || len(res) != 1 || !res[0].Matched {
		t.Errorf("user signal: %+v %v", res, err)
	}
}

// TestONNXEmbedderErrorsStopStartup: a router whose ONNX model cannot be loaded refuses to
// start and says why (in a build without -tags onnx, that the support is missing).
func TestONNXEmbedderErrorsStopStartup(t *testing.T) {
	cfg, err := config.Parse([]byte(`
models:
  - model_name: m
    provider: {type: sim}
signals:
  embedder: {type: onnx, model_dir: /nonexistent/minilm, library: /nonexistent/libonnxruntime.so.1}
  embeddings:
    - {name: billing, examples: ["update my credit card"]}
`))
	if err != nil {
		t.Fatal(err)
	}
	_, err = New(cfg, Options{})
	if err == nil || !strings.HasPrefix(err.Error(), "signals: signals.embedder: onnx embedder: ") {
		t.Errorf("err = %v", err)
	}
}
