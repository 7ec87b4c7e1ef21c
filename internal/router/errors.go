package router

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/semantic-router/semantic-router/internal/balancer"
	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/provider"
)

// StatusClientClosed is the status recorded when the client went away first (as nginx does).
const StatusClientClosed = 499

// Failure is a model's last upstream failure in full, for operators: GET /api/v1/models
// shows it, and the log line with the same request id says the same.
type Failure struct {
	Time      time.Time `json:"time"`
	RequestID string    `json:"request_id,omitempty"`
	// Kind is the failure's kind, as in the error metrics' reason label.
	Kind string `json:"kind"`
	// Status is the upstream HTTP status, when there was an answer.
	Status int `json:"upstream_status,omitempty"`
	// Detail is what the provider found: the base URL, the credential reference to check,
	// the upstream's own message, with every credential value redacted.
	Detail string `json:"detail"`
}

// failureClass is how one kind of upstream failure reaches a client: a status, a type and
// code, and a sentence that names the model and the kind of failure, nothing else (no base
// URL, credential reference or upstream text: those go to the log line and to Failure).
type failureClass struct {
	status   int // 0: the upstream status, or orStatus when there is none
	orStatus int
	typ      string
	code     string
	sentence func(model string, pe *provider.Error) string
}

// server phrases a failure of a model's server.
func server(what string) func(string, *provider.Error) string {
	return func(model string, _ *provider.Error) string {
		return fmt.Sprintf("upstream model server for model %q %s", model, what)
	}
}

// answered says which status the server answered, or what otherwise happened.
func answered(otherwise string) func(string, *provider.Error) string {
	return func(model string, pe *provider.Error) string {
		if pe.Status > 0 {
			return fmt.Sprintf("upstream model server for model %q answered %d %s", model, pe.Status, http.StatusText(pe.Status))
		}
		return server(otherwise)(model, pe)
	}
}

// kindClasses maps each provider kind.
var kindClasses = map[provider.Kind]failureClass{
	provider.KindConnect:     {status: http.StatusBadGateway, typ: openai.TypeUpstream, code: "upstream_unreachable", sentence: server("could not be reached")},
	provider.KindTLS:         {status: http.StatusBadGateway, typ: openai.TypeUpstream, code: "upstream_tls_error", sentence: server("failed the TLS handshake")},
	provider.KindTimeout:     {status: http.StatusGatewayTimeout, typ: openai.TypeTimeout, code: "upstream_timeout", sentence: server("did not answer in time")},
	provider.KindCanceled:    {status: StatusClientClosed, typ: openai.TypeInvalidRequest, code: "client_closed_request", sentence: server("was not waited for: the client went away")},
	provider.KindAuth:        {orStatus: http.StatusUnauthorized, typ: openai.TypeAuthentication, code: "upstream_auth_failed", sentence: answered("could not be sent the router's credentials")},
	provider.KindNotFound:    {status: http.StatusBadGateway, typ: openai.TypeUpstream, code: "upstream_model_not_found", sentence: answered("does not know the model")},
	provider.KindBadRequest:  {orStatus: http.StatusBadRequest, typ: openai.TypeInvalidRequest, code: "upstream_rejected_request", sentence: answered("rejected the request")},
	provider.KindRateLimited: {status: http.StatusTooManyRequests, typ: openai.TypeRateLimit, code: "upstream_rate_limited", sentence: answered("is rate limiting")},
	provider.KindUpstream:    {status: http.StatusBadGateway, typ: openai.TypeUpstream, code: "upstream_error", sentence: answered("failed during the stream")},
	provider.KindProtocol: {status: http.StatusBadGateway, typ: openai.TypeUpstream, code: "upstream_error",
		sentence: func(model string, pe *provider.Error) string {
			return server("sent an answer that is not the "+cmp.Or(pe.Protocol, "OpenAI")+" protocol")(model, pe)
		}},
}

