package admission

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/secret"
)

// Options are a Policy's dependencies. The zero value is usable.
type Options struct {
	// LookupEnv resolves env.VAR references; default os.LookupEnv.
	LookupEnv func(string) (string, bool)
	// Logger receives one line per key or token file re-read and per failed re-read; nil
	// logs nothing. It never sees a value.
	Logger *slog.Logger
	// Now is the rate limits' clock; default time.Now.
	Now func() time.Time
	// OnRefuse is called with the reason of each refusal but ReasonClientGone, on the
	// refused request's goroutine; it must not block.
	OnRefuse func(Reason)
	// OnRotate is called with the reference (never the value) of a client key or management
	// token whose file changed, after the new value is in force. It runs on the goroutine
	// that noticed the change and must not block.
	OnRotate func(ref string)
	// PollInterval, when positive, checks key and token files for changes with a stat at
	// most this often, when a request presents a key or token, instead of watching their
	// directories. The policy does the same, at one second, when no watcher can be created.
	PollInterval time.Duration
	// OnQueueWait is called with how long each admitted request waited for an in-flight
	// slot (0 when one was free at once); only when admission.max_in_flight is set.
	OnQueueWait func(time.Duration)
}

// Policy decides which requests may start: client keys, their models and rate limits, the
// models' rate limits and the in-flight cap; and which tokens may use the management API.
// Its state starts afresh with each Policy (a configuration reload refills the buckets).
// Keys and tokens are read through a secret store of its own, so a rotated file: key is
// re-hashed as soon as the file changes. It is safe for concurrent use.
type Policy struct {
	opts      Options
	store     *secret.Store
	files     []*secret.Source // the file: keys and tokens, polled when not watched
	keys      *Keys            // nil: the listener is open
	clients   map[string]*keyPolicy
	models    map[string]*limit
	gate      *Gate
	maxFlight int

	mgmtOn bool
	mgmt   *Keys
	roles  map[string]string
}

// limit is one rate limit: a key's or a model's.
type limit struct {
	cfg      config.RateLimit
	requests *Bucket
	tokens   *Bucket
}

func newLimit(c config.RateLimit, now func() time.Time) *limit {
	return &limit{cfg: c, requests: NewBucket(c.RequestsPerMinute, now), tokens: NewBucket(c.TokensPerMinute, now)}
}

// keyPolicy is what one client key may do.
type keyPolicy struct {
	name   string
	models map[string]bool // nil: every model
	limit  *limit
}

// NewPolicy builds the policy of an admission section and a management section (nil: the
// management API is open). It reads every key and token, and returns an error naming each
// one that cannot be read by its field, its name and its reference, never its value.
func NewPolicy(cfg config.Admission, mgmt *config.Management, o Options) (*Policy, error) {
	p := &Policy{opts: o, clients: map[string]*keyPolicy{}, models: map[string]*limit{}}
	p.gate, p.maxFlight = NewGate(cfg.MaxInFlight, cfg.MaxQueue, cfg.QueueTimeout.D()), cfg.MaxInFlight
	for _, l := range cfg.ModelLimits {
		p.models[l.Model] = newLimit(l.RateLimit, o.Now)
	}
	// Which key set a rotated reference belongs to; set before the store can call back.
	type target struct {
		keys *Keys
		name string
		src  *secret.Source
	}
	targets := map[string]target{}
	var mu sync.Mutex
	p.store = secret.NewStore(secret.Options{LookupEnv: o.LookupEnv, Logger: o.Logger, PollInterval: o.PollInterval, OnRotate: func(ref string) {
		mu.Lock()
		t := targets[ref]
		mu.Unlock()
		if t.src == nil {
			return // still opening: open reads the current value itself
		}
		if v, err := t.src.Value(); err == nil {
			t.keys.Set(t.name, v)
		}
		if o.OnRotate != nil {
			o.OnRotate(ref)
		}
	}})
	var errs []error
	type entry struct {
		keys *Keys
		name string
	}
	paths := map[entry]string{} // the field of each name's reference
	open := func(keys *Keys, name, path string, ref config.SecretRef) {
		src, err := p.store.OpenToken(string(ref))
		if err != nil {
			errs = append(errs, &config.RefError{Path: path, Ref: ref, Err: err})
			return
		}
		mu.Lock()
		targets[string(ref)] = target{keys, name, src}
		mu.Unlock()
		if strings.HasPrefix(string(ref), "file:") {
			p.files = append(p.files, src)
		}
		v, err := src.Value()
		if err != nil {
			errs = append(errs, &config.RefError{Path: path, Ref: ref, Err: err})
			return
		}
		keys.Set(name, v)
		// Two names with one value could not be told apart: which key's models, limits or
		// role a request got would depend on chance.
		if other := keys.Same(name); other != "" {
			errs = append(errs, &config.RefError{Path: path, Ref: ref,
				Err: fmt.Errorf("holds the same value as %s; give each its own", paths[entry{keys, other}])})
		}
		paths[entry{keys, name}] = path
	}
	if len(cfg.APIKeys) > 0 {
		p.keys = NewKeys()
	}
	for i, k := range cfg.APIKeys {
		kp := &keyPolicy{name: k.Name, limit: newLimit(k.RateLimit, o.Now)}
		if len(k.Models) > 0 {
			kp.models = map[string]bool{}
			for _, m := range k.Models {
				kp.models[m] = true
			}
		}
		p.clients[k.Name] = kp
		open(p.keys, k.Name, fmt.Sprintf("admission.api_keys[%d].key", i), k.Key)
	}
	if mgmt.AuthEnabled() {
		p.mgmtOn, p.mgmt, p.roles = true, NewKeys(), map[string]string{}
		for i, t := range mgmt.Tokens {
			p.roles[t.Name] = t.Role
			open(p.mgmt, t.Name, fmt.Sprintf("management.tokens[%d].token", i), t.Token)
		}
	}
	if len(errs) > 0 {
		_ = p.store.Close()
		return nil, errors.Join(errs...)
	}
	return p, nil
}

