package provider

import (
	"context"
	"errors"
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
	// Param is the request field a KindBadRequest error is about (such as "seed"), when the
	// provider refused a field it cannot translate; empty otherwise.
	Param string
	// Protocol names the protocol the backend was spoken to in, when it is not OpenAI's
	// ("Bedrock Converse", "Vertex Gemini"): a KindProtocol error tells the client which
	// protocol the answer did not follow. Empty means the OpenAI protocol.
	Protocol string
	// Err is the cause, for logs and errors.Is.
	Err error
}

func (e *Error) Error() string { return fmt.Sprintf("model %q: %s", e.Model, e.Message) }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Detail is the error with its cause, for logs: where the message leaves out what a client
// must not see (the Location of a refused redirect, the size limit's cause), the cause has it.
// It never holds a credential: causes are transport errors and the provider's own words.
func (e *Error) Detail() string {
	if e.Err == nil {
		return e.Error()
	}
	return e.Error() + ": " + e.Err.Error()
}

// Causes a *Error may wrap, for errors.Is. Each comes with a Kind the router already maps:
// the cause says more precisely what happened, for logs and for callers that want to tell
// these failures apart.
var (
	// ErrResponseTooLarge: a non-streamed answer was longer than the provider's limit
	// (max_response_body_bytes). Kind is KindProtocol; the body was not read whole.
	ErrResponseTooLarge = errors.New("response body exceeds the limit")
	// ErrRedirect: the backend answered with a 3xx redirect, which providers never follow.
	// Kind is KindProtocol; the wrapped text holds the Location, Message does not.
	ErrRedirect = errors.New("redirect not followed")
	// ErrCutShort: the backend began a non-streamed answer (its status and headers came)
	// and the connection ended before the body did: a crash, a restart or a proxy's
	// timeout, not a connection that could not be made. Kind is KindProtocol.
	ErrCutShort = errors.New("answer cut short")
	// ErrMalformedStream: a stream ended without its terminator, or carried an event that
	// is not what the protocol allows. Kind is KindProtocol.
	ErrMalformedStream = errors.New("malformed stream")
	// ErrUnsupportedField: the request holds a field the backend cannot honour; the
	// provider refused it rather than drop it. Kind is KindBadRequest and Param names it.
	// It also matches ErrRefused.
	ErrUnsupportedField = errors.New("unsupported request field")
	// ErrRefused: the provider could not translate the request into its service's
	// protocol and sent nothing (a *Refusal says why). Kind is KindBadRequest: the fault
	// is the request's, and no backend was asked.
	ErrRefused = errors.New("request refused before it was sent")
)

// ModelOutputError is the cause of a *Error for an answer the service delivered whole but
// whose model output cannot be given to the client: Gemini's MALFORMED_FUNCTION_CALL, a
// function call that does not parse. Kind is KindUpstream: the request was good and the
// endpoint healthy, and sampling again, from the same model or another, may succeed. Its
// What is the router's own words, safe to show clients.
type ModelOutputError struct {
	// What is what the model produced, such as "a malformed function call".
	What string
	// Reason is the service's name for it, such as MALFORMED_FUNCTION_CALL.
	Reason string
}

func (e *ModelOutputError) Error() string {
	return fmt.Sprintf("the model produced %s (%s)", e.What, e.Reason)
}

// LimitError is the cause of an answer refused for passing a size limit; it matches
// ErrResponseTooLarge, and tells clients and logs which setting to raise.
type LimitError struct {
	// Setting names the limit, such as "max_response_body_bytes".
	Setting string
	// Limit is its value in bytes.
	Limit int64
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("%s: %s is %d bytes", ErrResponseTooLarge, e.Setting, e.Limit)
}

// Unwrap makes the error match ErrResponseTooLarge.
func (e *LimitError) Unwrap() error { return ErrResponseTooLarge }

// DeadlineCause is the cause a caller gives a context.CancelCauseFunc when it ends a call
// because a time limit of its own passed (the router's first_token_timeout and
// stream_idle_timeout). A provider whose call ends so returns a *Error of KindTimeout whose
// message names the limit, where a cancellation without this cause (the client went away)
// gives KindCanceled. errors.Is(cause, context.DeadlineExceeded) reports true.
type DeadlineCause struct {
	// Setting names the limit, such as "first_token_timeout".
	Setting string
	// After is the limit's value.
	After time.Duration
}

func (c *DeadlineCause) Error() string {
	return fmt.Sprintf("no answer within %s (%s)", c.After, c.Setting)
}

// Is makes the cause match context.DeadlineExceeded.
func (c *DeadlineCause) Is(target error) bool { return target == context.DeadlineExceeded }