// causeClasses come before the kind: failures whose cause tells the client more precisely
// what happened. The first that matches wins; a new typed cause gets an entry here.
var causeClasses = []struct {
	is    func(error) bool
	class failureClass
}{
	{func(err error) bool { return errors.Is(err, balancer.ErrAllEjected) },
		failureClass{status: http.StatusBadGateway, typ: openai.TypeUpstream, code: "upstream_unreachable",
			sentence: func(model string, pe *provider.Error) string {
				msg := fmt.Sprintf("every endpoint of model %q is ejected after consecutive failures", model)
				if d := ejectedFor(pe); d > 0 {
					msg += fmt.Sprintf("; the first returns in %s", d)
				}
				return msg
			}}},
	{func(err error) bool { return errors.Is(err, errFirstTokenTimeout) },
		failureClass{status: http.StatusGatewayTimeout, typ: openai.TypeTimeout, code: "upstream_timeout", sentence: server("sent no first event in time")}},
	{func(err error) bool { return errors.Is(err, errStreamIdleTimeout) },
		failureClass{status: http.StatusGatewayTimeout, typ: openai.TypeTimeout, code: "upstream_timeout", sentence: server("stopped sending events in the middle of the stream")}},
	{func(err error) bool {
		return errors.Is(err, errMalformedStream) || errors.Is(err, provider.ErrMalformedStream)
	},
		failureClass{status: http.StatusBadGateway, typ: openai.TypeUpstream, code: "upstream_error", sentence: server("sent a malformed stream")}},
	{func(err error) bool { return errors.Is(err, provider.ErrCutShort) },
		failureClass{status: http.StatusBadGateway, typ: openai.TypeUpstream, code: "upstream_error", sentence: server("cut its answer short")}},
	{func(err error) bool { return errors.As(err, new(*provider.ModelOutputError)) },
		failureClass{status: http.StatusBadGateway, typ: openai.TypeUpstream, code: "upstream_error",
			sentence: func(model string, pe *provider.Error) string {
				var mo *provider.ModelOutputError
				errors.As(pe, &mo)
				return fmt.Sprintf("model %q produced %s", model, mo.What)
			}}},
	{func(err error) bool { return errors.Is(err, provider.ErrResponseTooLarge) },
		failureClass{status: http.StatusBadGateway, typ: openai.TypeUpstream, code: "upstream_response_too_large",
			sentence: func(model string, pe *provider.Error) string {
				var le *provider.LimitError
				if errors.As(pe.Err, &le) {
					return fmt.Sprintf("upstream model server for model %q sent an answer larger than %s (%d bytes)", model, le.Setting, le.Limit)
				}
				return server("sent an answer larger than max_response_body_bytes")(model, pe)
			}}},
	{func(err error) bool { return errors.Is(err, provider.ErrRedirect) },
		failureClass{status: http.StatusBadGateway, typ: openai.TypeUpstream, code: "upstream_redirect",
			sentence: func(model string, pe *provider.Error) string {
				return fmt.Sprintf("upstream model server for model %q answered %d %s, a redirect, which the router does not follow",
					model, pe.Status, http.StatusText(pe.Status))
			}}},
	{func(err error) bool { return errors.Is(err, provider.ErrUnsupportedField) },
		failureClass{status: http.StatusBadRequest, typ: openai.TypeInvalidRequest, code: "unsupported_field",
			sentence: func(model string, pe *provider.Error) string {
				return fmt.Sprintf("model %q does not support the request field %q", model, pe.Param)
			}}},
	// Any other request the provider could not translate for its service: its message is
	// the router's own words about the client's request, and no backend was asked.
	{func(err error) bool { return errors.Is(err, provider.ErrRefused) },
		failureClass{status: http.StatusBadRequest, typ: openai.TypeInvalidRequest, code: "unsupported_value",
			sentence: func(model string, pe *provider.Error) string {
				return fmt.Sprintf("model %q: %s", model, pe.Message)
			}}},
}

