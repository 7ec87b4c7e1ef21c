package router

import (
	"context"
	"fmt"
	"maps"
	"net/http"

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

// modelNotFound is the 404 for a model name a client may not use: unknown, hidden, or (for
// GET /v1/models/{model}) not among its key's models.
func (r *Router) modelNotFound(name string) error {
	e := refuse(KindModelNotFound, fmt.Sprintf("the model %q does not exist; GET /v1/models lists the models you can use, or send %q to let the router choose",
		name, r.cfg.Routing.VirtualModel), nil)
	e.Param = "model"
	return e
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
			return nil, nil, Route{}, r.modelNotFound(req.Model)
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
		maskRequest(r.masker, &out)
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
