package router

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"

	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/decision"
	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/signal"
)

// buildDecisions builds the signal extractors and the decision engine. Building the domain
// classifier and the jailbreak detector embeds their examples, a fraction of a second.
func (r *Router) buildDecisions() error {
	set, err := signal.NewSet(context.Background(), &r.cfg.Signals, signal.SetOptions{Secrets: secretOpener{r.secrets}, LocalModelReady: r.localModelReady})
	if err != nil {
		return fmt.Errorf("signals: %w", err)
	}
	r.signals = set
	r.engine = decision.New(r.cfg.Decisions, set.Cost)
	r.referenced = r.cfg.ReferencedSignals()
	var policies []config.Decision
	for _, d := range r.cfg.Decisions {
		if d.AppliesTo == "all" {
			policies = append(policies, d)
		}
	}
	r.policy = (&config.Config{Decisions: policies}).ReferencedSignals()
	for _, d := range r.cfg.Decisions {
		if d.MaskPII {
			if r.masker, err = signal.NewPIIDetector(signal.PIIOptions{}); err != nil {
				return fmt.Errorf("pii masking: %w", err)
			}
			break
		}
	}
	return nil
}

// tracedRoute is route in a "route" span that records the decision.
func (r *Router) tracedRoute(ctx context.Context, req *openai.ChatRequest, h http.Header) (*model, *openai.ChatRequest, Route, error) {
	ctx, span := r.tracer.Start(ctx, "route")
	defer span.End()
	m, out, rt, err := r.route(ctx, req, h)
	if !span.IsRecording() { // tracing off or not sampled: build no attributes
		return m, out, rt, err
	}
	span.SetAttributes(attribute.String("vsr.requested_model", r.MetricModel(req.Model)),
		attribute.String("vsr.selected_model", rt.Model), attribute.String("vsr.decision", rt.Decision),
		attribute.Float64("vsr.confidence", rt.Confidence), attribute.Int("vsr.signals", len(rt.Signals)))
	if err != nil {
		span.SetStatus(codes.Error, "refused")
	}
	return m, out, rt, err
}

// route picks the model for req and returns the request to send, with the matched decision's
// changes applied to a copy. A request for the virtual model goes through the signals and
// decisions (the default model when none matches); a request naming an exposed model goes
// to it, subject only to the decisions that apply to every request (policies).
func (r *Router) route(ctx context.Context, req *openai.ChatRequest, h http.Header) (*model, *openai.ChatRequest, Route, error) {
	direct := req.Model != r.cfg.Routing.VirtualModel
	var m *model
	if direct {
		var ok bool
		m, ok = r.models[req.Model]
		if !ok || !m.cfg.IsExposed() {
			e := refuse(KindModelNotFound, fmt.Sprintf("the model %q does not exist; GET /v1/models lists the models you can use, or send %q to let the router choose",
				req.Model, r.cfg.Routing.VirtualModel), nil)
			e.Param = "model"
			return nil, nil, Route{}, e
		}
	}
	names := r.referenced
	if direct {
		names = r.policy
	}
	var rt Route
	var res decision.Result
	matched := false
	var sigErr error
	if len(names) > 0 {
		// The engine computes the signals as it reads them, only those that can still change
		// the decision; a debug request computes every one, for the header that lists them.
		run := r.signals.Start(ctx, r.inputOf(req, h), names)
		if debugRequested(h.Get) {
			run.All()
		}
		res, matched = r.engine.Evaluate(run, direct)
		results, err := run.Finish()
		sigErr = err
		if err != nil {
			// The other signals still count; decisions that read a failed one take their on_error.
			logFor(ctx, r.log).Warn("signals that need embeddings failed", LogKeyError, err.Error())
		}
		r.observeSignals(results)
		rt.Signals = results
		r.countSignalErrors(results, res, matched)
	}
	if matched {
		d := res.Decision
		rt.Decision, rt.Confidence, rt.Headers = d.Name, res.Confidence, decisionHeaders(res)
		for _, p := range res.Modifiers {
			r.countDecision(p.Name, false)
		}
		r.countDecision(d.Name, d.Block != nil || res.Undetermined)
		if res.Undetermined {
			return nil, nil, rt, policyUnavailable(d.Name, res.Failed, sigErr)
		}
		if d.Block != nil {
			e := refuse(KindBlocked, d.Block.Message, nil)
			if d.Block.Status != 0 {
				e.Status = d.Block.Status
			}
			return nil, nil, rt, e
		}
		if !direct {
			m = r.modelFor(d)
		}
	} else if !direct {
		rt.Decision, rt.Confidence = "default", 1
		r.countDecision("default", false)
	}
	if m == nil {
		m = r.models[r.cfg.Routing.DefaultModel]
	}
	rt.Model = m.cfg.Name
	if matched {
		for _, p := range res.Modifiers {
			req = r.apply(p, req)
		}
		req = r.apply(res.Decision, req)
		rt.reasoning = res.Decision.Reasoning
	}
	return m, req, rt, nil
}

