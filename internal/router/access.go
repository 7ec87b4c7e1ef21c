package router

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/semantic-router/semantic-router/internal/admission"
	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/secret"
)

// access is the router's admission state: client keys, rate limits, the in-flight gate and
// the management tokens. Its state starts afresh with each configuration (a reload refills
// the buckets). Keys and tokens are read through their own secret store, so a rotated
// file: key is re-hashed at once.
type access struct {
	store     *secret.Store
	keys      *admission.Keys // nil: the listener is open
	policies  map[string]*keyPolicy
	models    map[string]*limit
	gate      *admission.Gate
	maxFlight int

	mgmtOn bool
	mgmt   *admission.Keys
	roles  map[string]string
}

type limit struct {
	cfg      config.RateLimit
	requests *admission.Bucket
	tokens   *admission.Bucket
}

func newLimit(c config.RateLimit) *limit {
	return &limit{cfg: c, requests: admission.NewBucket(c.RequestsPerMinute, nil), tokens: admission.NewBucket(c.TokensPerMinute, nil)}
}

type keyPolicy struct {
	name   string
	models map[string]bool // nil: every model
	limit  *limit
}

func (r *Router) newAccess(cfg *config.Config, lookupEnv func(string) (string, bool)) (*access, error) {
	a := &access{policies: map[string]*keyPolicy{}, models: map[string]*limit{}}
	ad := cfg.Admission
	a.gate, a.maxFlight = admission.NewGate(ad.MaxInFlight, ad.MaxQueue, ad.QueueTimeout.D()), ad.MaxInFlight
	for _, l := range ad.ModelLimits {
		a.models[l.Model] = newLimit(l.RateLimit)
	}
	// Which key set a rotated reference belongs to; set before the store can call back.
	type target struct {
		keys *admission.Keys
		name string
		src  *secret.Source
	}
	targets := map[string]target{}
	var mu sync.Mutex
	a.store = secret.NewStore(secret.Options{LookupEnv: lookupEnv, Logger: r.log, OnRotate: func(ref string) {
		mu.Lock()
		t := targets[ref]
		mu.Unlock()
		if t.src == nil {
			return // still opening: open reads the current value itself
		}
		if r.metrics != nil {
			r.metrics.CredentialRotations.WithLabelValues(ref).Inc()
		}
		if v, err := t.src.Value(); err == nil {
			t.keys.Set(t.name, v)
		}
	}})
	var errs []error
	open := func(keys *admission.Keys, name, field string, ref config.SecretRef) {
		src, err := a.store.Open(string(ref))
		if err != nil {
			errs = append(errs, fmt.Errorf("%s %q: %s: %w", field, name, ref, err))
			return
		}
		mu.Lock()
		targets[string(ref)] = target{keys, name, src}
		mu.Unlock()
		v, err := src.Value()
		if err != nil {
			errs = append(errs, fmt.Errorf("%s %q: %s: %w", field, name, ref, err))
			return
		}
		keys.Set(name, v)
	}
	if len(ad.APIKeys) > 0 {
		a.keys = admission.NewKeys()
	}
	for _, k := range ad.APIKeys {
		p := &keyPolicy{name: k.Name, limit: newLimit(k.RateLimit)}
		if len(k.Models) > 0 {
			p.models = map[string]bool{}
			for _, m := range k.Models {
				p.models[m] = true
			}
		}
		a.policies[k.Name] = p
		open(a.keys, k.Name, "admission.api_keys", k.Key)
	}
	if m := cfg.Management; m.AuthEnabled() {
		a.mgmtOn, a.mgmt, a.roles = true, admission.NewKeys(), map[string]string{}
		for _, t := range m.Tokens {
			a.roles[t.Name] = t.Role
			open(a.mgmt, t.Name, "management.tokens", t.Token)
		}
	}
	if len(errs) > 0 {
		_ = a.store.Close()
		return nil, errors.Join(errs...)
	}
	return a, nil
}

// Client is the sender of a request: the name of its API key, or the zero Client when the
// listener is open.
type Client struct{ policy *keyPolicy }

// Name is the key's name, or "" for an open listener.
func (c Client) Name() string {
	if c.policy == nil {
		return ""
	}
	return c.policy.name
}

// Authenticate returns the client whose key token is. With no keys configured every
// request is the anonymous client. The error is an *openai.APIError that never echoes the
// token.
func (r *Router) Authenticate(token string) (Client, error) {
	a := r.access
	if a.keys == nil {
		return Client{}, nil
	}
	name, ok := a.keys.Lookup(token)
	if !ok {
		r.reject("unauthenticated")
		msg := "missing API key: send it as Authorization: Bearer <key>"
		if token != "" {
			msg = "the API key is not valid"
		}
		return Client{}, &openai.APIError{Status: http.StatusUnauthorized, Type: openai.TypeAuthentication, Code: "invalid_api_key", Message: msg}
	}
	return Client{policy: a.policies[name]}, nil
}

// Ticket is an admitted request. Done must be called once when it ends.
type Ticket struct {
	release func()
	client  Client
	limits  []*limit
	once    sync.Once
}

// Done frees the request's in-flight slot and charges the tokens of usage (nil: none known)
// to the rate limits.
func (t *Ticket) Done(u *openai.Usage) {
	t.once.Do(func() {
		t.release()
		if u != nil {
			for _, l := range t.limits {
				l.tokens.Spend(float64(u.PromptTokens + u.CompletionTokens))
			}
		}
	})
}

