package router

import (
	"context"
	"fmt"
	"maps"
	"net/http"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

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
	if r.metrics != nil {
		r.routeMetrics = newRouteMetrics(r.metrics, set.Kinds(), r.cfg.Decisions)
	}
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

// tracedRoute is route in a "route" span that records the decision; without tracing, route.
func (r *Router) tracedRoute(ctx context.Context, req *openai.ChatRequest, h http.Header, rd *routed) error {
	if r.untraced {
		return r.route(ctx, req, h, rd)
	}
	ctx, span := r.tracer.Start(ctx, "route")
	defer span.End()
	err := r.route(ctx, req, h, rd)
	if span.IsRecording() { // tracing off or not sampled: build no attributes
		r.recordRoute(span, req, &rd.rt, err)
	}
	return err
}

// recordRoute sets the route span's attributes and, on a refusal, its status.
func (r *Router) recordRoute(span trace.Span, req *openai.ChatRequest, rt *Route, err error) {
	span.SetAttributes(attribute.String("vsr.requested_model", r.MetricModel(req.Model)),
		attribute.String("vsr.selected_model", rt.Model), attribute.String("vsr.decision", rt.Decision),
		attribute.Float64("vsr.confidence", rt.Confidence), attribute.Int("vsr.signals", len(rt.Signals)))
	if err != nil {
		span.SetStatus(codes.Error, "refused")
	}
}

// modelNotFound is the 404 for a model name a client may not use: unknown, hidden, or (for
// GET /v1/models/{model}) not among its key's models.
func (r *Router) modelNotFound(name string) error {
	e := refuse(KindModelNotFound, fmt.Sprintf("the model %q does not exist; GET /v1/models lists the models you can use, or send %q to let the router choose",
		name, r.cfg.Routing.VirtualModel), nil)
	e.Param = "model"
	return e
}

// route picks the model for req and writes to rd the model, the request to send (with the
// matched decision's changes applied to a copy) and the route. A request for the virtual
// model goes through the signals and decisions (the default model when none matches); a
// request naming an exposed model goes to it, subject only to the decisions that apply to
// every request (policies). On a refusal rd.rt still explains it. Its steps write to rd
// rather than return copies, and the signals run on a routing worker: routing runs on the
// client connection's goroutine, whose stack, once grown, stays grown for the connection's
// life (see routingWorkers).
func (r *Router) route(ctx context.Context, req *openai.ChatRequest, h http.Header, rd *routed) error {
	*rd = routed{req: req}
	direct := req.Model != r.cfg.Routing.VirtualModel
	if direct {
		m, ok := r.models[req.Model]
		if !ok || !m.cfg.IsExposed() {
			return r.modelNotFound(req.Model)
		}
		rd.m = m
	}
	names := r.referenced
	if direct {
		names = r.policy
	}
	var res decision.Result
	matched := false
	var sigErr error
	if len(names) > 0 {
		matched, sigErr = r.workers.decide(r, ctx, req, h, names, direct, &res, &rd.rt)
	}
	if matched {
		if err := r.matched(&res, sigErr, rd); err != nil {
			rd.m, rd.req = nil, nil
			return err
		}
	} else if !direct {
		rd.rt.Decision, rd.rt.Confidence = "default", 1
		r.countDecision("default", false)
	}
	if rd.m == nil {
		rd.m = r.models[r.cfg.Routing.DefaultModel]
	}
	rd.rt.Model = rd.m.cfg.Name
	if matched {
		for _, p := range res.Modifiers {
			rd.req = r.apply(p, rd.req)
		}
		rd.req = r.apply(res.Decision, rd.req)
		rd.rt.reasoning = res.Decision.Reasoning
	}
	return nil
}

// decide computes the signals names as the decisions read them (every one for a debug
// request, for the header that lists them), evaluates the decisions into res, and records
// the signals in rt. sigErr is the failure of the signals that need embeddings, if any.
func (r *Router) decide(ctx context.Context, req *openai.ChatRequest, h http.Header, names map[string]bool, direct bool, res *decision.Result, rt *Route) (matched bool, sigErr error) {
	run := r.signals.Start(ctx, r.inputOf(req, h), names)
	if debugRequested(h.Get) {
		run.All()
	}
	*res, matched = r.engine.Evaluate(run, direct)
	results, sigErr := run.Finish()
	if sigErr != nil {
		r.signalsFailed(ctx, sigErr)
	}
	r.observeSignals(results)
	rt.Signals = results
	r.countSignalErrors(results, res, matched)
	return matched, sigErr
}

// signalsFailed logs the failure of the signals that need embeddings. The other signals
// still count; decisions that read a failed one take their on_error.
func (r *Router) signalsFailed(ctx context.Context, err error) {
	logFor(ctx, r.log).Warn("signals that need embeddings failed", LogKeyError, err.Error())
}

// matched records the matched decision res in rd.rt and returns the refusal of a block or
// of a policy that could not be decided; for a request to the virtual model it picks the
// decision's model.
func (r *Router) matched(res *decision.Result, sigErr error, rd *routed) error {
	d := res.Decision
	rd.rt.Decision, rd.rt.Confidence, rd.rt.Headers = d.Name, res.Confidence, decisionHeaders(res)
	for _, p := range res.Modifiers {
		r.countDecision(p.Name, false)
	}
	r.countDecision(d.Name, d.Block != nil || res.Undetermined)
	if res.Undetermined {
		return policyUnavailable(d.Name, res.Failed, sigErr)
	}
	if d.Block != nil {
		e := refuse(KindBlocked, d.Block.Message, nil)
		if d.Block.Status != 0 {
			e.Status = d.Block.Status
		}
		return e
	}
	if rd.m == nil {
		rd.m = r.modelFor(d)
	}
	return nil
}

// decisionHeaders are the response headers of the matched decision and of the policies
// that modified the request before it; the decision's own win a clash.
func decisionHeaders(res *decision.Result) map[string]string {
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
	if r.routeMetrics == nil {
		return
	}
	for _, s := range results {
		r.routeMetrics.signal(s.Name, s.Kind).Observe(s.LatencyMs / 1000)
	}
}

func (r *Router) countDecision(name string, blocked bool) {
	if r.routeMetrics == nil {
		return
	}
	r.routeMetrics.decision(name).Inc()
	if blocked {
		r.metrics.Blocks.WithLabelValues(name).Inc()
	}
}
