package router

import (
	"net/http"

	"github.com/semantic-router/semantic-router/internal/openai"
)

// Kind is a kind of refusal: the pipeline's reason for answering a request itself instead
// of with a model's answer. Upstream failures have their own classes (errors.go).
type Kind int

// The kinds of refusal.
const (
	KindBadBody Kind = iota + 1
	KindTooLarge
	KindBodyTimeout
	KindUnauthenticated
	KindModelNotAllowed
	KindRateLimited
	KindOverloaded
	KindClientGone
	KindModelNotFound
	KindPolicyUnavailable
	KindBlocked
	KindModelUnavailable
	KindShuttingDown
)

// refusals is the one table of the statuses, types and codes of the pipeline's refusals.
// A blocking decision's status is its own (decisions[].block.status); the table gives the
// one used when it has none.
var refusals = map[Kind]struct {
	status    int
	typ, code string
}{
	KindBadBody:           {http.StatusBadRequest, openai.TypeInvalidRequest, ""},
	KindTooLarge:          {http.StatusRequestEntityTooLarge, openai.TypeInvalidRequest, "request_too_large"},
	KindBodyTimeout:       {http.StatusRequestTimeout, openai.TypeInvalidRequest, "request_timeout"},
	KindUnauthenticated:   {http.StatusUnauthorized, openai.TypeAuthentication, "invalid_api_key"},
	KindModelNotAllowed:   {http.StatusForbidden, openai.TypePermission, "model_not_allowed"},
	KindRateLimited:       {http.StatusTooManyRequests, openai.TypeRateLimit, "rate_limit_exceeded"},
	KindOverloaded:        {http.StatusServiceUnavailable, openai.TypeServer, "overloaded"},
	KindClientGone:        {StatusClientClosed, openai.TypeInvalidRequest, "client_closed_request"},
	KindModelNotFound:     {http.StatusNotFound, openai.TypeNotFound, "model_not_found"},
	KindPolicyUnavailable: {http.StatusServiceUnavailable, openai.TypeServer, "policy_unavailable"},
	KindBlocked:           {http.StatusForbidden, openai.TypeInvalidRequest, "blocked_by_policy"},
	KindModelUnavailable:  {http.StatusServiceUnavailable, openai.TypeServer, "model_unavailable"},
	KindShuttingDown:      {http.StatusServiceUnavailable, openai.TypeServer, "shutting_down"},
}

// refuse returns the client's error for a refusal of kind k with message msg; err is the
// cause, for logs, never sent.
func refuse(k Kind, msg string, err error) *openai.APIError {
	c := refusals[k]
	e := &openai.APIError{Status: c.status, Type: c.typ, Code: c.code, Message: msg, Err: err}
	if k == KindUnauthenticated {
		// A 401 names the scheme that would be accepted (RFC 9110 §11.6.1).
		e.Header = map[string]string{"www-authenticate": `Bearer realm="semantic-router"`}
	}
	return e
}
