package config

import (
	"fmt"
	"net"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Validate checks the whole configuration and returns every problem at once as Problems,
// or nil. It expects ApplyDefaults to have run. It checks only what the file says: whether a
// referenced variable or file exists is checked when the router registers its models.
func (c *Config) Validate() error {
	v := &validator{lines: c.lines}
	c.validateServer(v)
	c.validateModels(v)
	c.validateFallbacks(v)
	c.validateRouting(v)
	c.Signals.validate(v)
	c.validateDecisions(v)
	c.validateTracing(v)
	c.validateReliability(v)
	c.validateArtifacts(v)
	c.validateCache(v)
	if len(v.problems) == 0 {
		return nil
	}
	return v.problems
}

type validator struct {
	lines    map[string]int
	problems Problems
}

// add records a problem at path, with the line of the path or of its nearest parent that
// appears in the file.
func (v *validator) add(path, format string, args ...any) {
	v.problems = append(v.problems, Problem{Path: path, Line: v.line(path), Message: fmt.Sprintf(format, args...)})
}

func (v *validator) line(path string) int { return lineOf(v.lines, path) }

// lineOf is the YAML line of path, or of the nearest field above it that has one; 0 when
// none has (a config not read from YAML).
func lineOf(lines map[string]int, path string) int {
	for p := path; p != ""; p = parentPath(p) {
		if l, ok := lines[p]; ok {
			return l
		}
	}
	return 0
}

// Note formats a remark about the field at path as a Problem reads: the path, its YAML line
// when known, and the message. Warnings use it, so that they point where errors do.
func (c *Config) Note(path, format string, args ...any) string {
	return Problem{Path: path, Line: lineOf(c.lines, path), Message: fmt.Sprintf(format, args...)}.Error()
}

func parentPath(p string) string {
	i := strings.LastIndexAny(p, ".[")
	if i < 0 {
		return ""
	}
	return p[:i]
}

func (c *Config) validateServer(v *validator) {
	s := c.Server
	if s.MaxRequestBodyBytes < 1024 {
		v.add("server.max_request_body_bytes", "must be at least 1024, got %d", s.MaxRequestBodyBytes)
	}
	if s.ShutdownTimeout < 0 {
		v.add("server.shutdown_timeout", "must not be negative")
	}
	if s.ShutdownDelay < 0 {
		v.add("server.shutdown_delay", "must not be negative, got %s", s.ShutdownDelay)
	}
	if s.ReadHeaderTimeout < 0 {
		v.add("server.read_header_timeout", "must not be negative")
	}
}

var providerTypes = []string{ProviderOpenAICompatible, ProviderBedrock, ProviderVertex, ProviderSim}

var (
	awsRegionRE   = regexp.MustCompile(`^[a-z]{2}(-[a-z]+)+-\d+$`)
	gcpLocationRE = regexp.MustCompile(`^([a-z]+-[a-z]+\d+|global)$`)
	gcpProjectRE  = regexp.MustCompile(`^[a-z][a-z0-9-]{4,28}[a-z0-9]$`)
)

func (c *Config) validateModels(v *validator) {
	if len(c.Models) == 0 {
		v.add("models", "at least one model is required")
		return
	}
	seen := make(map[string]int, len(c.Models))
	for i := range c.Models {
		m := &c.Models[i]
		p := fmt.Sprintf("models[%d]", i)
		switch {
		case m.Name == "":
			v.add(p+".model_name", "is required")
		case strings.ContainsAny(m.Name, " \t\r\n"):
			v.add(p+".model_name", "must not contain whitespace, got %q", m.Name)
		case m.Name == c.Routing.VirtualModel:
			v.add(p+".model_name", "%q is the router's virtual model name (routing.virtual_model); choose another name", m.Name)
		}
		if first, dup := seen[m.Name]; dup && m.Name != "" {
			v.add(p+".model_name", "duplicate model_name %q (first defined at models[%d])", m.Name, first)
		} else {
			seen[m.Name] = i
		}
		if m.Timeout < 0 {
			v.add(p+".timeout", "must not be negative")
		}
		if m.ConnectTimeout < 0 {
			v.add(p+".connect_timeout", "must not be negative")
		}
		if m.FirstTokenTimeout < 0 {
			v.add(p+".first_token_timeout", "must not be negative")
		}
		if m.StreamIdleTimeout < 0 {
			v.add(p+".stream_idle_timeout", "must not be negative")
		}
		if m.Retry.MaxAttempts < 1 || m.Retry.MaxAttempts > 10 {
			v.add(p+".retry.max_attempts", "must be between 1 and 10, got %d", m.Retry.MaxAttempts)
		}
		if m.Retry.InitialBackoff < 0 || m.Retry.MaxBackoff < m.Retry.InitialBackoff {
			v.add(p+".retry", "initial_backoff must not be negative and max_backoff must be at least initial_backoff")
		}
		if m.Retry.MaxRetryAfter < 0 {
			v.add(p+".retry.max_retry_after", "must not be negative")
		}
		validateProvider(v, p+".provider", &m.Provider)
		m.validateLimits(v, p)
	}
}

func (c *Config) validateFallbacks(v *validator) {
	for i, m := range c.Models {
		seen := map[string]bool{}
		for j, f := range m.Fallbacks {
			p := fmt.Sprintf("models[%d].fallbacks[%d]", i, j)
			switch {
			case f == m.Name:
				v.add(p, "a model cannot fall back to itself")
			case seen[f]:
				v.add(p, "%q is listed twice", f)
			case c.Model(f) == nil:
				msg := fmt.Sprintf("unknown model %q", f)
				if s := suggest(f, c.modelNames()); s != "" {
					msg += fmt.Sprintf("; did you mean %q?", s)
				}
				v.add(p, "%s", msg)
			}
			seen[f] = true
		}
	}
}

func validateProvider(v *validator, p string, pr *Provider) {
	unused := func(field string, set bool) {
		if set {
			v.add(p+"."+field, "is not used by provider type %s", pr.Type)
		}
	}
	required := func(field string, r SecretRef) {
		if r.IsZero() {
			v.add(p+"."+field, "is required (an env.VAR or file:/path reference)")
		}
	}
	isAWS := pr.Type == ProviderBedrock
	isGCP := pr.Type == ProviderVertex
	known := pr.Type == ProviderOpenAICompatible || isAWS || isGCP || pr.Type == ProviderSim
	if known {
		unused("region", !isAWS && pr.Region != "")
		unused("access_key_id", !isAWS && !pr.AccessKeyID.IsZero())
		unused("secret_access_key", !isAWS && !pr.SecretAccessKey.IsZero())
		unused("session_token", !isAWS && !pr.SessionToken.IsZero())
		unused("project", !isGCP && pr.Project != "")
		unused("location", !isGCP && pr.Location != "")
		unused("service_account_key", !isGCP && !pr.ServiceAccountKey.IsZero())
		unused("api_key", pr.Type != ProviderOpenAICompatible && !pr.APIKey.IsZero())
		unused("h2c", pr.Type != ProviderOpenAICompatible && pr.H2C)
		unused("sim", pr.Type != ProviderSim && pr.Sim != nil)
		if pr.Type != ProviderOpenAICompatible {
			validateEndpoints(v, p, pr)
		}
	}
	// A reference is read the same way whatever the type, so a misspelt type does not hide
	// an inline key.
	for _, f := range pr.Refs() {
		validateRef(v, p+"."+f.Field, f.Ref)
	}
	switch pr.Type {
	case "":
		v.add(p+".type", "is required (one of %s)", strings.Join(providerTypes, ", "))
	case ProviderOpenAICompatible:
		if validateEndpoints(v, p, pr) {
			validateBaseURL(v, p+".base_url", pr.BaseURL)
		}
		if pr.H2C {
			validateH2C(v, p, pr)
		}
	case ProviderBedrock:
		if pr.BaseURL != "" {
			validateBaseURL(v, p+".base_url", pr.BaseURL)
		}
		if !awsRegionRE.MatchString(pr.Region) {
			v.add(p+".region", "must be an AWS region such as us-east-1, got %q", pr.Region)
		}
		required("access_key_id", pr.AccessKeyID)
		required("secret_access_key", pr.SecretAccessKey)
	case ProviderVertex:
		if pr.BaseURL != "" {
			validateBaseURL(v, p+".base_url", pr.BaseURL)
		}
		if !gcpProjectRE.MatchString(pr.Project) {
			v.add(p+".project", "must be a Google Cloud project id such as my-project-123, got %q", pr.Project)
		}
		if !gcpLocationRE.MatchString(pr.Location) {
			v.add(p+".location", "must be a Vertex AI location such as us-central1 or global, got %q", pr.Location)
		}
		required("service_account_key", pr.ServiceAccountKey)
	case ProviderSim:
		unused("base_url", pr.BaseURL != "")
		unused("ca_cert_pem", pr.CACertPEM != "")
		if s := pr.Sim; s != nil {
			if s.FirstTokenLatency != nil && *s.FirstTokenLatency < 0 {
				v.add(p+".sim.first_token_latency", "must not be negative")
			}
			if s.TokenLatency != nil && *s.TokenLatency < 0 {
				v.add(p+".sim.token_latency", "must not be negative")
			}
		}
	default:
		msg := fmt.Sprintf("unknown provider type %q", pr.Type)
		if s := suggest(pr.Type, append([]string(nil), providerTypes...)); s != "" {
			msg += fmt.Sprintf("; did you mean %q?", s)
		} else {
			msg += fmt.Sprintf(" (one of %s)", strings.Join(providerTypes, ", "))
		}
		v.add(p+".type", "%s", msg)
		if pr.BaseURL != "" { // every type that takes one reads it alike
			validateBaseURL(v, p+".base_url", pr.BaseURL)
		}
	}
}

// validateBaseURL checks a provider's base URL.
func validateBaseURL(v *validator, p, raw string) {
	if raw == "" {
		v.add(p, "is required")
		return
	}
	checkBaseURL(v, p, raw, "http://vllm:8000/v1", "api_key with an env.VAR reference")
}

// checkBaseURL checks a base URL, as in example; credentials in it are refused with the
// advice to use instead. Credentials are looked for first, and no message echoes a URL with
// its userinfo, query values or fragment: they may hold a key, and these messages reach logs
// and the reload API's answer.
func checkBaseURL(v *validator, p, raw, example, use string) {
	want := "must be an absolute http(s) URL without a trailing slash, as in " + example
	shown := RedactURL(raw)
	u, err := url.Parse(raw)
	switch {
	case hasUserinfo(raw) || (err == nil && u.User != nil):
		v.add(p, "must not carry credentials; use %s, got %q", use, shown)
	case err == nil && credentialQuery(u.Query()):
		v.add(p, "must not carry credentials in its query; use %s, got %q", use, shown)
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
		v.add(p, "%s, got %q", want, shown)
	case u.RawQuery != "" || u.Fragment != "" || strings.ContainsAny(raw, "?#"):
		v.add(p, "must not have a query or fragment, got %q", shown)
	case strings.HasSuffix(raw, "/"):
		v.add(p, "%s, got %q", want, shown)
	}
}

// credentialKeys are the query parameter names (lower case, without - and _) that carry
// credentials in the URLs of the services the router calls.
var credentialKeys = []string{"apikey", "key", "token", "accesstoken", "secret", "password", "sig", "signature", "auth", "code"}

func credentialQuery(q url.Values) bool {
	for k := range q {
		norm := strings.NewReplacer("-", "", "_", "").Replace(strings.ToLower(k))
		for _, c := range credentialKeys {
			if norm == c || strings.HasSuffix(norm, c) {
				return true
			}
		}
	}
	return false
}

// hasUserinfo reports whether raw has an "@" in its authority, parsable or not.
func hasUserinfo(raw string) bool {
	_, rest, ok := strings.Cut(raw, "://")
	if !ok {
		rest = raw
	}
	authority, _, _ := strings.Cut(rest, "/")
	authority, _, _ = strings.Cut(authority, "?")
	authority, _, _ = strings.Cut(authority, "#")
	return strings.Contains(authority, "@")
}

// mask stands for what RedactURL and redactAddress leave out.
const mask = "[redacted]"

// RedactURL returns raw fit to print: the userinfo, each query value and the fragment
// replaced by [redacted]. It works on the text, so that a URL that does not parse is
// redacted too.
func RedactURL(raw string) string {
	rest, _, hasFrag := strings.Cut(raw, "#")
	rest, query, hasQuery := strings.Cut(rest, "?")
	scheme, after, hasScheme := strings.Cut(rest, "://")
	if !hasScheme {
		scheme, after = "", rest
	}
	// Everything before the last "@" is masked, not only the authority's: a password
	// written with a "/" in it ("u:pa/ss@host") would otherwise be cut at the "/" and half
	// of it read as the path.
	if i := strings.LastIndex(after, "@"); i >= 0 {
		after = mask + after[i:]
	}
	authority, path, hasPath := strings.Cut(after, "/")
	var b strings.Builder
	if hasScheme {
		b.WriteString(scheme + "://")
	}
	b.WriteString(authority)
	if hasPath {
		b.WriteString("/" + path)
	}
	if hasQuery {
		b.WriteString("?")
		for i, kv := range strings.Split(query, "&") {
			if i > 0 {
				b.WriteString("&")
			}
			if k, _, ok := strings.Cut(kv, "="); ok {
				b.WriteString(k + "=" + mask)
			} else if kv != "" {
				b.WriteString(mask)
			}
		}
	}
	if hasFrag {
		b.WriteString("#" + mask)
	}
	return b.String()
}

// redactAddress returns a host:port address (cache.backend.address, a tracing endpoint)
// fit to print, as RedactURL does a URL. An address has no path, so everything before its
// last "@" but a scheme is credentials, and is replaced whole: a password that holds "/",
// "?" or "#" is not taken for the start of a path, a query or a fragment.
func redactAddress(raw string) string {
	if i := strings.LastIndex(raw, "@"); i >= 0 {
		prefix := ""
		if scheme, _, ok := cutScheme(raw[:i]); ok {
			prefix = scheme + "://"
		}
		raw = prefix + mask + raw[i:]
	}
	return RedactURL(raw)
}

// cutScheme splits "scheme://rest"; ok is false when raw has no "://" or what precedes it
// is no URL scheme (letters, digits, "+", "-" and "."), as in a password that holds "://".
func cutScheme(raw string) (scheme, rest string, ok bool) {
	scheme, rest, ok = strings.Cut(raw, "://")
	notScheme := func(r rune) bool {
		return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '+' || r == '-' || r == '.')
	}
	if !ok || scheme == "" || strings.IndexFunc(scheme, notScheme) >= 0 {
		return "", raw, false
	}
	return scheme, rest, true
}

