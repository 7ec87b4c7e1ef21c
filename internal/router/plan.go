package router

import (
	"context"
	"fmt"
	"net"
	"net/url"

	"go.opentelemetry.io/otel/propagation"

	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/redact"
)

// Target says where a planned request goes: the router's model name, the provider type,
// the upstream id, the base URL and the endpoint (host:port) the balancer picked.
type Target struct {
	Model         string
	Provider      string
	UpstreamModel string
	BaseURL       string
	Endpoint      string
}

// Plan is a routed request for a front door that calls the model itself (the Envoy external
// processor). Done must be called once the answer has ended (or was abandoned).
type Plan struct {
	// Body is the request to forward: the decision's changes applied, the model set to the
	// upstream id, the stream asked to report usage. The front door may let go of it once
	// it has handed it on: the plan lasts as long as the answer.
	Body []byte
	// Target is where it goes.
	Target Target
	// Authorization is the Authorization header the model's server expects ("Bearer " and
	// the model's api_key), or "" when the model has none. Either way the client's own
	// Authorization, which carried its key for the router, must not reach the model.
	Authorization string
	// Trace holds the trace context of the request (traceparent, tracestate) for the
	// upstream request, so that the model server's spans join the trace.
	Trace map[string]string
	// Stream is whether the answer is a stream of server-sent events.
	Stream bool
	// DropUsage is set for a stream whose client did not ask for its usage: the router asked
	// the model for it (token limits need it), and the front door drops the chunk that
	// carries only the usage (see UsageOnly) before it reaches the client.
	DropUsage bool

	// Cached, when not nil, is the answer from the cache: the front door answers with it at
	// once (200, JSON, or CachedEvents for a streaming client) and calls Done; nothing else
	// of the plan is set.
	Cached []byte
	// cachedUsage: the streaming client asked for the usage event (include_usage).
	cachedUsage bool

	explain  [][2]string
	redactor *redact.Redactor
	end      *exchange
	report   func(status int, err error)
	lookup   cacheLookup
}

// Redaction returns what keeps the credentials the router holds out of the plan's answer,
// which the front door relays; nil when the router holds none.
func (pl *Plan) Redaction() *AnswerRedaction {
	if !pl.redactor.Active() {
		return nil
	}
	return newAnswerRedaction(pl.redactor)
}

// AnswerRedaction redacts one answer that passes through a front door: a whole JSON body, or
// a stream event by event (a value cut across events is redacted where the client joins the
// text). Stream.Next uses it for the HTTP listener; the external processor for the answers
// Envoy relays. It is not safe for concurrent use.
type AnswerRedaction struct {
	red  *redact.Redactor
	text *streamText
}

func newAnswerRedaction(red *redact.Redactor) *AnswerRedaction {
	return &AnswerRedaction{red: red, text: newStreamText(red)}
}

// Body returns a whole answer (JSON, or any text) with every held value replaced (see
// redactAnswer).
func (a *AnswerRedaction) Body(b []byte) []byte { return redactAnswer(a.red, b) }

// Event returns the data of the events to send in place of one stream event's data: those
// with held text that must go first, then the event's own.
func (a *AnswerRedaction) Event(data []byte) [][]byte {
	before, out := a.text.chunk(data)
	events := append(before, out)
	for i, ev := range events {
		events[i] = a.red.JSON(ev)
	}
	return events
}

// End returns the data of the events with the text still held when the stream ends.
func (a *AnswerRedaction) End() [][]byte {
	events := a.text.end()
	for i, ev := range events {
		events[i] = a.red.JSON(ev)
	}
	return events
}

// Explain returns the headers that explain the routing decision (see Route.Explain).
func (pl *Plan) Explain() [][2]string { return pl.explain }

// CachedEvents returns the stream events that replay Cached to a streaming client: the role,
// the content, the finish and, when the client asked for it, the usage (see ReplayUsage).
// False when Cached is nil or cannot be replayed.
func (pl *Plan) CachedEvents() ([][]byte, bool) {
	events, ok := ReplayEvents(pl.Cached)
	if !ok || !pl.cachedUsage {
		return events, ok
	}
	usage, ok := ReplayUsage(pl.Cached)
	if !ok {
		return nil, false
	}
	return append(events, usage), true
}

// Settle charges u, the usage read from the answer (nil when none), to the client's and
// the model's token limits and frees the in-flight slot. A front door calls it before the
// answer's last bytes leave, so that the client's next request finds the slot free, and Done
// after they have left. Done settles a request that was not.
func (pl *Plan) Settle(u *openai.Usage) {
	if pl.end.ticket != nil {
		pl.end.ticket.Done(u)
	}
}

