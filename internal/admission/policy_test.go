package admission

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/semantic-router/semantic-router/internal/config"
)

const (
	teamKey  = "sk-team-a-0123456789"
	otherKey = "sk-other-9876543210"
)

// clock is a settable clock for the rate limits.
type clock struct{ t atomic.Int64 }

func newClock() *clock { c := &clock{}; c.t.Store(time.Unix(1000, 0).UnixNano()); return c }

func (c *clock) now() time.Time          { return time.Unix(0, c.t.Load()) }
func (c *clock) advance(d time.Duration) { c.t.Add(int64(d)) }
func env(vars map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := vars[k]; return v, ok }
}

// refusals counts the reasons OnRefuse reported.
type refusals struct {
	mu sync.Mutex
	n  map[Reason]int
}

func (r *refusals) add(reason Reason) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.n == nil {
		r.n = map[Reason]int{}
	}
	r.n[reason]++
}

func (r *refusals) get() map[Reason]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := map[Reason]int{}
	for k, v := range r.n {
		out[k] = v
	}
	return out
}

// newPolicy builds a policy over two env keys, team-a and other, with the clock c.
func newPolicy(t *testing.T, ad config.Admission, c *clock, rf *refusals) *Policy {
	t.Helper()
	p, err := NewPolicy(ad, nil, Options{Now: c.now, OnRefuse: rf.add,
		LookupEnv: env(map[string]string{"TEAM_A": teamKey, "OTHER": otherKey})})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	return p
}

func auth(t *testing.T, p *Policy, token string) Client {
	t.Helper()
	c, err := p.Authenticate(token)
	if err != nil {
		t.Fatalf("Authenticate: %v", err)
	}
	return c
}

func admit(t *testing.T, p *Policy, token, model string) *Ticket {
	t.Helper()
	tk, err := p.Admit(context.Background(), auth(t, p, token), model)
	if err != nil {
		t.Fatalf("Admit(%s): %v", model, err)
	}
	return tk
}

