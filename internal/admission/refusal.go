package admission

import "time"

// Reason says why a request was refused. Its value doubles as the reason label of the
// rejection metric, so it never holds a key or a key's name.
type Reason string

// The reasons a Policy refuses a request.
const (
	// ReasonUnauthenticated: client keys are configured and the request carried none, or
	// one that matches none of them.
	ReasonUnauthenticated Reason = "unauthenticated"
	// ReasonModelNotAllowed: the client's key has a models list without the model.
	ReasonModelNotAllowed Reason = "model_not_allowed"
	// ReasonKeyRateLimited: the client's key has spent its requests or tokens per minute.
	ReasonKeyRateLimited Reason = "key_rate_limited"
	// ReasonModelRateLimited: the model has spent its requests or tokens per minute.
	ReasonModelRateLimited Reason = "model_rate_limited"
	// ReasonOverloaded: every in-flight slot was taken, and no place in the queue was free
	// or no slot freed up within the queue timeout.
	ReasonOverloaded Reason = "overloaded"
	// ReasonClientGone: the client went away while the request waited for a slot. Nobody
	// reads this refusal, and it is not counted as a rejection.
	ReasonClientGone Reason = "client_gone"
)

// Reasons returns the reasons a Policy refuses a request with and counts: all but
// ReasonClientGone.
func Reasons() []Reason {
	return []Reason{ReasonUnauthenticated, ReasonModelNotAllowed, ReasonKeyRateLimited, ReasonModelRateLimited, ReasonOverloaded}
}

// Refusal is every error a Policy returns to a request. Its Message is written for the
// client and never holds a key or token; each front door maps Reason to its own status
// (an HTTP status, a gRPC code) in one place.
type Refusal struct {
	Reason Reason
	// Message says what was refused and why, naming the key by its configured name.
	Message string
	// RetryAfter, when positive, is how long until the refused request would be admitted
	// (at least a second for a rate limit, a second when overloaded).
	RetryAfter time.Duration
	// Err is the cause, when there is one: ErrQueueFull, ErrQueueTimeout or the context's
	// error. It is for logs and errors.Is, not for clients.
	Err error
}

// Error returns the message.
func (r *Refusal) Error() string { return r.Message }

// Unwrap returns the cause.
func (r *Refusal) Unwrap() error { return r.Err }