// Done ends a planned request: status is the model server's response status (0 when none
// came, with err saying why), which the endpoint's outlier detection counts; u is the usage
// read from the answer (nil when none), charged to the client's and the model's token
// limits unless Settle charged it. The in-flight slot is held until Settle or Done.
func (pl *Plan) Done(status int, u *openai.Usage, err error) {
	if pl.report != nil {
		pl.report(status, err)
	}
	if u != nil {
		pl.end.r.countTokens(pl.Target.Model, u)
	}
	pl.end.finish(u)
}

// WantsAnswer reports whether the front door should keep the answer's body (a whole JSON
// answer, with status 200) and give it to Answer: the cache stores it.
func (pl *Plan) WantsAnswer() bool { return pl.lookup.entry != nil }

// Answer gives the plan the whole answer of a planned request that WantsAnswer, once it
// has ended with status 200; the cache stores it.
func (pl *Plan) Answer(body []byte) {
	pl.end.r.cacheStore(pl.end.ctx, pl.lookup, body)
}

// Plan runs the pipeline for req as Serve does, but calls no model: it returns the request
// to forward and where to. Errors are as Serve's.
func (p *Pipeline) Plan(ctx context.Context, req *Request) (*Plan, *Trail, error) {
	x, err := p.begin(ctx, req)
	if err != nil {
		return nil, &x.trail, err
	}
	if err := x.route(req.Header); err != nil {
		return nil, &x.trail, err
	}
	rd := x.rd
	debug := debugRequested(req.Header.Get)
	lookup := x.r.cacheLookup(x.ctx, x.trail.Client, rd, req.Header)
	x.trail.Cache = lookup.outcome
	if lookup.hit != nil {
		rt := rd.rt
		rt.Model = lookup.hit.Entry.Model
		x.trail.Route = rt
		so := x.chat.StreamOptions
		pl := &Plan{Cached: lookup.hit.Entry.Body, cachedUsage: so != nil && so.IncludeUsage, end: x, Target: Target{Model: rt.Model}}
		pl.explain = append(rt.Explain(debug), lookup.explain()...)
		x.decided()
		return pl, &x.trail, nil
	}
	pl, err := p.plan(x, rd)
	if err != nil {
		x.finish(nil)
		return nil, &x.trail, err
	}
	pl.explain = append(rd.rt.Explain(debug), lookup.explain()...)
	pl.lookup = lookup
	x.decided()
	// The plan's body is the request now: the exchange, which lasts as long as the answer,
	// keeps no other copy.
	x.chat, x.rd.req = nil, nil
	return pl, &x.trail, nil
}

func (p *Pipeline) plan(x *exchange, rd routed) (*Plan, error) {
	r, m := x.r, rd.m
	up := *r.forModel(rd.rt.reasoning, m, rd.req)
	up.Model = m.cfg.Provider.Model
	dropUsage := up.Stream && (up.StreamOptions == nil || !up.StreamOptions.IncludeUsage)
	if dropUsage {
		// Token limits need the usage, which a stream reports only when asked.
		so := openai.StreamOptions{IncludeUsage: true}
		if up.StreamOptions != nil {
			so = *up.StreamOptions
			so.IncludeUsage = true
		}
		up.StreamOptions = &so
	}
	body, err := up.Encode()
	if err != nil {
		return nil, fmt.Errorf("encoding the request for model %q: %w", m.cfg.Name, err)
	}
	var auth string
	if m.apiKey != nil {
		key, err := m.apiKey()
		if err != nil {
			return nil, refuse(KindModelUnavailable, withRequestID(fmt.Sprintf("model %q has no usable credential", m.cfg.Name), RequestID(x.ctx)), err)
		}
		auth = "Bearer " + key
	}
	// Picked last: a picked endpoint counts the call as in flight until Done reports it.
	base, report, err := m.endpoint()
	if err != nil {
		return nil, r.apiError(x.ctx, m.cfg.Name, err)
	}
	pl := &Plan{Body: body, Stream: up.Stream, DropUsage: dropUsage, Authorization: auth, end: x, report: report, redactor: r.redactor,
		Target: Target{Model: m.cfg.Name, Provider: m.cfg.Provider.Type, UpstreamModel: m.cfg.Provider.Model, BaseURL: base, Endpoint: hostPort(base)}}
	if p.prop != nil {
		c := propagation.MapCarrier{}
		p.prop.Inject(x.ctx, c)
		pl.Trace = c
	}
	if r.metrics != nil {
		r.metrics.Planned.WithLabelValues(m.cfg.Name).Inc()
	}
	return pl, nil
}

// hostPort is base's host:port, with the scheme's port when it names none; "" when base
// is not an absolute URL.
func hostPort(base string) string {
	u, err := url.Parse(base)
	if err != nil || u.Host == "" {
		return ""
	}
	if u.Port() != "" {
		return u.Host
	}
	port := "80"
	if u.Scheme == "https" {
		port = "443"
	}
	return net.JoinHostPort(u.Hostname(), port)
}
