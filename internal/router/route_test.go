package router

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"go.opentelemetry.io/otel/codes"

	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/signal"
	"github.com/semantic-router/semantic-router/internal/telemetry"
)

const routeConfig = `models:
  - {model_name: general, provider: {type: sim}}
  - {model_name: qwen, reasoning_family: qwen3, provider: {type: sim}}
  - {model_name: deepseek, reasoning_family: deepseek, exposed: false, provider: {type: sim}}
  - {model_name: o3, reasoning_family: openai, provider: {type: sim}}
routing: {default_model: general}
signals:
  keywords:
    - {name: proof, keywords: [prove]}
    - {name: casual, keywords: [chat]}
    - {name: banned, keywords: [forbidden]}
    - {name: secret, keywords: [classified]}
  pii:
    - {name: pii}
decisions:
  - {name: block_banned, priority: 100, applies_to: all, rules: {signal: banned}, block: {message: "not allowed"}}
  - {name: block_secret, priority: 90, rules: {signal: secret}, block: {status: 451, message: "unavailable here"}}
  - {name: mask, priority: 80, applies_to: all, rules: {signal: pii}, mask_pii: true}
  - {name: math, priority: 10, rules: {signal: proof}, models: [{model: qwen}], system_prompt: "Be rigorous.", reasoning: {enabled: true}}
  - {name: chat, priority: 5, rules: {signal: casual}, models: [{model: deepseek}], reasoning: {enabled: false}}
`

// messagesOf is the role and text of each message, for comparison.
func messagesOf(req *openai.ChatRequest) string {
	var out []string
	for _, m := range req.Messages {
		out = append(out, m.Role+": "+m.Content.String())
	}
	return fmt.Sprint(out)
}

