package provider

import (
	"fmt"
	"time"
)

// Kind classifies a backend failure. The router decides on retries and fallbacks, and the
// status a client sees, from the kind alone.
type Kind int

// Kinds of backend failure.
const (
	KindInternal    Kind = iota // a bug or an unexpected condition in the router
	KindConnect                 // the connection could not be made (refused, DNS, unreachable)
	KindTLS                     // the TLS handshake failed (unknown authority, wrong name, expired)
	KindTimeout                 // the backend did not answer in time
	KindCanceled                // the client went away
	KindAuth                    // the backend rejected the credentials (401, 403)
	KindNotFound                // the backend does not know the model or path (404)
	KindBadRequest              // the backend rejected the request (400, 422)
	KindRateLimited             // the backend is throttling (429)
	KindUpstream                // the backend failed (5xx)
	KindProtocol                // the backend answered something that is not the expected protocol
)

var kindNames = [...]string{"internal", "connect", "tls", "timeout", "canceled", "auth", "not_found",
	"bad_request", "rate_limited", "upstream", "protocol"}

// String returns the kind's name, used as the "reason" label of error metrics.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

// Error is a backend failure. Message is safe to show a client: it names the model and the
// likely cause and never contains a credential.
type Error struct {
	Kind Kind
	// Model is the router's name for the model.
	Model string
	// Status is the upstream HTTP status, or 0 when there was no response.
	Status int
	// Message says what happened and what to check.
	Message string
	// RetryAfter is the backend's Retry-After, when it sent one.
	RetryAfter time.Duration
	// Err is the cause, for logs and errors.Is.
	Err error
}

func (e *Error) Error() string { return fmt.Sprintf("model %q: %s", e.Model, e.Message) }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }
