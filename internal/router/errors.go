package router

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/provider"
)

// StatusClientClosed is the status recorded when the client went away first (as nginx does).
const StatusClientClosed = 499

// apiError turns a provider failure into the error a client sees: a status that says whose
// fault it is and a message that names the model and the likely cause.
func (r *Router) apiError(model string, err error) *openai.APIError {
	var pe *provider.Error
	if !errors.As(err, &pe) {
		r.log.Error("unexpected backend error", LogKeyModel, model, LogKeyError, err.Error())
		return &openai.APIError{Status: http.StatusInternalServerError, Type: openai.TypeServer,
			Message: fmt.Sprintf("model %q: internal error", model), Err: err}
	}
	msg := pe.Message
	if pe.Model == "" {
		pe.Model = model
	}
	e := &openai.APIError{Message: fmt.Sprintf("model %q: %s", model, msg), Err: err, RetryAfter: pe.RetryAfter}
	switch pe.Kind {
	case provider.KindConnect:
		e.Status, e.Type, e.Code = http.StatusBadGateway, openai.TypeUpstream, "upstream_unreachable"
	case provider.KindTLS:
		e.Status, e.Type, e.Code = http.StatusBadGateway, openai.TypeUpstream, "upstream_tls_error"
	case provider.KindTimeout:
		e.Status, e.Type, e.Code = http.StatusGatewayTimeout, openai.TypeTimeout, "upstream_timeout"
	case provider.KindCanceled:
		e.Status, e.Type, e.Code = StatusClientClosed, openai.TypeInvalidRequest, "client_closed_request"
	case provider.KindAuth:
		// The guide's operators look for a 401 when the router's key for the backend is
		// wrong; the message says it is the backend credential, not the client's.
		e.Status, e.Type, e.Code = pe.Status, openai.TypeAuthentication, "upstream_auth_failed"
		if e.Status == 0 {
			e.Status = http.StatusUnauthorized
		}
	case provider.KindNotFound:
		e.Status, e.Type, e.Code = http.StatusBadGateway, openai.TypeUpstream, "upstream_model_not_found"
	case provider.KindBadRequest:
		e.Status, e.Type, e.Code = pe.Status, openai.TypeInvalidRequest, "upstream_rejected_request"
		if e.Status == 0 {
			e.Status = http.StatusBadRequest
		}
	case provider.KindRateLimited:
		e.Status, e.Type, e.Code = http.StatusTooManyRequests, openai.TypeRateLimit, "upstream_rate_limited"
	case provider.KindUpstream, provider.KindProtocol:
		e.Status, e.Type, e.Code = http.StatusBadGateway, openai.TypeUpstream, "upstream_error"
	default:
		e.Status, e.Type = http.StatusInternalServerError, openai.TypeServer
	}
	return e
}