// ejectedFor is how long until the first endpoint of a model whose every endpoint is ejected
// returns, in whole seconds rounded up (what the client's Retry-After says), or 0 for any
// other failure.
func ejectedFor(pe *provider.Error) time.Duration {
	var ae *balancer.AllEjectedError
	if !errors.As(pe, &ae) || ae.RetryIn <= 0 {
		return 0
	}
	return (ae.RetryIn + time.Second - 1).Truncate(time.Second)
}

func classOf(err error, pe *provider.Error) failureClass {
	for _, c := range causeClasses {
		if c.is(err) {
			return c.class
		}
	}
	if c, ok := kindClasses[pe.Kind]; ok {
		return c
	}
	return failureClass{status: http.StatusInternalServerError, typ: openai.TypeServer,
		sentence: func(model string, _ *provider.Error) string {
			return fmt.Sprintf("internal error calling model %q", model)
		}}
}

// apiError turns a provider failure into the error a client sees: a status that says whose
// fault it is and a message with the kind of failure, the model and the request id. The
// cause in full goes to the log line with that request id and to the model's last Failure;
// with routing.expose_upstream_errors the message carries it too, redacted.
func (r *Router) apiError(ctx context.Context, model string, err error) *openai.APIError {
	id := RequestID(ctx)
	if ShuttingDown(ctx) {
		// The router cut the call, not the client nor the model: nothing to log here, the
		// request's own line says it.
		e := ShutdownError(ctx)
		e.Err = fmt.Errorf("%w: %w", ErrShuttingDown, err)
		return e
	}
	var pe *provider.Error
	if !errors.As(err, &pe) {
		logFor(ctx, r.log).Error("unexpected backend error", LogKeyServing, model, LogKeyError, err.Error())
		return &openai.APIError{Status: http.StatusInternalServerError, Type: openai.TypeServer,
			Message: withRequestID(fmt.Sprintf("internal error calling model %q", model), id), Err: err}
	}
	c := classOf(err, pe)
	e := &openai.APIError{Status: c.status, Type: c.typ, Code: c.code, RetryAfter: cmp.Or(pe.RetryAfter, ejectedFor(pe)), Err: err}
	if e.Status == 0 {
		e.Status = pe.Status
		if e.Status == 0 {
			e.Status = c.orStatus
		}
	}
	msg := c.sentence(model, pe)
	if errors.Is(err, provider.ErrRefused) {
		// The provider refused the request before sending it: the client's to fix, not a
		// failure of the model, so it is neither logged nor kept as one.
		e.Param = pe.Param
		var ref *provider.Refusal
		if e.Param == "" && errors.As(err, &ref) {
			e.Param = ref.At
		}
		e.Message = r.redactor.String(withRequestID(msg, id))
		logFor(ctx, r.log).Info("request refused by the model's provider", LogKeyServing, model, LogKeyError, pe.Message)
		return e
	}
	if r.cfg.Routing.ExposeUpstreamErrors {
		msg += ": " + pe.Message
	}
	e.Message = r.redactor.String(withRequestID(msg, id))
	if pe.Kind == provider.KindCanceled {
		return e // nobody is listening, and nothing is wrong upstream
	}
	attrs := []any{LogKeyServing, model, "kind", pe.Kind.String(), "status", e.Status, LogKeyError, pe.Message}
	if pe.Status > 0 {
		attrs = append(attrs, "upstream_status", pe.Status)
	}
	if pe.Err != nil {
		attrs = append(attrs, "cause", pe.Err.Error())
	}
	logFor(ctx, r.log).Warn("upstream failure", attrs...)
	if m := r.models[model]; m != nil {
		m.lastFailure.Store(&Failure{Time: time.Now().UTC(), RequestID: id, Kind: pe.Kind.String(), Status: pe.Status,
			Detail: r.redactor.String(pe.Message)})
	}
	return e
}

func withRequestID(msg, id string) string {
	if id == "" {
		return msg
	}
	return fmt.Sprintf("%s (request id %s)", msg, id)
}
