package signal

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/semantic-router/semantic-router/internal/openai"
)

// agentRequest is a request as an agent sends it: a short question and n tool definitions,
// each with a description and a parameter schema of four properties.
func agentRequest(tb testing.TB, n int) *openai.ChatRequest {
	tb.Helper()
	var tools []string
	for i := range n {
		tools = append(tools, fmt.Sprintf(`{"type":"function","function":{"name":"tool_%d","description":"Looks up records of kind %d in the inventory service and returns them sorted by date.",`+
			`"parameters":{"type":"object","properties":{"query":{"type":"string","description":"free text to match"},"limit":{"type":"integer","description":"most results"},`+
			`"since":{"type":"string","description":"ISO date of the oldest record"},"fields":{"type":"array","items":{"type":"string"},"description":"fields to return"}},"required":["query"]}}}`, i, i))
	}
	body := `{"model":"auto","messages":[{"role":"user","content":"Which orders shipped late last week?"}],"tools":[` + strings.Join(tools, ",") + `]}`
	var req openai.ChatRequest
	if err := json.Unmarshal([]byte(body), &req); err != nil {
		tb.Fatal(err)
	}
	return &req
}

// BenchmarkPolicyOnTools is the policy signals (PII, jailbreak) on a request with tools: the
// tool definitions are read as system text.
func BenchmarkPolicyOnTools(b *testing.B) {
	s := newTestSet(b, `
models:
  - model_name: m
    provider: {type: sim}
signals:
  pii:
    - {name: pii}
  jailbreak:
    - {name: jailbreak}
`, SetOptions{})
	for _, n := range []int{0, 20} {
		req := agentRequest(b, n)
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, _, err := s.Evaluate(context.Background(), InputFromChat(req, nil), nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
