// Package router is the request pipeline shared by every front door: it picks the model for a
// chat request, calls it through its provider and reports what happened. It knows nothing of
// HTTP listeners or Envoy; the server and extproc packages adapt it.
package router

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sort"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/semantic-router/semantic-router/internal/balancer"
	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/decision"
	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/provider"
	"github.com/semantic-router/semantic-router/internal/redact"
	"github.com/semantic-router/semantic-router/internal/secret"
	"github.com/semantic-router/semantic-router/internal/signal"
	"github.com/semantic-router/semantic-router/internal/telemetry"
)

// Log keys used by the router and the front doors.
const (
	LogKeyRequestID = "request_id"
	LogKeyModel     = "model"
	LogKeyProvider  = "provider"
	LogKeyError     = "error"
	LogKeyDecision  = "decision"
	LogKeyTraceID   = "trace_id"
	// LogKeyServing is the model a line is about when it may differ from the routed one
	// (a retry or a fallback).
	LogKeyServing = "serving_model"
)

// Options are the router's dependencies.
type Options struct {
	Logger  *slog.Logger
	Metrics *telemetry.Metrics
	// LookupEnv resolves env.VAR references; default os.LookupEnv.
	LookupEnv func(string) (string, bool)
	// ClassifyOnly builds the signals and decisions but no provider, for front doors and
	// tools that route without calling models (extproc, where Envoy calls them; eval): they
	// need no model credentials.
	ClassifyOnly bool
	// PlanOnly is ClassifyOnly for the Envoy external processor: Envoy calls the models
	// with the credential the router gives it, so each model's api_key is opened too.
	PlanOnly bool
	// LocalModelReady reports whether a local model directory's files are in place, or why
	// not (an artifact still downloading): the signals that need such a model fail until it
	// is, and the rest of the router serves (see signal.SetOptions). Nil: they are in place.
	LocalModelReady func(dir string) error
	// Tracing traces requests and passes the trace context to backends; nil traces nothing.
	Tracing *telemetry.Tracing
	// Redactor receives every credential value of the configuration, for as long as the
	// router runs, and redacts the text the router relays to clients. The program wraps its
	// log handler with the same one (redact.Handler). Nil: the router uses one of its own.
	Redactor *redact.Redactor
	// Previous is the router a reload replaces: the new one keeps its cached answers when
	// the cache, the embedder and the models are configured as before.
	Previous *Router
}

// Router routes chat requests to models. It is safe for concurrent use.
type Router struct {
	secrets *secret.Store
	// transports are the models' connection pools, one per model; Close closes their idle
	// connections, so that a configuration replaced by a reload does not keep a pool of
	// connections to every backend open until they time out.
	transports []*http.Transport
	signals    *signal.Set
	engine     *decision.Engine
	// workers compute the signals and decisions of requests (see routingWorkers).
	workers *routingWorkers
	// referenced are the signals the decisions use; policy those the decisions that apply
	// to every request use (the only ones computed for a request naming a model).
	referenced, policy map[string]bool
	masker             *signal.PIIDetector
	tracer             trace.Tracer
	// untraced: the tracer is the no-op one, whose spans would carry no more than the
	// request's context does: the router starts none.
	untraced        bool
	prop            propagation.TextMapPropagator
	cfg             *config.Config
	log             *slog.Logger
	metrics         *telemetry.Metrics
	routeMetrics    *routeMetrics // nil without metrics
	models          map[string]*model
	order           []*model // configuration order, for listings
	access          *access
	redactor        *redact.Redactor
	redaction       *redaction
	localModelReady func(dir string) error
	cache           *cacheStage // nil: no request uses the cache
}

// model is one registered model.
type model struct {
	cfg         config.Model
	provider    provider.Provider
	pool        *endpointPool // nil for one base_url without outlier detection
	lastFailure atomic.Pointer[Failure]
	// apiKey reads the model's api_key for a planned request (PlanOnly); nil: none.
	apiKey func() (string, error)
	// timeoutFirst: the model is called once (no retry, no fallback, one endpoint), and its
	// provider applies its timeout, which is shorter than the request budget: the timeout
	// always ends the call first, and the budget needs no deadline.
	timeoutFirst bool
}