// TestRefusals drives each refusal and checks its reason, the exact message the client
// reads, Retry-After, the cause and what OnRefuse counted.
func TestRefusals(t *testing.T) {
	t.Parallel()
	keys := []config.APIKey{
		{Name: "team-a", Key: "env.TEAM_A", Models: []string{"general", "auto"}, RateLimit: config.RateLimit{RequestsPerMinute: 2, TokensPerMinute: 10}},
		{Name: "other", Key: "env.OTHER"},
	}
	models := []config.ModelLimit{
		{Model: "general", RateLimit: config.RateLimit{RequestsPerMinute: 4}},
		{Model: "reasoning", RateLimit: config.RateLimit{TokensPerMinute: 100}},
	}
	limited := config.Admission{APIKeys: keys, ModelLimits: models}
	capped := config.Admission{APIKeys: keys, MaxInFlight: 1, MaxQueue: 1, QueueTimeout: config.Duration(10 * time.Millisecond)}
	noQueue := config.Admission{MaxInFlight: 1, QueueTimeout: config.Duration(time.Hour)}
	for _, tt := range []struct {
		name    string
		ad      config.Admission
		run     func(t *testing.T, p *Policy, c *clock) error
		want    Refusal
		counted bool // OnRefuse saw it
	}{
		{"no key", limited, func(t *testing.T, p *Policy, _ *clock) error {
			_, err := p.Authenticate("")
			return err
		}, Refusal{Reason: ReasonUnauthenticated, Message: "missing API key: send it as Authorization: Bearer <key>"}, true},
		{"wrong key", limited, func(t *testing.T, p *Policy, _ *clock) error {
			_, err := p.Authenticate(teamKey + "x")
			return err
		}, Refusal{Reason: ReasonUnauthenticated, Message: "the API key is not valid"}, true},
		{"model not in the key's list", limited, func(t *testing.T, p *Policy, _ *clock) error {
			_, err := p.Admit(context.Background(), auth(t, p, teamKey), "reasoning")
			return err
		}, Refusal{Reason: ReasonModelNotAllowed, Message: `the API key "team-a" may not use model "reasoning"`}, true},
		{"key's requests per minute", limited, func(t *testing.T, p *Policy, c *clock) error {
			admit(t, p, teamKey, "auto").Done(0)
			admit(t, p, teamKey, "auto").Done(0)
			c.advance(15 * time.Second) // half a request back: another 15s to go
			_, err := p.Admit(context.Background(), auth(t, p, teamKey), "auto")
			return err
		}, Refusal{Reason: ReasonKeyRateLimited, RetryAfter: 15 * time.Second,
			Message: `API key "team-a" is at its limit of 2 requests per minute; retry after the Retry-After header's seconds`}, true},
		{"key's tokens per minute", limited, func(t *testing.T, p *Policy, _ *clock) error {
			admit(t, p, teamKey, "auto").Done(25) // overdraws 10 by 15: 1.5 minutes to refill
			_, err := p.Admit(context.Background(), auth(t, p, teamKey), "auto")
			return err
		}, Refusal{Reason: ReasonKeyRateLimited, RetryAfter: 90*time.Second + time.Millisecond,
			Message: `API key "team-a" is at its limit of 10 tokens per minute; retry after the Retry-After header's seconds`}, true},
		{"model's requests per minute, any key", limited, func(t *testing.T, p *Policy, _ *clock) error {
			admit(t, p, otherKey, "general").Done(0)
			admit(t, p, teamKey, "general").Done(0)
			admit(t, p, otherKey, "general").Done(0)
			admit(t, p, otherKey, "general").Done(0)
			_, err := p.Admit(context.Background(), auth(t, p, otherKey), "general")
			return err
		}, Refusal{Reason: ReasonModelRateLimited, RetryAfter: 15 * time.Second,
			Message: `model "general" is at its limit of 4 requests per minute; retry after the Retry-After header's seconds`}, true},
		{"model's tokens per minute", limited, func(t *testing.T, p *Policy, c *clock) error {
			admit(t, p, otherKey, "reasoning").Done(150)
			c.advance(15 * time.Second) // refills 25 of the 50 overdrawn
			_, err := p.Admit(context.Background(), auth(t, p, otherKey), "reasoning")
			return err
		}, Refusal{Reason: ReasonModelRateLimited, RetryAfter: 15*time.Second + time.Millisecond,
			Message: `model "reasoning" is at its limit of 100 tokens per minute; retry after the Retry-After header's seconds`}, true},
		{"every slot and queue place taken", noQueue, func(t *testing.T, p *Policy, _ *clock) error {
			held := admit(t, p, "", "m")
			defer held.Done(0)
			_, err := p.AdmitClient(context.Background(), Client{})
			return err
		}, Refusal{Reason: ReasonOverloaded, RetryAfter: time.Second, Err: ErrQueueFull,
			Message: "the router is serving its maximum of 1 requests (admission.max_in_flight) and every in-flight slot and queue place is taken; retry shortly"}, true},
		{"no slot within the queue timeout", capped, func(t *testing.T, p *Policy, _ *clock) error {
			held := admit(t, p, otherKey, "m")
			defer held.Done(0)
			_, err := p.AdmitClient(context.Background(), auth(t, p, teamKey))
			return err
		}, Refusal{Reason: ReasonOverloaded, RetryAfter: time.Second, Err: ErrQueueTimeout,
			Message: "the router is serving its maximum of 1 requests (admission.max_in_flight) and no in-flight slot freed up in time; retry shortly"}, true},
		{"client gone while queued", capped, func(t *testing.T, p *Policy, _ *clock) error {
			held := admit(t, p, otherKey, "m")
			defer held.Done(0)
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			_, err := p.AdmitClient(ctx, auth(t, p, teamKey))
			return err
		}, Refusal{Reason: ReasonClientGone, Message: "the client went away", Err: context.Canceled}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var rf refusals
			c := newClock()
			p := newPolicy(t, tt.ad, c, &rf)
			err := tt.run(t, p, c)
			var got *Refusal
			if !errors.As(err, &got) {
				t.Fatalf("error %v (%T), want a *Refusal", err, err)
			}
			if got.Reason != tt.want.Reason || got.Message != tt.want.Message || got.RetryAfter != tt.want.RetryAfter {
				t.Errorf("refusal %q %q retry after %v,\nwant      %q %q retry after %v", got.Reason, got.Message, got.RetryAfter,
					tt.want.Reason, tt.want.Message, tt.want.RetryAfter)
			}
			if got.Error() != tt.want.Message {
				t.Errorf("Error() = %q", got.Error())
			}
			if tt.want.Err != nil && !errors.Is(err, tt.want.Err) {
				t.Errorf("cause %v, want %v", got.Err, tt.want.Err)
			}
			want := map[Reason]int{}
			if tt.counted {
				want[tt.want.Reason] = 1
			}
			if n := rf.get(); len(n) != len(want) || n[tt.want.Reason] != want[tt.want.Reason] {
				t.Errorf("OnRefuse saw %v, want %v", n, want)
			}
		})
	}
}