// Close stops watching key and token files. A nil *Policy closes nothing.
func (p *Policy) Close() error {
	if p == nil {
		return nil
	}
	return p.store.Close()
}

// Client is the sender of a request: its API key, or the zero Client when the listener is
// open (no keys configured).
type Client struct{ key *keyPolicy }

// Name is the key's configured name, or "" for an open listener.
func (c Client) Name() string {
	if c.key == nil {
		return ""
	}
	return c.key.name
}

// Allows reports whether the client's key may use model (always, on an open listener or
// for a key without a models list).
func (c Client) Allows(model string) bool {
	return c.key == nil || c.key.models == nil || c.key.models[model]
}

// Authenticate returns the client whose key token is. With no keys configured every
// request is the anonymous client. The refusal never echoes the token.
func (p *Policy) Authenticate(token string) (Client, error) {
	if p.keys == nil {
		return Client{}, nil
	}
	p.poll()
	name, ok := p.keys.Lookup(token)
	if !ok {
		msg := "missing API key: send it as Authorization: Bearer <key>"
		if token != "" {
			msg = "the API key is not valid"
		}
		return Client{}, p.refuse(&Refusal{Reason: ReasonUnauthenticated, Message: msg})
	}
	return Client{key: p.clients[name]}, nil
}

// Ticket is an admitted request. Done must be called once it ends.
type Ticket struct {
	release func()
	client  Client
	limits  []*limit // the key's and the model's, in buf
	buf     [2]*limit
	once    sync.Once
}

// Done frees the request's in-flight slot and charges tokens (the answer's prompt and
// completion tokens; 0 when unknown) to the rate limits that admitted it. Only the first
// call counts.
func (t *Ticket) Done(tokens int) {
	t.once.Do(func() {
		t.release()
		for _, l := range t.limits {
			l.tokens.Spend(float64(tokens))
		}
	})
}

// Admit decides whether c may send a request for model now: AdmitClient, then AdmitModel.
// Errors are *Refusal.
func (p *Policy) Admit(ctx context.Context, c Client, model string) (*Ticket, error) {
	t, err := p.AdmitClient(ctx, c)
	if err != nil {
		return nil, err
	}
	if err := p.AdmitModel(t, model); err != nil {
		t.Done(0)
		return nil, err
	}
	return t, nil
}

