package openai

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"
)

// Error types used in the envelope's "type" member, as OpenAI and vLLM use them.
const (
	TypeInvalidRequest = "invalid_request_error"
	TypeAuthentication = "authentication_error"
	TypePermission     = "permission_error"
	TypeNotFound       = "not_found_error"
	TypeRateLimit      = "rate_limit_error"
	TypeServer         = "server_error"
	TypeUpstream       = "upstream_error"
	TypeTimeout        = "timeout_error"
)

// APIError is an error that is safe to show a client: its message names what went wrong and
// what to do, never a secret. Front doors turn it into a status and the OpenAI envelope.
type APIError struct {
	Status  int
	Type    string
	Code    string
	Param   string
	Message string
	// RetryAfter, when positive, is sent as the Retry-After header.
	RetryAfter time.Duration
	// Header holds further response headers, such as the explanation of a routing decision
	// that refused the request; names in lower case.
	Header map[string]string
	// Err is the underlying cause, for logs and errors.Is; it is never sent to the client.
	Err error
}

func (e *APIError) Error() string { return e.Message }

// Unwrap returns the cause.
func (e *APIError) Unwrap() error { return e.Err }

// Envelope is the OpenAI error body: {"error":{"message","type","param","code"}}.
type Envelope struct {
	Error EnvelopeError `json:"error"`
}

// EnvelopeError is the inner object of Envelope. Param and Code are null when unset.
type EnvelopeError struct {
	Message string  `json:"message"`
	Type    string  `json:"type"`
	Param   *string `json:"param"`
	Code    *string `json:"code"`
}

// Envelope returns the wire form of e.
func (e *APIError) Envelope() Envelope {
	env := Envelope{Error: EnvelopeError{Message: e.Message, Type: e.Type}}
	if e.Param != "" {
		env.Error.Param = &e.Param
	}
	if e.Code != "" {
		env.Error.Code = &e.Code
	}
	return env
}

// Headers returns the response headers of e, names in lower case: the JSON content type,
// Retry-After in whole seconds rounded up when RetryAfter is positive, and Header. Both
// front doors send exactly these.
func (e *APIError) Headers() [][2]string {
	out := make([][2]string, 0, 2+len(e.Header))
	out = append(out, [2]string{"content-type", "application/json"})
	if e.RetryAfter > 0 {
		secs := int((e.RetryAfter + time.Second - 1) / time.Second)
		out = append(out, [2]string{"retry-after", strconv.Itoa(secs)})
	}
	for k, v := range e.Header {
		out = append(out, [2]string{k, v})
	}
	return out
}

// Body returns the envelope of e as JSON, with a trailing newline.
func (e *APIError) Body() []byte {
	b, _ := json.Marshal(e.Envelope()) // marshalling strings cannot fail
	return append(b, '\n')
}

// WriteError writes e as an OpenAI error response.
func WriteError(w http.ResponseWriter, e *APIError) {
	h := w.Header()
	for _, kv := range e.Headers() {
		h.Set(kv[0], kv[1])
	}
	w.WriteHeader(e.Status)
	_, _ = w.Write(e.Body())
}

// Errorf-style constructors for the common client errors.

// BadRequest is a 400 invalid_request_error.
func BadRequest(param, msg string) *APIError {
	return &APIError{Status: http.StatusBadRequest, Type: TypeInvalidRequest, Param: param, Message: msg}
}

// NotFound is a 404 with the given message.
func NotFound(code, msg string) *APIError {
	return &APIError{Status: http.StatusNotFound, Type: TypeNotFound, Code: code, Message: msg}
}
