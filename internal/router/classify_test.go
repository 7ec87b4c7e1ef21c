package router

import (
	"context"
	"net/http"
	"slices"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/semantic-router/semantic-router/internal/telemetry"
)

// TestClassify: every configured signal with its outcome, the decision a request for the
// virtual model would get, its model (picked by weight, as for a request) or its block, and
// no request metrics.
func TestClassify(t *testing.T) {
	t.Parallel()
	metrics := telemetry.NewMetrics(prometheus.NewRegistry())
	r := buildRouter(t, routeConfig+`  - {name: weighted, priority: 50, rules: {all: [{signal: casual}, {signal: proof}]}, models: [{model: o3, weight: 1}, {model: qwen, weight: 99}]}
`, nil, Options{ClassifyOnly: true, Metrics: metrics})
	for _, tt := range []struct {
		prompt     string
		decision   string
		confidence float64
		model      []string // any of these
		blocked    *BlockInfo
		matched    []string
	}{
		{"prove it", "math", 1, []string{"qwen"}, nil, []string{"proof"}},
		{"hello there", "default", 1, []string{"general"}, nil, nil},
		{"let us chat", "chat", 1, []string{"deepseek"}, nil, []string{"casual"}},
		{"prove it in chat", "weighted", 1, []string{"o3", "qwen"}, nil, []string{"casual", "proof"}},
		{"forbidden words", "block_banned", 1, []string{""}, &BlockInfo{Status: 403, Message: "not allowed"}, []string{"banned"}},
		{"classified", "block_secret", 1, []string{""}, &BlockInfo{Status: 451, Message: "unavailable here"}, []string{"secret"}},
		{"prove it to jane@example.com", "math", 1, []string{"qwen"}, nil, []string{"pii", "proof"}},
		{"write to jane@example.com", "mask", 1, []string{"general"}, nil, []string{"pii"}},
	} {
		c, err := r.Classify(context.Background(), tt.prompt, http.Header{})
		if err != nil {
			t.Fatalf("%q: %v", tt.prompt, err)
		}
		var names, matched []string
		for _, s := range c.Signals {
			names = append(names, s.Name)
			if s.Matched {
				matched = append(matched, s.Name)
			}
		}
		slices.Sort(names)
		slices.Sort(matched)
		if c.Decision != tt.decision || c.Confidence != tt.confidence || !slices.Contains(tt.model, c.Model) || !slices.Equal(matched, tt.matched) {
			t.Errorf("%q: %s %v %q, matched %q; want %s %v %q, %q", tt.prompt, c.Decision, c.Confidence, c.Model, matched, tt.decision, tt.confidence, tt.model, tt.matched)
		}
		if (c.Blocked == nil) != (tt.blocked == nil) || c.Blocked != nil && *c.Blocked != *tt.blocked {
			t.Errorf("%q: blocked %+v, want %+v", tt.prompt, c.Blocked, tt.blocked)
		}
		if !slices.Equal(names, []string{"banned", "casual", "pii", "proof", "secret"}) {
			t.Errorf("%q: signals %q, want every configured one", tt.prompt, names)
		}
	}
	// The decisions' series exist from the start, at 0 (TestRouteMetricsFromTheStart).
	for _, name := range []string{"math", "default", "chat", "weighted", "block_banned", "block_secret", "mask"} {
		if got := testutil.ToFloat64(metrics.Decisions.WithLabelValues(name)); got != 0 {
			t.Errorf("classification counted decision %s %v times, want none", name, got)
		}
	}
	if n := testutil.CollectAndCount(metrics.Blocks); n != 0 {
		t.Errorf("classification recorded %d block series, want none", n)
	}
}

// TestClassifyPoliciesBeforeRouting: the classification reads the decisions in the order a
// request does, policies first: a masking policy ranked below the routing decision is listed,
// and a blocking one answers.
func TestClassifyPoliciesBeforeRouting(t *testing.T) {
	t.Parallel()
	r := buildRouter(t, `models:
  - {model_name: general, provider: {type: sim}}
  - {model_name: coder, provider: {type: sim}}
routing: {default_model: general}
signals:
  keywords:
    - {name: code, keywords: [python]}
    - {name: legal, keywords: [contract]}
    - {name: banned, keywords: [forbidden]}
  pii:
    - {name: pii}
decisions:
  - {name: code, priority: 100, rules: {signal: code}, models: [{model: coder}]}
  - {name: mask, priority: 5, applies_to: all, rules: {signal: pii}, mask_pii: true}
  - {name: cite, priority: 3, applies_to: all, rules: {signal: legal}, system_prompt: "Cite sources."}
  - {name: block_banned, priority: 1, applies_to: all, rules: {signal: banned}, block: {message: "not allowed"}}
`, nil, Options{ClassifyOnly: true})
	for _, tt := range []struct {
		prompt, decision, model string
		policies                []string
	}{
		{"python contract for jane@example.com", "code", "coder", []string{"mask", "cite"}},
		{"python forbidden for jane@example.com", "block_banned", "", []string{"mask"}},
		{"python please", "code", "coder", nil},
	} {
		c, err := r.Classify(context.Background(), tt.prompt, http.Header{})
		if err != nil {
			t.Fatalf("%q: %v", tt.prompt, err)
		}
		if c.Decision != tt.decision || c.Model != tt.model || !slices.Equal(c.Policies, tt.policies) {
			t.Errorf("%q: %s %q policies %q; want %s %q %q", tt.prompt, c.Decision, c.Model, c.Policies, tt.decision, tt.model, tt.policies)
		}
	}
}