// AdmitClient is the part of admission that needs only who is asking, so that a front
// door runs it before reading the body: the key's rate limits must have room and an
// in-flight slot must be free (or free up within the queue timeout). A request refused here
// never has its body read, so slow or large bodies cannot get past max_in_flight. Errors
// are *Refusal: ReasonKeyRateLimited, ReasonOverloaded or ReasonClientGone.
func (p *Policy) AdmitClient(ctx context.Context, c Client) (*Ticket, error) {
	t := &Ticket{client: c}
	t.limits = t.buf[:0]
	if k := c.key; k != nil {
		if err := p.take(k.limit, ReasonKeyRateLimited, "API key", k.name); err != nil {
			return nil, err
		}
		t.limits = append(t.limits, k.limit)
	}
	release, waited, err := p.gate.Enter(ctx)
	if err != nil {
		t.refund()
		if ctx.Err() != nil {
			return nil, &Refusal{Reason: ReasonClientGone, Message: "the client went away", Err: err}
		}
		return nil, p.refuse(&Refusal{Reason: ReasonOverloaded, RetryAfter: time.Second, Err: err,
			Message: fmt.Sprintf("the router is serving its maximum of %d requests (admission.max_in_flight) and %v; retry shortly", p.maxFlight, err)})
	}
	if p.gate != nil && p.opts.OnQueueWait != nil {
		p.opts.OnQueueWait(waited)
	}
	t.release = release
	return t, nil
}

// AdmitModel is the part of admission that needs the request's model: the client's key
// must allow it, and the model's rate limits must have room. A refusal gives back the
// request the key's limit counted; the caller still calls t.Done to free the slot. Errors
// are *Refusal: ReasonModelNotAllowed or ReasonModelRateLimited.
func (p *Policy) AdmitModel(t *Ticket, model string) error {
	if k := t.client.key; !t.client.Allows(model) {
		t.refund()
		return p.refuse(&Refusal{Reason: ReasonModelNotAllowed, Message: fmt.Sprintf("the API key %q may not use model %q", k.name, model)})
	}
	if l := p.models[model]; l != nil {
		if err := p.take(l, ReasonModelRateLimited, "model", model); err != nil {
			t.refund()
			return err
		}
		t.limits = append(t.limits, l)
	}
	return nil
}

// take counts one request against l, the limit of the key or model (what) named name, or
// refuses it when l's requests or tokens per minute are spent. The message is formatted
// only for a refusal: an admitted request allocates nothing here.
func (p *Policy) take(l *limit, reason Reason, what, name string) error {
	if ok, wait := l.tokens.Positive(); !ok {
		return p.refuse(rateLimited(reason, fmt.Sprintf("%s %q is at its limit of %d tokens per minute", what, name, l.cfg.TokensPerMinute), wait))
	}
	if ok, wait := l.requests.Take(1); !ok {
		return p.refuse(rateLimited(reason, fmt.Sprintf("%s %q is at its limit of %d requests per minute", what, name, l.cfg.RequestsPerMinute), wait))
	}
	return nil
}

func rateLimited(reason Reason, msg string, wait time.Duration) *Refusal {
	return &Refusal{Reason: reason, Message: msg + "; retry after the Retry-After header's seconds", RetryAfter: max(wait, time.Second)}
}

// refuse reports r and returns it.
func (p *Policy) refuse(r *Refusal) *Refusal {
	if p.opts.OnRefuse != nil {
		p.opts.OnRefuse(r.Reason)
	}
	return r
}

// refund gives back the requests counted for a request refused later on.
func (t *Ticket) refund() {
	for _, l := range t.limits {
		l.requests.Return(1)
	}
	t.limits = nil
}

// poll reads every file: key and token, so that one whose directory is not watched is
// re-read (at most once per poll interval) and re-hashed before it is compared. A watched
// one costs an atomic load.
func (p *Policy) poll() {
	for _, src := range p.files {
		_, _ = src.Value()
	}
}

// ManagementAuth reports whether the management API asks for a token.
func (p *Policy) ManagementAuth() bool { return p.mgmtOn }

// ManagementRole returns the name and role (config.RoleRead or config.RoleAdmin) of a
// management token, or false. With management auth off every caller is an admin.
func (p *Policy) ManagementRole(token string) (name, role string, ok bool) {
	if !p.mgmtOn {
		return "", config.RoleAdmin, true
	}
	p.poll()
	name, ok = p.mgmt.Lookup(token)
	return name, p.roles[name], ok
}