// Admit decides whether c may send a request for model now: AdmitClient, then
// AdmitModel. Errors are *openai.APIError: 403, 429 with Retry-After, or 503.
func (r *Router) Admit(ctx context.Context, c Client, model string) (*Ticket, error) {
	t, err := r.AdmitClient(ctx, c)
	if err != nil {
		return nil, err
	}
	if err := r.AdmitModel(t, model); err != nil {
		t.Done(nil)
		return nil, err
	}
	return t, nil
}

// AdmitClient is the part of admission that needs only the request's headers, so that it
// runs before the body is read: the key's rate limits must have room and an in-flight slot
// must be free (or free up within the queue timeout). A request refused here never has its
// body read, so slow or large bodies cannot get past max_in_flight. Errors are
// *openai.APIError: 429 with Retry-After, or 503.
func (r *Router) AdmitClient(ctx context.Context, c Client) (*Ticket, error) {
	a := r.access
	t := &Ticket{client: c}
	if p := c.policy; p != nil {
		if err := r.take(p.limit, fmt.Sprintf("API key %q", p.name), "key_rate_limited"); err != nil {
			return nil, err
		}
		t.limits = append(t.limits, p.limit)
	}
	release, waited, err := a.gate.Enter(ctx)
	if a.gate != nil && r.metrics != nil && err == nil {
		r.metrics.QueueWait.Observe(waited.Seconds())
	}
	if err != nil {
		t.refund()
		if ctx.Err() != nil {
			return nil, &openai.APIError{Status: StatusClientClosed, Type: openai.TypeInvalidRequest, Code: "client_closed_request", Message: "the client went away", Err: err}
		}
		r.reject("overloaded")
		return nil, &openai.APIError{Status: http.StatusServiceUnavailable, Type: openai.TypeServer, Code: "overloaded", RetryAfter: time.Second, Err: err,
			Message: fmt.Sprintf("the router is serving its maximum of %d requests (admission.max_in_flight) and %v; retry shortly", a.maxFlight, err)}
	}
	t.release = release
	return t, nil
}

// AdmitModel is the part of admission that needs the parsed body: the client's key must
// allow model, and the model's rate limits must have room. A refusal gives back the
// request the key's limit counted; the caller still calls t.Done to free the slot. Errors
// are *openai.APIError: 403, or 429 with Retry-After.
func (r *Router) AdmitModel(t *Ticket, model string) error {
	if p := t.client.policy; p != nil && p.models != nil && !p.models[model] {
		t.refund()
		r.reject("model_not_allowed")
		return &openai.APIError{Status: http.StatusForbidden, Type: openai.TypePermission, Code: "model_not_allowed", Param: "model",
			Message: fmt.Sprintf("the API key %q may not use model %q", p.name, model)}
	}
	if l := r.access.models[model]; l != nil {
		if err := r.take(l, fmt.Sprintf("model %q", model), "model_rate_limited"); err != nil {
			t.refund()
			return err
		}
		t.limits = append(t.limits, l)
	}
	return nil
}

// take counts one request against l, or refuses it when l's requests or tokens per minute
// are spent.
func (r *Router) take(l *limit, whose, reason string) error {
	if ok, wait := l.tokens.Positive(); !ok {
		r.reject(reason)
		return rateLimited(fmt.Sprintf("%s has used its %d tokens per minute", whose, l.cfg.TokensPerMinute), wait)
	}
	if ok, wait := l.requests.Take(1); !ok {
		r.reject(reason)
		return rateLimited(fmt.Sprintf("%s has sent its %d requests per minute", whose, l.cfg.RequestsPerMinute), wait)
	}
	return nil
}

// refund gives back the requests counted for a request refused later on.
func (t *Ticket) refund() {
	for _, l := range t.limits {
		l.requests.Return(1)
	}
	t.limits = nil
}

// Allows reports whether the client's key may use model (always, on an open listener or
// for a key without a models list).
func (c Client) Allows(model string) bool {
	return c.policy == nil || c.policy.models == nil || c.policy.models[model]
}

func rateLimited(msg string, wait time.Duration) *openai.APIError {
	return &openai.APIError{Status: http.StatusTooManyRequests, Type: openai.TypeRateLimit, Code: "rate_limit_exceeded",
		Message: msg + "; retry after the Retry-After header's seconds", RetryAfter: max(wait, time.Second)}
}

func (r *Router) reject(reason string) {
	if r.metrics != nil {
		r.metrics.AdmissionRejections.WithLabelValues(reason).Inc()
	}
}

// ManagementAuth reports whether the management API asks for a token.
func (r *Router) ManagementAuth() bool { return r.access.mgmtOn }

// ManagementRole returns the name and role (config.RoleRead or config.RoleAdmin) of a
// management token, or false.
func (r *Router) ManagementRole(token string) (name, role string, ok bool) {
	if !r.access.mgmtOn {
		return "", config.RoleAdmin, true
	}
	name, ok = r.access.mgmt.Lookup(token)
	return name, r.access.roles[name], ok
}

func (a *access) close() error {
	if a == nil {
		return nil
	}
	return a.store.Close()
}