func validateRef(v *validator, p string, r SecretRef) {
	if r.IsZero() {
		return
	}
	if err := r.check(); err != nil {
		v.add(p, "%v", err)
	}
}

func (c *Config) validateRouting(v *validator) {
	r := c.Routing
	if strings.ContainsAny(r.VirtualModel, " \t\r\n") {
		v.add("routing.virtual_model", "must not contain whitespace, got %q", r.VirtualModel)
	}
	if r.RequestBudget < 0 {
		v.add("routing.request_budget", "must not be negative")
	}
	if r.DefaultModel != "" && len(c.Models) > 0 && c.Model(r.DefaultModel) == nil {
		msg := fmt.Sprintf("unknown model %q", r.DefaultModel)
		if s := suggest(r.DefaultModel, c.modelNames()); s != "" {
			msg += fmt.Sprintf("; did you mean %q?", s)
		}
		v.add("routing.default_model", "%s", msg)
	}
}

var (
	tracingExporters = []string{"otlp", "stdout"}
	tracingSamplers  = []string{"always_on", "always_off", "probabilistic"}
)

func (c *Config) validateTracing(v *validator) {
	t := c.Observability.Tracing
	const p = "observability.tracing"
	if t.Provider != DefaultTracingProvider {
		v.add(p+".provider", "must be %q, got %q", DefaultTracingProvider, t.Provider)
	}
	if !slices.Contains(tracingExporters, t.Exporter.Type) {
		v.add(p+".exporter.type", "must be one of %s, got %q", strings.Join(tracingExporters, ", "), t.Exporter.Type)
	}
	if !slices.Contains(tracingSamplers, t.Sampling.Type) {
		v.add(p+".sampling.type", "must be one of %s, got %q", strings.Join(tracingSamplers, ", "), t.Sampling.Type)
	}
	if t.Enabled && t.Exporter.Type == "otlp" {
		// The exporter dials host:port over gRPC; anything else fails at every export, after
		// the router has started, and only the log would say so.
		// Credentials ("user:pass@") are refused too, and neither echoed nor suggested.
		e := t.Exporter.Endpoint
		host, port, err := net.SplitHostPort(e)
		if _, perr := strconv.ParseUint(port, 10, 16); err != nil || perr != nil || host == "" || strings.ContainsAny(e, "/@") {
			v.add(p+".exporter.endpoint", "must be the collector's OTLP/gRPC address as host:port, as in %q, got %q%s", DefaultTracingEndpoint, redactAddress(e), endpointHint(e))
		}
	}
	if t.Sampling.Type == "probabilistic" || t.Sampling.Rate != "" {
		r, err := strconv.ParseFloat(t.Sampling.Rate, 64)
		if err != nil || r < 0 || r > 1 {
			v.add(p+".sampling.rate", "must be a number between 0 and 1 written as a string, as in \"0.1\", got %q", t.Sampling.Rate)
		}
	}
}

