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

// WriteError writes e as an OpenAI error response with the JSON content type.
func WriteError(w http.ResponseWriter, e *APIError) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	if e.RetryAfter > 0 {
		secs := int((e.RetryAfter + time.Second - 1) / time.Second)
		h.Set("Retry-After", strconv.Itoa(secs))
	}
	w.WriteHeader(e.Status)
	b, _ := json.Marshal(e.Envelope()) // marshalling strings cannot fail
	b = append(b, '\n')
	_, _ = w.Write(b)
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