// TestRoute: the virtual model goes through the decisions (the default model when none
// matches, hidden models reachable); a named model goes straight to it, subject only to
// the decisions that apply to every request.
func TestRoute(t *testing.T) {
	t.Parallel()
	metrics := telemetry.NewMetrics(prometheus.NewRegistry())
	r := buildRouter(t, routeConfig, nil, Options{ClassifyOnly: true, Metrics: metrics})
	sys := func(text string) openai.Message {
		return openai.Message{Role: "system", Content: openai.TextContent(text)}
	}
	withSystem := chat("auto", "prove it")
	withSystem.Messages = append([]openai.Message{sys("You are a pirate.")}, withSystem.Messages...)
	for _, tt := range []struct {
		name            string
		req             *openai.ChatRequest
		model, decision string
		messages        string
		status          int
		msg, code       string
	}{
		{"a decision picks the model and adds its system prompt", chat("auto", "prove it"), "qwen", "math",
			"[system: Be rigorous. user: prove it]", 0, "", ""},
		{"the system prompt replaces the client's", withSystem, "qwen", "math", "[system: Be rigorous. user: prove it]", 0, "", ""},
		{"no decision matches", chat("auto", "hello"), "general", "default", "[user: hello]", 0, "", ""},
		{"a hidden model through routing", chat("auto", "let us chat"), "deepseek", "chat", "[user: let us chat]", 0, "", ""},
		{"a named model skips routing decisions", chat("qwen", "prove it"), "qwen", "", "[user: prove it]", 0, "", ""},
		{"a named model skips routing blocks", chat("general", "classified"), "general", "", "[user: classified]", 0, "", ""},
		{"a policy masks a named model's request", chat("o3", "mail jane@example.com"), "o3", "mask", "[user: mail [EMAIL]]", 0, "", ""},
		{"a policy masks every message", chat("auto", "hello jane@example.com", "and bob@example.org"), "general", "mask",
			"[user: hello [EMAIL] user: and [EMAIL]]", 0, "", ""},
		{"a policy masks a value cut into two user messages", chat("auto", "send it to j.okafor", "@brightpath-logistics.com please"), "general", "mask",
			"[user: send it to [EMAIL] user: [EMAIL] please]", 0, "", ""},
		{"a policy masks a cut value and the whole ones beside it", chat("auto", "mail bob@example.org or j.okafor", "@brightpath-logistics.com"), "general", "mask",
			"[user: mail [EMAIL] or [EMAIL] user: [EMAIL]]", 0, "", ""},
		{"a masking policy leaves routing to the decisions after it", chat("auto", "prove it to jane@example.com"), "qwen", "math",
			"[system: Be rigorous. user: prove it to [EMAIL]]", 0, "", ""},
		{"a policy blocks a named model's request", chat("qwen", "forbidden"), "", "block_banned", "", 403, "not allowed", "blocked_by_policy"},
		{"a routing block with its own status", chat("auto", "classified"), "", "block_secret", "", 451, "unavailable here", "blocked_by_policy"},
		{"a hidden model by name", chat("deepseek", "hi"), "", "", "", 404,
			`the model "deepseek" does not exist; GET /v1/models lists the models you can use, or send "auto" to let the router choose`, "model_not_found"},
	} {
		before := messagesOf(tt.req)
		m, out, rt, err := routeOf(r, tt.req, http.Header{})
		if tt.status != 0 {
			e := apiErr(t, err)
			if e.Status != tt.status || e.Message != tt.msg || e.Code != tt.code || m != nil || rt.Decision != tt.decision || rt.Model != "" {
				t.Errorf("%s: %d %q %s, route %+v; want %d %q %s", tt.name, e.Status, e.Message, e.Code, rt, tt.status, tt.msg, tt.code)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if m.cfg.Name != tt.model || rt.Model != tt.model || rt.Decision != tt.decision || messagesOf(out) != tt.messages {
			t.Errorf("%s: model %s, route %+v, messages %s; want %s, %s, %s", tt.name, m.cfg.Name, rt, messagesOf(out), tt.model, tt.decision, tt.messages)
		}
		if messagesOf(tt.req) != before {
			t.Errorf("%s: the client's request was changed: %s", tt.name, messagesOf(tt.req))
		}
	}
	for name, want := range map[string]float64{"math": 3, "mask": 5, "default": 1, "block_banned": 1} {
		if got := testutil.ToFloat64(metrics.Decisions.WithLabelValues(name)); got != want {
			t.Errorf("decisions_total{%s} = %v, want %v", name, got, want)
		}
	}
	if got := testutil.ToFloat64(metrics.Blocks.WithLabelValues("block_banned")); got != 1 {
		t.Errorf("blocks_total{block_banned} = %v, want 1", got)
	}
}

// TestForModel: the reasoning switch in each family's dialect, applied to a copy; a model
// of no family, or a decision without a switch, leaves the request as it is.
func TestForModel(t *testing.T) {
	t.Parallel()
	r := &Router{}
	on, off := &config.Reasoning{Enabled: true, Effort: "high"}, &config.Reasoning{Enabled: false, Effort: "medium"}
	model := func(family string) *model { return &model{cfg: config.Model{Name: family, ReasoningFamily: family}} }
	for _, tt := range []struct {
		family string
		rs     *config.Reasoning
		want   string
	}{
		{config.ReasoningQwen3, on, `"reasoning_effort":"","chat_template_kwargs":{"enable_thinking":true,"top_k":20}`},
		{config.ReasoningQwen3, off, `"reasoning_effort":"","chat_template_kwargs":{"enable_thinking":false,"top_k":20}`},
		{config.ReasoningDeepSeek, on, `"reasoning_effort":"","chat_template_kwargs":{"thinking":true,"top_k":20}`},
		{config.ReasoningEffort, on, `"reasoning_effort":"high","chat_template_kwargs":{"top_k":20}`},
		{config.ReasoningEffort, off, `"reasoning_effort":"low","chat_template_kwargs":{"top_k":20}`},
		{"", on, `"reasoning_effort":"","chat_template_kwargs":{"top_k":20}`},
		{config.ReasoningQwen3, nil, `"reasoning_effort":"","chat_template_kwargs":{"top_k":20}`},
	} {
		req := chat("auto", "hi")
		req.ChatTemplateKwargs = map[string]any{"top_k": 20}
		out := r.forModel(tt.rs, model(tt.family), req)
		b, _ := json.Marshal(struct {
			E string         `json:"reasoning_effort"`
			K map[string]any `json:"chat_template_kwargs"`
		}{out.ReasoningEffort, out.ChatTemplateKwargs})
		if got := string(b); got != "{"+tt.want+"}" {
			t.Errorf("%q %+v: %s, want {%s}", tt.family, tt.rs, got, tt.want)
		}
		if len(req.ChatTemplateKwargs) != 1 || req.ReasoningEffort != "" {
			t.Errorf("%q %+v: the request itself was changed: %+v", tt.family, tt.rs, req)
		}
		if (tt.family == "" || tt.rs == nil) && out != req {
			t.Errorf("%q %+v: a copy was made for nothing", tt.family, tt.rs)
		}
	}
}

// TestMaskContentParts: every part is masked, member by member, an image's URL too (it
// leaves with the request, and the policy read it); inline media stays as it came, but
// base64 that decodes to text is masked decoded and encoded again, and a data URL head on
// text ("data:;base64,…") hides nothing.
func TestMaskContentParts(t *testing.T) {
	t.Parallel()
	r := buildRouter(t, routeConfig, nil, Options{ClassifyOnly: true})
	var req openai.ChatRequest
	if err := json.Unmarshal([]byte(`{"model":"o3","messages":[{"role":"user","content":[
		{"type":"text","text":"write to jane@example.com"},
		{"type":"image_url","image_url":{"url":"https://img.example.com/jane@example.com.png"}},
		{"type":"image_url","image_url":{"url":"data:image/png;base64,amFuZUBleGFtcGxlLmNvbQ=="}},
		{"type":"image_url","image_url":{"url":"data:image/png;base64,iVBORw0KGgo="}},
		{"type":"image_url","image_url":{"url":"data:;base64,mail jane@example.com"}}]}]}`), &req); err != nil {
		t.Fatal(err)
	}
	_, out, _, err := routeOf(r, &req, http.Header{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(out.Messages[0].Content)
	want := `[{"text":"write to [EMAIL]","type":"text"},{"image_url":{"url":"https://img.example.com/[EMAIL]"},"type":"image_url"},` +
		`{"image_url":{"url":"data:image/png;base64,W0VNQUlMXQ=="},"type":"image_url"},` +
		`{"type":"image_url","image_url":{"url":"data:image/png;base64,iVBORw0KGgo="}},` +
		`{"image_url":{"url":"data:;base64,mail [EMAIL]"},"type":"image_url"}]`
	if string(b) != want {
		t.Errorf("content\n got %s\nwant %s", b, want)
	}
	if b, _ := json.Marshal(req.Messages[0].Content); string(b) == want {
		t.Error("the client's request was masked in place")
	}
}

// TestRouteSpan: the route span records the decision, and a refusal as an error.
func TestRouteSpan(t *testing.T) {
	t.Parallel()
	tracing, exp := newTracing(t)
	r := buildRouter(t, routeConfig, nil, Options{ClassifyOnly: true, Tracing: tracing})
	for _, req := range []*openai.ChatRequest{chat("auto", "prove it"), chat("gpt-9", "hi"), chat("auto", "forbidden")} {
		_ = r.tracedRoute(context.Background(), req, http.Header{}, &routed{})
	}
	spans := exp.GetSpans()
	if len(spans) != 3 {
		t.Fatalf("%d spans, want 3", len(spans))
	}
	for i, want := range []struct {
		attrs  string
		status codes.Code
	}{
		{"vsr.requested_model=auto vsr.selected_model=qwen vsr.decision=math vsr.confidence=1 vsr.signals=4", codes.Unset},
		{"vsr.requested_model=unknown vsr.selected_model= vsr.decision= vsr.confidence=0 vsr.signals=0", codes.Error},
		{"vsr.requested_model=auto vsr.selected_model= vsr.decision=block_banned vsr.confidence=1 vsr.signals=1", codes.Error},
	} {
		s := spans[i]
		var attrs []string
		for _, a := range s.Attributes {
			attrs = append(attrs, string(a.Key)+"="+a.Value.String())
		}
		if s.Name != "route" || fmt.Sprint(attrs) != "["+want.attrs+"]" || s.Status.Code != want.status {
			t.Errorf("span %d: %s %v %v; want route [%s] %v", i, s.Name, attrs, s.Status, want.attrs, want.status)
		}
	}
}

// TestRouteComputesWhatDecides: a request computes only the signals whose answers can still
// change its decision, cheap ones first; a debug request computes every one, for the header
// that lists the signals that matched.
func TestRouteComputesWhatDecides(t *testing.T) {
	t.Parallel()
	r := buildRouter(t, `models:
  - {model_name: general, provider: {type: sim}}
  - {model_name: tutor, provider: {type: sim}}
routing: {default_model: general}
signals:
  domains:
    - {name: stem, categories: [math]}
  keywords:
    - {name: brief, keywords: [briefly]}
decisions:
  - {name: brief_math, rules: {all: [{signal: stem}, {signal: brief}]}, models: [{model: tutor}]}
`, nil, Options{ClassifyOnly: true})
	debug := http.Header{"X-Vsr-Debug": {"true"}}
	tests := []struct {
		name        string
		prompt      string
		h           http.Header
		wantModel   string
		wantSignals string // computed: name=matched
	}{
		{"the keyword settles it", "What is the derivative of x squared?", http.Header{}, "general", "[brief=false]"},
		{"the domain is read once the keyword matched", "Briefly, what is the derivative of x squared?", http.Header{}, "tutor", "[brief=true stem=true]"},
		{"debug computes every signal", "What is the derivative of x squared?", debug, "general", "[brief=false stem=true]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, _, rt, err := routeOf(r, chat("auto", tt.prompt), tt.h)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, s := range rt.Signals {
				got = append(got, fmt.Sprintf("%s=%v", s.Name, s.Matched))
			}
			if rt.Model != tt.wantModel || fmt.Sprint(got) != tt.wantSignals {
				t.Errorf("model %s, signals %v; want %s, %s", rt.Model, got, tt.wantModel, tt.wantSignals)
			}
		})
	}
}

// TestMaskReachesEverythingThePolicyReads: a masking policy masks the personal data wherever
// the policies read it (signal.InputFromChat), the application's tools, functions and
// response schema aside, and leaves the client's request as it was.
func TestMaskReachesEverythingThePolicyReads(t *testing.T) {
	t.Parallel()
	r := buildRouter(t, routeConfig, nil, Options{ClassifyOnly: true})
	const body = `{"model":"o3","user":"jane@example.com","stop":["jane@example.com"],"metadata":{"owner":"jane@example.com"},
		"tool_choice":{"type":"function","function":{"name":"jane@example.com"}},"prediction":{"type":"content","content":"jane@example.com"},
		"chat_template_kwargs":{"note":"jane@example.com"},
		"tools":[{"type":"function","function":{"name":"send","description":"mails jane@example.com"}}],
		"response_format":{"type":"json_schema","json_schema":{"name":"s","description":"jane@example.com"}},
		"messages":[
		{"role":"user","name":"jane@example.com","content":[{"type":"input_text","text":"mail jane@example.com"},{"type":"text","text":"or bob@",
			"cache_control":{"type":"ephemeral"}},{"type":"text","text":"example.org"},{"type":"thinking","thinking":"jane@example.com"},
			{"type":"image_url","image_url":{"url":"https://img.example.com/a.png","detail":"jane@example.com"}}]},
		{"role":"assistant","content":null,"reasoning_content":"write to jane@example.com","tool_calls":[{"id":"jane@example.com","type":"function",
			"function":{"name":"jane@example.com","arguments":"{\"to\":\"jane@example.com\",\"n\":12345678901234567890,\"jane@example.com\":1}"}}]},
		{"role":"tool","tool_call_id":"jane@example.com","content":"sent"}]}`
	var req openai.ChatRequest
	if err := json.Unmarshal([]byte(body), &req); err != nil {
		t.Fatal(err)
	}
	if in := signal.InputFromChat(&req, nil); !strings.Contains(in.Text(signal.ScopeAll), "bob@example.org") {
		t.Fatalf("the policy does not read the joined parts: %q", in.Text(signal.ScopeAll))
	}
	before, _ := req.Encode()
	_, out, rt, err := routeOf(r, &req, http.Header{})
	if err != nil || rt.Decision != "mask" {
		t.Fatalf("route: %v, decision %q", err, rt.Decision)
	}
	sent, err := out.Encode()
	if err != nil {
		t.Fatal(err)
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(sent, &members); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"tools", "response_format"} {
		if !strings.Contains(string(members[k]), "jane@example.com") {
			t.Errorf("%s was rewritten: %s", k, members[k])
		}
		delete(members, k)
	}
	rest, _ := json.Marshal(members)
	if strings.Contains(string(rest), "@example") {
		t.Errorf("personal data left in %s", rest)
	}
	for _, want := range []string{`"name":"[EMAIL]"`, `"text":"mail [EMAIL]"`, `"text":"or [EMAIL]"`, `"reasoning_content":"write to [EMAIL]"`,
		`"arguments":"{\"[EMAIL]\":1,\"n\":12345678901234567890,\"to\":\"[EMAIL]\"}"`, `"url":"https://img.example.com/a.png"`} {
		if !strings.Contains(string(sent), want) {
			t.Errorf("sent %s\nlacks %s", sent, want)
		}
	}
	if after, _ := req.Encode(); string(after) != string(before) {
		t.Errorf("the client's request was changed:\n%s\n%s", before, after)
	}
}

// routeOf routes req as the pipeline does and returns what route wrote.
func routeOf(r *Router, req *openai.ChatRequest, h http.Header) (*model, *openai.ChatRequest, Route, error) {
	var rd routed
	err := r.route(context.Background(), req, h, &rd)
	return rd.m, rd.req, rd.rt, err
}