// ModelInfo describes a configured model for the management API.
type ModelInfo struct {
	Name       string `json:"name"`
	Exposed    bool   `json:"exposed"`
	Provider   string `json:"provider"`
	UpstreamID string `json:"upstream_model"`
	BaseURL    string `json:"base_url,omitempty"`
	Registered bool   `json:"registered"`
	IsDefault  bool   `json:"default"`
	// Endpoints are the states of a model's endpoints when it has endpoint health.
	Endpoints []balancer.Status `json:"endpoints,omitempty"`
	// LastFailure is the model's last upstream failure that reached a client, in full.
	LastFailure *Failure `json:"last_failure,omitempty"`
}

// Route is the routing decision for one request, explained to the client in x-vsr headers.
type Route struct {
	// Model is the router's name of the model that serves the request.
	Model string
	// Decision names the rule that chose the model; empty for a request that named a
	// concrete model.
	Decision string
	// Confidence is the decision's confidence in [0,1].
	Confidence float64
	// FallbackFrom is the model that was chosen first when a fallback served the request.
	FallbackFrom string
	// Headers are the matched decision's extra response headers.
	Headers map[string]string
	// Signals are the computed signals, for the debug header.
	Signals []SignalResult

	// reasoning is the matched decision's thinking switch, applied to each model tried in
	// its own family's dialect.
	reasoning *config.Reasoning
}

// Redact replaces every credential value the router holds in a JSON text, escaped or not:
// for what a front door writes that did not pass through the pipeline, such as the
// management API's answers.
func (r *Router) Redact(b []byte) []byte { return r.redactor.JSON(b) }

// served records which model answered: m was chosen, got answered (or failed last).
func (rt *Route) served(chosen, got *model) {
	rt.Model = got.cfg.Name
	if got != chosen {
		rt.FallbackFrom = chosen.cfg.Name
	}
}

// New registers every model of cfg. It returns an error listing every model that could not
// be registered (a missing env variable, an unreadable CA bundle), each named, and logs one
// line per model either way.
func New(cfg *config.Config, o Options) (*Router, error) {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Redactor == nil {
		o.Redactor = redact.New()
	}
	r := &Router{cfg: cfg, log: o.Logger, metrics: o.Metrics, models: make(map[string]*model, len(cfg.Models)),
		tracer: o.Tracing.Tracer(), redactor: o.Redactor, localModelReady: o.LocalModelReady, workers: newRoutingWorkers()}
	_, r.untraced = r.tracer.(noop.Tracer)
	// Registered first, so that a value is redacted before anything could log it.
	r.redaction = newRedaction(cfg, o.Redactor, o.LookupEnv)
	var prop propagation.TextMapPropagator
	if o.Tracing != nil {
		prop = o.Tracing.Propagator
	}
	r.prop = prop
	r.secrets = secret.NewStore(secret.Options{LookupEnv: o.LookupEnv, Logger: o.Logger, OnRotate: func(ref string) {
		if r.metrics != nil {
			r.metrics.CredentialRotations.WithLabelValues(ref).Inc()
		}
	}})
	var (
		errs []error
		err  error
	)
	for i, mc := range cfg.Models {
		m := &model{cfg: mc, pool: r.newPool(mc)}
		m.timeoutFirst = m.pool == nil && len(mc.Fallbacks) == 0 && mc.Retry.MaxAttempts <= 1 &&
			mc.Timeout > 0 && mc.Timeout < cfg.Routing.RequestBudget
		r.models[mc.Name] = m
		r.order = append(r.order, m)
		if o.PlanOnly && !mc.Provider.APIKey.IsZero() {
			// Envoy may hold the model's credentials itself: a key the router cannot read
			// is not an error here, and planned requests then carry no Authorization.
			if src, err := r.secrets.OpenToken(string(mc.Provider.APIKey)); err != nil {
				r.log.Warn("the model's api_key cannot be read: Envoy's requests to it carry no Authorization unless Envoy adds one",
					LogKeyModel, mc.Name, "reference", string(mc.Provider.APIKey), LogKeyError, err.Error())
			} else {
				m.apiKey = src.Value
			}
		}
		if o.PlanOnly {
			r.checkHealthWithoutProvider(m) // Envoy's requests go to the endpoints it picks
		}
		if o.ClassifyOnly || o.PlanOnly {
			continue // routing needs the models, not their providers
		}
		p, err := r.newProvider(mc)
		if re := (*config.RefError)(nil); errors.As(err, &re) {
			re.Path = fmt.Sprintf("models[%d].%s", i, re.Path) // a problem of the config, at its line
		}
		if err != nil {
			err = fmt.Errorf("model %q: %w", mc.Name, err)
			errs = append(errs, err)
			r.log.Error("model registration failed", LogKeyModel, mc.Name, LogKeyProvider, mc.Provider.Type, LogKeyError, err.Error())
		} else {
			r.log.Info("model registered", LogKeyModel, mc.Name, LogKeyProvider, mc.Provider.Type,
				"upstream_model", mc.Provider.Model, "base_url", mc.Provider.BaseURL, "endpoints", len(mc.Provider.Endpoints), "exposed", mc.IsExposed())
		}
		m.provider = p
	}
	if len(errs) == 0 {
		if err := r.buildDecisions(); err != nil {
			errs = append(errs, err)
		}
	}
	if r.access, err = r.newAccess(cfg, o.LookupEnv); err != nil {
		errs = append(errs, err)
	}
	if len(errs) == 0 {
		if r.cache, err = r.newCacheStage(context.Background(), o.Previous, o.LookupEnv); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		_ = r.Close()
		return nil, cfg.AsProblems(errs...)
	}
	for _, w := range cfg.Warnings() {
		r.log.Warn("config warning", "warning", w)
	}
	if r.metrics != nil {
		// Only a router that will serve reports its models: a reload that is refused must not
		// touch the gauge of the configuration that goes on serving, and one that is applied
		// drops the models it removed.
		r.metrics.ModelRegistered.Reset()
		for _, m := range r.order {
			r.metrics.ModelRegistered.WithLabelValues(m.cfg.Name, m.cfg.Provider.Type).Set(1)
		}
	}
	return r, nil
}