// TestRefusedRequestsGiveBack: a request refused for its model gives back what the key's
// limit counted, and Admit frees its slot; AdmitModel leaves the slot to Done.
func TestRefusedRequestsGiveBack(t *testing.T) {
	t.Parallel()
	var rf refusals
	p := newPolicy(t, config.Admission{
		APIKeys:     []config.APIKey{{Name: "team-a", Key: "env.TEAM_A", Models: []string{"general", "other"}, RateLimit: config.RateLimit{RequestsPerMinute: 2}}},
		ModelLimits: []config.ModelLimit{{Model: "general", RateLimit: config.RateLimit{RequestsPerMinute: 1}}},
		MaxInFlight: 1,
	}, newClock(), &rf)
	c := auth(t, p, teamKey)
	for i, tt := range []struct {
		model string
		want  Reason // "": admitted
	}{
		{"general", ""},
		{"general", ReasonModelRateLimited},
		{"secret", ReasonModelNotAllowed},
		{"other", ""}, // the key's second request: both refusals gave theirs back
		{"other", ReasonKeyRateLimited},
	} {
		tk, err := p.Admit(context.Background(), c, tt.model)
		var ref *Refusal
		switch {
		case tt.want == "" && err != nil:
			t.Fatalf("request %d for %s: %v", i, tt.model, err)
		case tt.want == "":
			tk.Done(0)
		case !errors.As(err, &ref) || ref.Reason != tt.want:
			t.Fatalf("request %d for %s: %v, want %s", i, tt.model, err, tt.want)
		}
	}

	// AdmitModel's refusal keeps the slot until Done.
	q := newPolicy(t, config.Admission{APIKeys: []config.APIKey{{Name: "team-a", Key: "env.TEAM_A", Models: []string{"general"}}}, MaxInFlight: 1}, newClock(), &rf)
	c = auth(t, q, teamKey)
	tk, err := q.AdmitClient(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if err := q.AdmitModel(tk, "secret"); err == nil {
		t.Fatal("a model outside the key's list was admitted")
	}
	if _, err := q.AdmitClient(context.Background(), c); !errors.Is(err, ErrQueueFull) {
		t.Fatalf("second request while the refused one holds the slot: %v, want ErrQueueFull", err)
	}
	tk.Done(0)
	admit(t, q, teamKey, "general").Done(0)
}

// TestTokenCharging: Done charges the answer's tokens to the key's and the model's limits
// that admitted the request, once; a later request waits until the budget is positive.
func TestTokenCharging(t *testing.T) {
	t.Parallel()
	c := newClock()
	var rf refusals
	p := newPolicy(t, config.Admission{
		APIKeys:     []config.APIKey{{Name: "team-a", Key: "env.TEAM_A", RateLimit: config.RateLimit{TokensPerMinute: 100}}},
		ModelLimits: []config.ModelLimit{{Model: "general", RateLimit: config.RateLimit{TokensPerMinute: 50}}},
	}, c, &rf)
	refusal := func(model string) Reason {
		t.Helper()
		tk, err := p.Admit(context.Background(), auth(t, p, teamKey), model)
		if err == nil {
			tk.Done(0)
			return ""
		}
		var ref *Refusal
		if !errors.As(err, &ref) {
			t.Fatalf("%s: %v", model, err)
		}
		return ref.Reason
	}
	tk := admit(t, p, teamKey, "general")
	tk.Done(60) // key 40 left, model 10 overdrawn
	tk.Done(1000)
	if got := refusal("general"); got != ReasonModelRateLimited {
		t.Fatalf("general after 60 of its 50 tokens: %q", got)
	}
	admit(t, p, teamKey, "other").Done(40) // key spent to 0 exactly
	if got := refusal("other"); got != ReasonKeyRateLimited {
		t.Fatalf("other with the key's tokens spent: %q", got)
	}
	c.advance(15 * time.Second) // key +25, model +12.5
	if got := refusal("general"); got != "" {
		t.Fatalf("general after the refill: %q", got)
	}
	if got := rf.get(); got[ReasonModelRateLimited] != 1 || got[ReasonKeyRateLimited] != 1 {
		t.Errorf("OnRefuse saw %v", got)
	}
}

// TestNewPolicyErrors: every key and token that cannot be read, or that holds the value of
// another of its kind (whose models, limits or role a request got would be chance), is
// named, by field path and reference, never by value.
func TestNewPolicyErrors(t *testing.T) {
	t.Parallel()
	missing := filepath.Join(t.TempDir(), "missing")
	_, err := NewPolicy(config.Admission{APIKeys: []config.APIKey{
		{Name: "team-a", Key: "env.TEAM_A"},
		{Name: "gone", Key: "env.GONE"},
		{Name: "file", Key: config.SecretRef("file:" + missing)},
		{Name: "team-a-again", Key: "env.TEAM_A_COPY"},
	}}, &config.Management{Auth: config.ManagementAuthBearer, Tokens: []config.ManagementToken{
		{Name: "ops", Token: "env.OPS", Role: config.RoleAdmin},
		{Name: "viewer", Token: "env.VIEW", Role: config.RoleRead},
		{Name: "admin", Token: "env.ADMIN", Role: config.RoleAdmin},
		{Name: "dashboards", Token: "env.VIEW_COPY", Role: config.RoleRead},
		{Name: "team-a", Token: "env.TEAM_A"}, // a client key may double as a token: another set
	}}, Options{LookupEnv: env(map[string]string{"TEAM_A": teamKey, "TEAM_A_COPY": teamKey,
		"VIEW": "mgmt-view-123", "ADMIN": "mgmt-admin-456", "VIEW_COPY": "mgmt-admin-456"})})
	want := `admission.api_keys[1].key env.GONE: environment variable GONE is not set (names are case-sensitive and must match the Secret key exactly): secret not found
admission.api_keys[2].key file:` + missing + `: file ` + missing + ` does not exist: secret not found
admission.api_keys[3].key env.TEAM_A_COPY: holds the same value as admission.api_keys[0].key; give each its own
management.tokens[0].token env.OPS: environment variable OPS is not set (names are case-sensitive and must match the Secret key exactly): secret not found
management.tokens[3].token env.VIEW_COPY: holds the same value as management.tokens[2].token; give each its own`
	if err == nil || err.Error() != want {
		t.Errorf("NewPolicy error:\n%v\nwant:\n%s", err, want)
	}
}

// TestManagement: tokens and their roles; without the section, or with auth disabled,
// every caller is an admin.
func TestManagement(t *testing.T) {
	t.Parallel()
	lookup := env(map[string]string{"ADMIN": "mgmt-admin-777", "READ": "mgmt-read-888", "TEAM_A": teamKey})
	p, err := NewPolicy(config.Admission{APIKeys: []config.APIKey{{Name: "team-a", Key: "env.TEAM_A"}}},
		&config.Management{Auth: config.ManagementAuthBearer, Tokens: []config.ManagementToken{
			{Name: "ops", Token: "env.ADMIN", Role: config.RoleAdmin},
			{Name: "viewer", Token: "env.READ", Role: config.RoleRead},
		}}, Options{LookupEnv: lookup})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = p.Close() }()
	if !p.ManagementAuth() {
		t.Error("bearer auth is off")
	}
	for _, tt := range []struct {
		token, name, role string
		ok                bool
	}{
		{"mgmt-admin-777", "ops", config.RoleAdmin, true},
		{"mgmt-read-888", "viewer", config.RoleRead, true},
		{teamKey, "", "", false}, // a client key is no management token
		{"", "", "", false},
	} {
		if name, role, ok := p.ManagementRole(tt.token); name != tt.name || role != tt.role || ok != tt.ok {
			t.Errorf("ManagementRole(%d bytes) = %q, %q, %v; want %q, %q, %v", len(tt.token), name, role, ok, tt.name, tt.role, tt.ok)
		}
	}
	for _, m := range []*config.Management{nil, {Auth: config.ManagementAuthDisabled}} {
		open, err := NewPolicy(config.Admission{}, m, Options{LookupEnv: lookup})
		if err != nil {
			t.Fatal(err)
		}
		if open.ManagementAuth() {
			t.Errorf("%v: auth is on", m)
		}
		if name, role, ok := open.ManagementRole(""); name != "" || role != config.RoleAdmin || !ok {
			t.Errorf("%v: ManagementRole = %q, %q, %v", m, name, role, ok)
		}
		if c := auth(t, open, ""); c.Name() != "" || !c.Allows("anything") {
			t.Errorf("%v: the open listener's client is %q", m, c.Name())
		}
		_ = open.Close()
	}
	var closed *Policy
	if err := closed.Close(); err != nil {
		t.Error(err)
	}
}