// decisionHeaders are the response headers of the matched decision and of the policies
// that modified the request before it; the decision's own win a clash.
func decisionHeaders(res decision.Result) map[string]string {
	if len(res.Modifiers) == 0 {
		return res.Decision.Headers
	}
	h := map[string]string{}
	for _, p := range res.Modifiers {
		maps.Copy(h, p.Headers)
	}
	maps.Copy(h, res.Decision.Headers)
	return h
}

// modelFor picks the model of a matched decision, by weight among its models; the default
// model when it names none. Requests and the classification API read decisions this one way.
func (r *Router) modelFor(d *config.Decision) *model {
	if m := r.models[decision.PickModel(d, nil)]; m != nil {
		return m
	}
	return r.models[r.cfg.Routing.DefaultModel]
}

// inputOf collects what the signals read (see signal.InputFromChat).
func (r *Router) inputOf(req *openai.ChatRequest, h http.Header) *signal.Input {
	return signal.InputFromChat(req, h)
}

// apply returns req with the decision's changes that hold for every model (masking, the
// system prompt), leaving req itself untouched: providers and the caller may still read it.
// The reasoning switch depends on the model; forModel applies it to each model tried.
func (r *Router) apply(d *config.Decision, req *openai.ChatRequest) *openai.ChatRequest {
	if !d.MaskPII && d.SystemPrompt == "" {
		return req
	}
	out := *req
	out.Messages = append([]openai.Message(nil), req.Messages...)
	if d.MaskPII && r.masker != nil {
		for i := range out.Messages {
			out.Messages[i] = maskMessage(r.masker, out.Messages[i])
		}
	}
	if d.SystemPrompt != "" {
		sys := openai.Message{Role: "system", Content: openai.TextContent(d.SystemPrompt)}
		if len(out.Messages) > 0 && out.Messages[0].Role == "system" {
			out.Messages[0] = sys
		} else {
			out.Messages = append([]openai.Message{sys}, out.Messages...)
		}
	}
	return &out
}

// forModel returns req with the decision's reasoning switch rs in m's dialect, leaving req
// untouched: a fallback of another family gets its own switch and nothing of the first
// model's.
func (r *Router) forModel(rs *config.Reasoning, m *model, req *openai.ChatRequest) *openai.ChatRequest {
	if rs == nil || m.cfg.ReasoningFamily == "" {
		return req
	}
	out := *req
	switch m.cfg.ReasoningFamily {
	case config.ReasoningQwen3, config.ReasoningDeepSeek:
		kw := maps.Clone(out.ChatTemplateKwargs)
		if kw == nil {
			kw = map[string]any{}
		}
		key := "enable_thinking"
		if m.cfg.ReasoningFamily == config.ReasoningDeepSeek {
			key = "thinking"
		}
		kw[key] = rs.Enabled
		out.ChatTemplateKwargs = kw
	case config.ReasoningEffort:
		out.ReasoningEffort = rs.Effort
		if !rs.Enabled {
			out.ReasoningEffort = "low"
		}
	}
	return &out
}

