package config

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Admission defaults.
const (
	DefaultStreamKeepAlive = 15 * time.Second
	DefaultManagementRole  = RoleRead
)

// Admission says who may send inference requests and how many. The zero value admits every
// request, as a router without the section always did.
type Admission struct {
	// APIKeys are the client keys. When there are any, every inference request must carry
	// one as "Authorization: Bearer <key>"; without any, the listener stays open.
	APIKeys []APIKey `yaml:"api_keys,omitempty" json:"api_keys,omitempty"`
	// ModelLimits bound the requests and tokens of one model, whoever sends them.
	ModelLimits []ModelLimit `yaml:"model_limits,omitempty" json:"model_limits,omitempty"`
	// MaxInFlight caps the inference requests served at once (streams until their end);
	// 0 (the default) is no cap.
	MaxInFlight int `yaml:"max_in_flight,omitempty" json:"max_in_flight,omitempty"`
	// QueueTimeout is how long a request over the cap waits for a slot before it gets 503.
	// Default 0: no wait.
	QueueTimeout Duration `yaml:"queue_timeout,omitempty" json:"queue_timeout,omitempty"`
	// MaxQueue bounds the requests waiting for a slot; more get 503 at once. Default
	// max_in_flight.
	MaxQueue int `yaml:"max_queue,omitempty" json:"max_queue,omitempty"`
}

// RateLimit bounds requests and tokens per minute; 0 is no limit. Tokens are counted from
// the usage the backend reports, after the answer, so a request is admitted while the
// minute's budget is not yet spent and may overdraw it once.
type RateLimit struct {
	RequestsPerMinute int `yaml:"requests_per_minute,omitempty" json:"requests_per_minute,omitempty"`
	TokensPerMinute   int `yaml:"tokens_per_minute,omitempty" json:"tokens_per_minute,omitempty"`
}

// APIKey is one client key.
type APIKey struct {
	// Name identifies the key in logs and metrics; the key itself never appears.
	Name string `yaml:"name" json:"name"`
	// Key is a reference (env.VAR or file:/path) to the key's value. A file: key is re-read
	// when it changes.
	Key SecretRef `yaml:"key" json:"key"`
	// Models the key may use (the virtual model included); empty allows every model.
	Models []string `yaml:"models,omitempty" json:"models,omitempty"`
	// RateLimit bounds this key's requests and tokens.
	RateLimit `yaml:",inline"`
}

// ModelLimit bounds one model's requests and tokens.
type ModelLimit struct {
	// Model is a configured model's name or the virtual model.
	Model     string `yaml:"model" json:"model"`
	RateLimit `yaml:",inline"`
}

// Management API roles.
const (
	RoleRead  = "read"  // GET the models and the config
	RoleAdmin = "admin" // also POST /api/v1/config/reload
)

// Management auth modes.
const (
	ManagementAuthBearer   = "bearer"
	ManagementAuthDisabled = "disabled"
)

// Management secures the management API (8080); /health and /ready stay open for probes.
// Without the section the API is open, as it always was, and the router logs a warning at
// start; with it, auth is bearer unless it says "disabled".
type Management struct {
	// Auth is bearer (the default) or disabled.
	Auth string `yaml:"auth,omitempty" json:"auth"`
	// Tokens are the accepted bearer tokens; bearer auth needs at least one.
	Tokens []ManagementToken `yaml:"tokens,omitempty" json:"tokens,omitempty"`
	// Profiling serves Go's profiles (net/http/pprof) under /debug/pprof/ to admin tokens.
	// Off by default; it needs bearer auth and an admin token.
	Profiling bool `yaml:"profiling,omitempty" json:"profiling,omitempty"`
}

// ProfilingEnabled reports whether the management API serves /debug/pprof/.
func (m *Management) ProfilingEnabled() bool { return m != nil && m.Profiling }

// ManagementToken is one management API token.
type ManagementToken struct {
	// Name identifies the token in logs.
	Name string `yaml:"name" json:"name"`
	// Token is a reference (env.VAR or file:/path) to the token's value.
	Token SecretRef `yaml:"token" json:"token"`
	// Role is read (the default) or admin.
	Role string `yaml:"role,omitempty" json:"role"`
}

// AuthEnabled reports whether the management API asks for a token.
func (m *Management) AuthEnabled() bool { return m != nil && m.Auth != ManagementAuthDisabled }

func (c *Config) applyReliabilityDefaults() {
	c.Server.applyDefaults()
	if c.Server.StreamKeepAlive == nil {
		c.Server.StreamKeepAlive = ptr(Duration(DefaultStreamKeepAlive))
	}
	if c.Server.H2C == nil {
		c.Server.H2C = ptr(true)
	}
	if a := &c.Admission; a.MaxInFlight > 0 && a.MaxQueue == 0 {
		a.MaxQueue = a.MaxInFlight
	}
	if m := c.Management; m != nil {
		if m.Auth == "" {
			m.Auth = ManagementAuthBearer
		}
		for i := range m.Tokens {
			if m.Tokens[i].Role == "" {
				m.Tokens[i].Role = DefaultManagementRole
			}
		}
	}
}