// endpointHint says what to write in place of a tracing endpoint written as a URL or with
// credentials: its host:port, which ends before any path, query or fragment. It is "" for
// an endpoint with neither.
func endpointHint(e string) string {
	scheme, rest, hasScheme := cutScheme(e)
	var without []string
	if hasScheme {
		without = append(without, scheme+"://")
	}
	if i := strings.LastIndex(rest, "@"); i >= 0 {
		rest = rest[i+1:]
		without = append(without, "credentials")
	}
	if without == nil {
		return ""
	}
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	hint := fmt.Sprintf("; write %q, without %s", rest, strings.Join(without, " and "))
	if hasScheme {
		hint += " (exporter.insecure says whether TLS is used)"
	}
	return hint
}

// Model returns the model named name, or nil.
func (c *Config) Model(name string) *Model {
	for i := range c.Models {
		if c.Models[i].Name == name {
			return &c.Models[i]
		}
	}
	return nil
}

func (c *Config) modelNames() []string {
	names := make([]string, len(c.Models))
	for i, m := range c.Models {
		names[i] = m.Name
	}
	return names
}

// Warnings lists what is valid but probably not meant, one line each with the field path:
// -validate prints them and the router logs them at start and on reload. It expects
// ApplyDefaults to have run.
func (c *Config) Warnings() []string {
	var out []string
	budget := c.Routing.RequestBudget
	for i, m := range c.Models {
		if budget > 0 && m.Timeout > budget {
			out = append(out, c.Note(fmt.Sprintf("models[%d].timeout", i), "%s is longer than routing.request_budget (%s), which cuts every call of model %q, streams included, at %s",
				m.Timeout, budget, m.Name, budget))
		}
		if budget > 0 && m.Retry.MaxRetryAfter > budget {
			out = append(out, c.Note(fmt.Sprintf("models[%d].retry.max_retry_after", i), "%s is longer than routing.request_budget (%s); a Retry-After the budget cannot cover is not waited for",
				m.Retry.MaxRetryAfter, budget))
		}
	}
	return out
}

// validateH2C checks that every URL h2c applies to is http://: over TLS the server and the
// router agree on HTTP/2 by themselves, and h2c would refuse it.
func validateH2C(v *validator, p string, pr *Provider) {
	if len(pr.Endpoints) == 0 {
		if strings.HasPrefix(pr.BaseURL, "https://") {
			v.add(p+".h2c", "base_url is https://, where HTTP/2 is agreed over TLS by itself; h2c is for http:// servers")
		}
		return
	}
	for i, e := range pr.Endpoints {
		if strings.HasPrefix(e.BaseURL, "https://") {
			v.add(p+".h2c", "endpoints[%d].base_url is https://, where HTTP/2 is agreed over TLS by itself; h2c is for http:// servers", i)
		}
	}
}