// maskMessage returns m with the personal data masked wherever the policies read it in a
// message: its text and every text part, its name, its tool calls' arguments (their string
// values, decoded and encoded again) and its other string members (reasoning_content,
// refusal). The tools and the response schema, which the application writes, are not
// rewritten.
func maskMessage(det *signal.PIIDetector, m openai.Message) openai.Message {
	m.Content = maskContent(det, m.Content)
	m.Name = maskText(det, m.Name)
	if len(m.ToolCalls) > 0 {
		calls := append([]openai.ToolCall(nil), m.ToolCalls...)
		for i := range calls {
			calls[i].Function.Arguments = maskJSON(det, calls[i].Function.Arguments)
		}
		m.ToolCalls = calls
	}
	if len(m.Extra) > 0 {
		extra := maps.Clone(m.Extra)
		for k, raw := range extra {
			extra[k] = json.RawMessage(maskJSON(det, string(raw)))
		}
		m.Extra = extra
	}
	return m
}

func maskContent(det *signal.PIIDetector, c openai.Content) openai.Content {
	if !c.IsParts {
		c.Text = maskText(det, c.Text)
		return c
	}
	parts := append([]openai.ContentPart(nil), c.Parts...)
	for i := range parts {
		switch {
		case parts[i].Type == "text":
			parts[i].Text = maskText(det, parts[i].Text)
			parts[i].Raw = nil // re-encoded from Text
		case parts[i].Raw != nil:
			parts[i].Raw = maskPart(det, parts[i].Raw)
		}
	}
	c.Parts = parts
	return c
}

// maskPart masks the text a part of another type than "text" carries in its "text" or
// "refusal" member (input_text, output_text, refusal parts); the rest of the part, such as
// an image's URL, is not text the model reads and stays as it is.
func maskPart(det *signal.PIIDetector, raw json.RawMessage) json.RawMessage {
	var members map[string]json.RawMessage
	if json.Unmarshal(raw, &members) != nil {
		return raw
	}
	changed := false
	for _, k := range []string{"text", "refusal"} {
		var s string
		if json.Unmarshal(members[k], &s) != nil {
			continue
		}
		if m := maskText(det, s); m != s {
			members[k], _ = json.Marshal(m)
			changed = true
		}
	}
	if !changed {
		return raw
	}
	b, err := json.Marshal(members)
	if err != nil {
		return raw
	}
	return b
}

// maskJSON masks every string value and member name of a JSON text, decoded, and returns it
// encoded again; text that is not JSON is masked as it is. Text with nothing to mask comes
// back as it was.
func maskJSON(det *signal.PIIDetector, text string) string {
	var v any
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber() // numbers are written again as they came
	if dec.Decode(&v) != nil || dec.More() {
		return maskText(det, text)
	}
	changed := false
	var walk func(any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case string:
			if m := maskText(det, x); m != x {
				changed = true
				return m
			}
		case []any:
			for i := range x {
				x[i] = walk(x[i])
			}
		case map[string]any:
			out := make(map[string]any, len(x))
			for k, e := range x {
				if m := maskText(det, k); m != k {
					changed = true
					k = m
				}
				out[k] = walk(e)
			}
			return out
		}
		return v
	}
	v = walk(v)
	if !changed {
		return text
	}
	b, err := json.Marshal(v)
	if err != nil {
		return maskText(det, text)
	}
	return string(b)
}

func (r *Router) observeSignals(results []SignalResult) {
	if r.metrics == nil {
		return
	}
	for _, s := range results {
		r.metrics.SignalDuration.WithLabelValues(s.Name, s.Kind).Observe(s.LatencyMs / 1000)
	}
}

func (r *Router) countDecision(name string, blocked bool) {
	if r.metrics == nil {
		return
	}
	r.metrics.Decisions.WithLabelValues(name).Inc()
	if blocked {
		r.metrics.Blocks.WithLabelValues(name).Inc()
	}
}
