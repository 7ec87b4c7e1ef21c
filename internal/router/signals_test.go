package router

import (
	"slices"
	"strings"
	"testing"

	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/openai"
)

// TestONNXEmbedderErrorsStopStartup: a router whose ONNX model cannot be loaded refuses to
// start and says why (in a build without -tags onnx, that the support is missing).
func TestONNXEmbedderErrorsStopStartup(t *testing.T) {
	t.Parallel()
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

// TestMaskingReadsEveryMessage: a decision with mask_pii masks each message that holds
// personal data (the policy signals read every message: internal/signal's
// TestPoliciesReadEveryMessage), also where only normalisation shows it.
func TestMaskingReadsEveryMessage(t *testing.T) {
	t.Parallel()
	cfg, err := config.Parse([]byte(`
models:
  - model_name: m
    provider: {type: sim}
  - model_name: k8s
    provider: {type: sim}
signals:
  pii:
    - {name: pii, types: [ssn, email]}
  jailbreak:
    - {name: jailbreak}
  keywords:
    - {name: kube, keywords: [kubernetes]}
decisions:
  - {name: block_jailbreak, priority: 100, applies_to: all, rules: {signal: jailbreak}, block: {message: "not sent"}}
  - {name: mask, priority: 50, applies_to: all, rules: {signal: pii}, mask_pii: true, models: [{model: m}]}
  - {name: kube, priority: 10, rules: {signal: kube}, models: [{model: k8s}]}
`))
	if err != nil {
		t.Fatal(err)
	}
	r, err := New(cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Close() })
	msg := func(role, text string) openai.Message {
		return openai.Message{Role: role, Content: openai.TextContent(text)}
	}
	req := &openai.ChatRequest{Model: "auto", Messages: []openai.Message{
		msg("system", "Customer email: jane.doe@example.com"),
		msg("user", "my SSN is 123-45-678\u200b9"),
		msg("tool", "nothing personal here"),
		msg("user", "and 1\u03322\u03323\u0332-4\u03325\u0332-6\u03327\u03328\u03329\u0332 too"),
		msg("user", "Reply to bob@example.org please"),
	}}
	_, out, rt, err := routeOf(r, req, nil)
	if err != nil || rt.Decision != "mask" {
		t.Fatalf("route: decision %q, err %v", rt.Decision, err)
	}
	var texts []string
	for _, m := range out.Messages {
		texts = append(texts, m.Content.String())
	}
	want := []string{"Customer email: [EMAIL]", "my SSN is [SSN]", "nothing personal here", "and [SSN] too", "Reply to [EMAIL] please"}
	if !slices.Equal(texts, want) {
		t.Errorf("masked messages = %q, want %q", texts, want)
	}
}