// Close closes the models' idle upstream connections, stops watching credential files and
// probing endpoints, and releases the embedder (an ONNX session). Call it after the
// requests in flight have finished.
func (r *Router) Close() error {
	r.workers.close()
	for _, t := range r.transports {
		t.CloseIdleConnections()
	}
	for _, m := range r.order {
		m.pool.close()
		if c, ok := m.provider.(io.Closer); ok {
			_ = c.Close()
		}
	}
	return errors.Join(r.access.close(), r.cache.close(), r.secrets.Close(), r.signals.Close(), r.redaction.close())
}

// Config returns the configuration the router runs.
func (r *Router) Config() *config.Config { return r.cfg }

// ExposedModels returns the names clients may request, virtual model first.
func (r *Router) ExposedModels() []string {
	names := []string{r.cfg.Routing.VirtualModel}
	for _, m := range r.order {
		if m.cfg.IsExposed() {
			names = append(names, m.cfg.Name)
		}
	}
	return names
}

// Models describes every configured model, exposed or not, sorted by name.
func (r *Router) Models() []ModelInfo {
	out := make([]ModelInfo, 0, len(r.order))
	for _, m := range r.order {
		out = append(out, ModelInfo{
			Name: m.cfg.Name, Exposed: m.cfg.IsExposed(), Provider: m.cfg.Provider.Type,
			UpstreamID: m.cfg.Provider.Model, BaseURL: m.cfg.Provider.BaseURL, Endpoints: m.pool.status(),
			Registered: m.provider != nil, IsDefault: m.cfg.Name == r.cfg.Routing.DefaultModel, LastFailure: m.lastFailure.Load(),
		})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// MetricModel returns the model label for a requested name: the name itself when it is
// configured (or the virtual model), else "unknown", so clients cannot inflate cardinality.
func (r *Router) MetricModel(name string) string {
	if _, ok := r.models[name]; ok || name == r.cfg.Routing.VirtualModel {
		return name
	}
	return "unknown"
}

// routed is a request whose model is chosen: the model, the request to send it (the
// decision's changes applied) and the route.
type routed struct {
	m   *model
	req *openai.ChatRequest
	rt  Route
}

// complete calls the routed model for the whole answer, retrying and falling back as
// configured; p.rt is left naming the model that answered (or failed last).
func (r *Router) complete(ctx context.Context, p *routed) (*provider.Response, error) {
	m, req, rt := p.m, p.req, &p.rt
	ctx, cancel := r.budget(ctx, m)
	defer cancel()
	var resp *provider.Response
	served, err := r.withFallbacks(ctx, m, func(ctx context.Context, m *model) error {
		start := time.Now()
		var err error
		resp, err = m.provider.ChatCompletion(ctx, r.forModel(rt.reasoning, m, req))
		if err == nil {
			r.observeUpstream(m.cfg.Name, start, nil)
			r.countTokens(m.cfg.Name, resp.Usage)
		}
		return err
	})
	rt.served(m, served)
	if err != nil {
		r.countFailure(served.cfg.Name, err)
		return nil, r.apiError(ctx, served.cfg.Name, err)
	}
	// A backend may echo what it was sent; no credential leaves in an answer either.
	resp.Body = redactAnswer(r.redactor, resp.Body)
	return resp, nil
}

// stream starts a streamed answer from the routed model. It waits for the first chunk
// before it returns, so that a model failing before its first byte can still be retried or
// replaced by a fallback: the client has seen nothing yet. The returned stream's errors are
// *openai.APIError. p.rt is left naming the model that answered (or failed last).
func (r *Router) stream(ctx context.Context, p *routed) (*Stream, error) {
	m, req, rt := p.m, p.req, &p.rt
	// Token limits need every stream's usage: the backend is always asked for it, and the
	// usage chunk is passed on only to a client that asked too.
	clientUsage := req.StreamOptions != nil && req.StreamOptions.IncludeUsage
	if !clientUsage {
		up := *req
		so := openai.StreamOptions{}
		if req.StreamOptions != nil {
			so = *req.StreamOptions
		}
		so.IncludeUsage = true
		up.StreamOptions = &so
		req = &up
	}
	// The budget outlives this call: the stream's Close cancels it.
	ctx, cancel := r.budget(ctx, m)
	var st *Stream
	served, err := r.withFallbacks(ctx, m, func(ctx context.Context, m *model) error {
		var err error
		st, err = r.openStream(ctx, m, r.forModel(rt.reasoning, m, req))
		return err
	})
	rt.served(m, served)
	if err != nil {
		cancel()
		r.countFailure(served.cfg.Name, err)
		return nil, r.apiError(ctx, served.cfg.Name, err)
	}
	st.clientUsage = clientUsage
	st.budgetCancel = cancel
	return st, nil
}

// budget bounds ctx by the request budget, routing.request_budget, which counts from here.
// For a model whose own timeout always ends the call first (model.timeoutFirst) it returns
// ctx as it is: a second deadline could never fire, and each costs a timer and a context.
func (r *Router) budget(ctx context.Context, m *model) (context.Context, context.CancelFunc) {
	if m.timeoutFirst {
		return ctx, func() {}
	}
	d := r.cfg.Routing.RequestBudget.D()
	return context.WithTimeoutCause(ctx, d, &provider.DeadlineCause{Setting: "routing.request_budget", After: d})
}

func (r *Router) inFlight(model string, delta float64) {
	if r.metrics != nil {
		r.metrics.InFlight.WithLabelValues(model).Add(delta)
	}
}

// observeUpstream records one call to a model: each attempt, the failed ones too.
func (r *Router) observeUpstream(model string, start time.Time, err error) {
	if r.metrics == nil {
		return
	}
	outcome := "ok"
	if err != nil {
		outcome = reason(err)
	}
	r.metrics.UpstreamDuration.WithLabelValues(model, outcome).Observe(time.Since(start).Seconds())
}

// countFailure counts a request that failed for good, once, by the model that failed last:
// a failure that a retry or a fallback cured is in upstream_duration_seconds and
// retries_total or fallbacks_total, not here. A request the provider refused to send is the
// client's error, which the front door counts.
func (r *Router) countFailure(model string, err error) {
	if r.metrics == nil || errors.Is(err, provider.ErrRefused) {
		return
	}
	r.metrics.Errors.WithLabelValues(model, reason(err)).Inc()
}

func (r *Router) countTokens(model string, u *openai.Usage) {
	if r.metrics == nil || u == nil {
		return
	}
	r.metrics.Tokens.WithLabelValues(model, "prompt").Add(float64(u.PromptTokens))
	r.metrics.Tokens.WithLabelValues(model, "completion").Add(float64(u.CompletionTokens))
}

// reason is the metric label for an error: the provider kind, or "internal".
func reason(err error) string {
	var pe *provider.Error
	if errors.As(err, &pe) {
		return pe.Kind.String()
	}
	return provider.KindInternal.String()
}