func (c *Config) validateReliability(v *validator) {
	if ka := c.Server.StreamKeepAlive; ka != nil && *ka != 0 && *ka < Duration(100*time.Millisecond) {
		v.add("server.stream_keepalive", "must be 0s (off) or at least 100ms, got %s", *ka)
	}
	c.validateServerLimits(v)
	c.validateAdmission(v)
	c.validateManagement(v)
}

func (c *Config) validateAdmission(v *validator) {
	a := &c.Admission
	if a.MaxInFlight < 0 {
		v.add("admission.max_in_flight", "must not be negative")
	}
	if a.MaxQueue < 0 {
		v.add("admission.max_queue", "must not be negative")
	}
	if a.QueueTimeout < 0 {
		v.add("admission.queue_timeout", "must not be negative")
	}
	if a.MaxInFlight == 0 && (a.QueueTimeout != 0 || a.MaxQueue != 0) {
		v.add("admission", "queue_timeout and max_queue need max_in_flight")
	}
	names, refs := map[string]int{}, map[SecretRef]int{}
	for i, k := range a.APIKeys {
		p := fmt.Sprintf("admission.api_keys[%d]", i)
		switch first, dup := names[k.Name]; {
		case k.Name == "":
			v.add(p+".name", "is required")
		case strings.ContainsAny(k.Name, " \t\r\n"):
			v.add(p+".name", "must not contain whitespace, got %q", k.Name)
		case dup:
			v.add(p+".name", "duplicate name %q (first defined at api_keys[%d])", k.Name, first)
		default:
			names[k.Name] = i
		}
		if k.Key.IsZero() {
			v.add(p+".key", "is required (an env.VAR or file:/path reference)")
		} else if first, dup := refs[k.Key]; dup {
			v.add(p+".key", "the same reference as api_keys[%d]", first)
		} else {
			refs[k.Key] = i
			validateRef(v, p+".key", k.Key)
		}
		for j, m := range k.Models {
			c.checkModelRef(v, fmt.Sprintf("%s.models[%d]", p, j), m)
		}
		validateRateLimit(v, p, k.RateLimit)
	}
	limited := map[string]int{}
	for i, l := range a.ModelLimits {
		p := fmt.Sprintf("admission.model_limits[%d]", i)
		if first, dup := limited[l.Model]; dup {
			v.add(p+".model", "%q already limited at model_limits[%d]", l.Model, first)
		} else {
			limited[l.Model] = i
			c.checkModelRef(v, p+".model", l.Model)
		}
		validateRateLimit(v, p, l.RateLimit)
	}
}

func validateRateLimit(v *validator, p string, r RateLimit) {
	if r.RequestsPerMinute < 0 {
		v.add(p+".requests_per_minute", "must not be negative")
	}
	if r.TokensPerMinute < 0 {
		v.add(p+".tokens_per_minute", "must not be negative")
	}
}

// checkModelRef reports a name that is neither a model nor the virtual model.
func (c *Config) checkModelRef(v *validator, p, name string) {
	if name == c.Routing.VirtualModel || c.Model(name) != nil {
		return
	}
	msg := fmt.Sprintf("unknown model %q", name)
	if s := suggest(name, append(c.modelNames(), c.Routing.VirtualModel)); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	v.add(p, "%s", msg)
}

func (c *Config) validateManagement(v *validator) {
	m := c.Management
	if m == nil {
		return
	}
	switch m.Auth {
	case ManagementAuthBearer:
		if len(m.Tokens) == 0 {
			v.add("management.tokens", "bearer auth needs at least one token (an env.VAR or file:/path reference); to leave the management API open, say auth: disabled")
		}
	case ManagementAuthDisabled:
		if len(m.Tokens) > 0 {
			v.add("management.tokens", "are not used when auth is disabled")
		}
	default:
		v.add("management.auth", "must be %s or %s, got %q", ManagementAuthBearer, ManagementAuthDisabled, m.Auth)
	}
	if m.Profiling {
		admin := slices.ContainsFunc(m.Tokens, func(t ManagementToken) bool { return t.Role == RoleAdmin })
		if m.Auth != ManagementAuthBearer || !admin {
			v.add("management.profiling", "needs auth: bearer and a token with role admin: profiles show the process's memory, which holds credentials")
		}
	}
	names, refs := map[string]int{}, map[SecretRef]int{}
	for i, t := range m.Tokens {
		p := fmt.Sprintf("management.tokens[%d]", i)
		if first, dup := names[t.Name]; t.Name == "" {
			v.add(p+".name", "is required")
		} else if dup {
			v.add(p+".name", "duplicate name %q (first defined at tokens[%d])", t.Name, first)
		} else {
			names[t.Name] = i
		}
		if t.Token.IsZero() {
			v.add(p+".token", "is required (an env.VAR or file:/path reference)")
		} else if first, dup := refs[t.Token]; dup {
			v.add(p+".token", "the same reference as tokens[%d]", first)
		} else {
			refs[t.Token] = i
			validateRef(v, p+".token", t.Token)
		}
		if t.Role != RoleRead && t.Role != RoleAdmin {
			v.add(p+".role", "must be %s or %s, got %q", RoleRead, RoleAdmin, t.Role)
		}
	}
}
