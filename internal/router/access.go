package router

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/semantic-router/semantic-router/internal/admission"
	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/openai"
)

// access is the router's admission policy for one configuration; the policy lives in
// package admission, and this file only asks it and turns its refusals into API errors.
type access struct{ policy *admission.Policy }

func (r *Router) newAccess(cfg *config.Config, lookupEnv func(string) (string, bool)) (*access, error) {
	o := admission.Options{LookupEnv: lookupEnv, Logger: r.log}
	if m := r.metrics; m != nil {
		o.OnRefuse = func(reason admission.Reason) { m.AdmissionRejections.WithLabelValues(string(reason)).Inc() }
		for _, reason := range admission.Reasons() { // from 0, so that increase() sees the first
			m.AdmissionRejections.WithLabelValues(string(reason))
		}
		o.OnRotate = func(ref string) { m.CredentialRotations.WithLabelValues(ref).Inc() }
		o.OnQueueWait = func(d time.Duration) { m.QueueWait.Observe(d.Seconds()) }
	}
	p, err := admission.NewPolicy(cfg.Admission, cfg.Management, o)
	if err != nil {
		return nil, err
	}
	return &access{policy: p}, nil
}

func (a *access) close() error {
	if a == nil {
		return nil
	}
	return a.policy.Close()
}

// admissionKinds maps every admission refusal to its kind of refusal, whose status, type
// and code come from the one table (refusals.go); the message and Retry-After are the
// refusal's own.
var admissionKinds = map[admission.Reason]Kind{
	admission.ReasonUnauthenticated:  KindUnauthenticated,
	admission.ReasonModelNotAllowed:  KindModelNotAllowed,
	admission.ReasonKeyRateLimited:   KindRateLimited,
	admission.ReasonModelRateLimited: KindRateLimited,
	admission.ReasonOverloaded:       KindOverloaded,
	admission.ReasonClientGone:       KindClientGone,
}

// refused turns an admission error into the *openai.APIError a client sees. An error that
// is no refusal (none is expected) is an internal error.
func refused(err error) *openai.APIError {
	var ref *admission.Refusal
	if errors.As(err, &ref) {
		if k, ok := admissionKinds[ref.Reason]; ok {
			e := refuse(k, ref.Message, ref)
			e.RetryAfter = ref.RetryAfter
			if k == KindModelNotAllowed {
				e.Param = "model"
			}
			return e
		}
	}
	return &openai.APIError{Status: http.StatusInternalServerError, Type: openai.TypeServer, Message: "internal error in admission", Err: err}
}

// Client is the sender of a request: the name of its API key, or the zero Client when the
// listener is open.
type Client = admission.Client

// Authenticate returns the client whose key token is. With no keys configured every
// request is the anonymous client. The error is an *openai.APIError (401) that never
// echoes the token.
func (r *Router) Authenticate(token string) (Client, error) {
	c, err := r.access.policy.Authenticate(token)
	if err != nil {
		return Client{}, refused(err)
	}
	return c, nil
}

// Ticket is an admitted request. Done must be called once when it ends.
type Ticket struct{ t *admission.Ticket }

// Done frees the request's in-flight slot and charges the tokens of usage (nil: none known)
// to the rate limits. Only the first call counts.
func (t *Ticket) Done(u *openai.Usage) {
	tokens := 0
	if u != nil {
		tokens = u.PromptTokens + u.CompletionTokens
	}
	t.t.Done(tokens)
}

// Admit decides whether c may send a request for model now: AdmitClient, then
// AdmitModel. Errors are *openai.APIError: 403, 429 with Retry-After, or 503.
func (r *Router) Admit(ctx context.Context, c Client, model string) (*Ticket, error) {
	t, err := r.access.policy.Admit(ctx, c, model)
	if err != nil {
		return nil, refused(err)
	}
	return &Ticket{t}, nil
}

// AdmitClient is the part of admission that needs only the request's headers, so that it
// runs before the body is read: the key's rate limits must have room and an in-flight slot
// must be free (or free up within the queue timeout). A request refused here never has its
// body read, so slow or large bodies cannot get past max_in_flight. Errors are
// *openai.APIError: 429 with Retry-After, 503, or 499 when the client went away.
func (r *Router) AdmitClient(ctx context.Context, c Client) (*Ticket, error) {
	t, err := r.access.policy.AdmitClient(ctx, c)
	if err != nil {
		return nil, refused(err)
	}
	return &Ticket{t}, nil
}

// AdmitModel is the part of admission that needs the parsed body: the client's key must
// allow model, and the model's rate limits must have room. A refusal gives back the
// request the key's limit counted; the caller still calls t.Done to free the slot. Errors
// are *openai.APIError: 403, or 429 with Retry-After.
func (r *Router) AdmitModel(t *Ticket, model string) error {
	if err := r.access.policy.AdmitModel(t.t, model); err != nil {
		return refused(err)
	}
	return nil
}

// ManagementAuth reports whether the management API asks for a token.
func (r *Router) ManagementAuth() bool { return r.access.policy.ManagementAuth() }

// ManagementRole returns the name and role (config.RoleRead or config.RoleAdmin) of a
// management token, or false.
func (r *Router) ManagementRole(token string) (name, role string, ok bool) {
	return r.access.policy.ManagementRole(token)
}
