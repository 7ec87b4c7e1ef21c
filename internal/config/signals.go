package config

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Signals are the named facts the router can compute about a request. Each is computed only
// when a decision references it (the classification API computes them all). Names are unique
// across every kind.
type Signals struct {
	// Embedder turns prompts into vectors for the embedding, domain and jailbreak signals.
	Embedder Embedder `yaml:"embedder,omitempty" json:"embedder"`
	// DomainCategories add user categories (or examples to a built-in one) to the domain
	// classifier, by example prompts.
	DomainCategories []DomainCategory `yaml:"domain_categories,omitempty" json:"domain_categories,omitempty"`
	// ReplaceBuiltinDomains keeps only DomainCategories.
	ReplaceBuiltinDomains bool `yaml:"replace_builtin_domains,omitempty" json:"replace_builtin_domains,omitempty"`

	Keywords      []KeywordSignal       `yaml:"keywords,omitempty" json:"keywords,omitempty"`
	Regex         []RegexSignal         `yaml:"regex,omitempty" json:"regex,omitempty"`
	Embeddings    []EmbeddingSignal     `yaml:"embeddings,omitempty" json:"embeddings,omitempty"`
	Domains       []DomainSignal        `yaml:"domains,omitempty" json:"domains,omitempty"`
	PII           []PIISignal           `yaml:"pii,omitempty" json:"pii,omitempty"`
	Jailbreak     []JailbreakSignal     `yaml:"jailbreak,omitempty" json:"jailbreak,omitempty"`
	Complexity    []ComplexitySignal    `yaml:"complexity,omitempty" json:"complexity,omitempty"`
	Language      []LanguageSignal      `yaml:"language,omitempty" json:"language,omitempty"`
	ContextLength []ContextLengthSignal `yaml:"context_length,omitempty" json:"context_length,omitempty"`
	Headers       []HeaderSignal        `yaml:"headers,omitempty" json:"headers,omitempty"`
	Users         []UserSignal          `yaml:"users,omitempty" json:"users,omitempty"`
}

// Embedder types.
const (
	EmbedderBuiltin = "builtin"
	EmbedderRemote  = "remote"
	EmbedderONNX    = "onnx"
)

// Embedder selects the embedding model: builtin (static word vectors shipped with the router,
// the default), remote (an OpenAI-compatible /v1/embeddings endpoint) or onnx (a
// sentence-transformers model exported to ONNX, run in-process with ONNX Runtime; the router
// must be built with -tags onnx, see docs/onnx.md).
type Embedder struct {
	Type string `yaml:"type,omitempty" json:"type"`
	// BaseURL, Model and APIKey locate a remote embedder.
	BaseURL string    `yaml:"base_url,omitempty" json:"base_url,omitempty"`
	Model   string    `yaml:"model,omitempty" json:"model,omitempty"`
	APIKey  SecretRef `yaml:"api_key,omitempty" json:"api_key,omitempty"`
	// Remote embedder connection settings; see limits.go.
	EmbedderConnection `yaml:",inline" json:",inline"`
	// ModelDir holds model.onnx and tokenizer.json (onnx).
	ModelDir string `yaml:"model_dir,omitempty" json:"model_dir,omitempty"`
	// Library is the ONNX Runtime shared library; empty means $ONNXRUNTIME_LIB (onnx).
	Library string `yaml:"library,omitempty" json:"library,omitempty"`
	// MaxLength caps the tokens per prompt (default 256); Pooling is mean (default) or cls;
	// Normalize (default true) scales vectors to unit length; Threads caps ONNX Runtime's
	// threads per run (0: its default).
	MaxLength int    `yaml:"max_length,omitempty" json:"max_length,omitempty"`
	Pooling   string `yaml:"pooling,omitempty" json:"pooling,omitempty"`
	Normalize *bool  `yaml:"normalize,omitempty" json:"normalize,omitempty"`
	Threads   int    `yaml:"threads,omitempty" json:"threads,omitempty"`
	// RequestTimeout bounds embedding one request's texts, whatever the embedder (0: 3s).
	// When it passes, or the embedder fails, the signals that need vectors fail for that
	// request and the decisions that read them take their on_error; the other signals are
	// computed as usual. (Timeout, from EmbedderConnection, bounds one call to a remote
	// endpoint, the start-up embedding of examples included.)
	RequestTimeout Duration `yaml:"request_timeout,omitempty" json:"request_timeout,omitempty"`
}

// DomainCategory is a domain defined by example prompts and, optionally, keywords.
type DomainCategory struct {
	Name     string   `yaml:"name" json:"name"`
	Examples []string `yaml:"examples" json:"examples"`
	Keywords []string `yaml:"keywords,omitempty" json:"keywords,omitempty"`
}

// KeywordSignal matches when any (or all) keywords occur as whole words.
type KeywordSignal struct {
	Name          string   `yaml:"name" json:"name"`
	Operator      string   `yaml:"operator,omitempty" json:"operator"`
	Keywords      []string `yaml:"keywords" json:"keywords"`
	CaseSensitive bool     `yaml:"case_sensitive,omitempty" json:"case_sensitive,omitempty"`
	// Fuzzy allows this many character edits per keyword (0 to 3).
	Fuzzy int `yaml:"fuzzy,omitempty" json:"fuzzy,omitempty"`
	// Roles are the messages the signal reads (SignalRoles); empty: the last user message.
	Roles []string `yaml:"roles,omitempty" json:"roles,omitempty"`
}

// RegexSignal matches when any (or all) RE2 patterns match.
type RegexSignal struct {
	Name            string   `yaml:"name" json:"name"`
	Operator        string   `yaml:"operator,omitempty" json:"operator"`
	Patterns        []string `yaml:"patterns" json:"patterns"`
	CaseInsensitive bool     `yaml:"case_insensitive,omitempty" json:"case_insensitive,omitempty"`
	// Roles are the messages the signal reads (SignalRoles); empty: the last user message.
	Roles []string `yaml:"roles,omitempty" json:"roles,omitempty"`
}

// EmbeddingSignal matches when the prompt is similar to one of the examples.
type EmbeddingSignal struct {
	Name      string   `yaml:"name" json:"name"`
	Examples  []string `yaml:"examples" json:"examples"`
	Threshold float64  `yaml:"threshold,omitempty" json:"threshold"`
	// Roles are the messages the signal reads (SignalRoles); empty: the last user message.
	Roles []string `yaml:"roles,omitempty" json:"roles,omitempty"`
}

// DomainSignal matches when the prompt's domain is one of Categories with at least
// MinConfidence.
type DomainSignal struct {
	Name          string   `yaml:"name" json:"name"`
	Categories    []string `yaml:"categories" json:"categories"`
	MinConfidence float64  `yaml:"min_confidence,omitempty" json:"min_confidence"`
	// Roles are the messages the signal reads (SignalRoles); empty: the last user message.
	Roles []string `yaml:"roles,omitempty" json:"roles,omitempty"`
}

// PIISignal matches when the prompt holds personal data of one of Types (all types when
// empty).
type PIISignal struct {
	Name  string   `yaml:"name" json:"name"`
	Types []string `yaml:"types,omitempty" json:"types,omitempty"`
	// Roles are the messages the signal reads (SignalRoles); empty: every message.
	Roles []string `yaml:"roles,omitempty" json:"roles,omitempty"`
}

// JailbreakSignal matches when the jailbreak score reaches Threshold (default 0.5).
type JailbreakSignal struct {
	Name      string  `yaml:"name" json:"name"`
	Threshold float64 `yaml:"threshold,omitempty" json:"threshold"`
	// Roles are the messages the signal reads (SignalRoles); empty: every message.
	Roles []string `yaml:"roles,omitempty" json:"roles,omitempty"`
}

// ComplexitySignal matches when the prompt's reasoning need is at least MinLevel.
type ComplexitySignal struct {
	Name     string `yaml:"name" json:"name"`
	MinLevel string `yaml:"min_level" json:"min_level"`
	// Roles are the messages the signal reads (SignalRoles); empty: the last user message.
	Roles []string `yaml:"roles,omitempty" json:"roles,omitempty"`
}

// LanguageSignal matches when the prompt is written in one of Languages (ISO 639-1).
type LanguageSignal struct {
	Name      string   `yaml:"name" json:"name"`
	Languages []string `yaml:"languages" json:"languages"`
	// Roles are the messages the signal reads (SignalRoles); empty: the last user message.
	Roles []string `yaml:"roles,omitempty" json:"roles,omitempty"`
}

// ContextLengthSignal matches when the conversation's estimated tokens are within
// [MinTokens, MaxTokens]; a zero MaxTokens means no upper bound.
type ContextLengthSignal struct {
	Name      string `yaml:"name" json:"name"`
	MinTokens int    `yaml:"min_tokens,omitempty" json:"min_tokens"`
	MaxTokens int    `yaml:"max_tokens,omitempty" json:"max_tokens"`
}

// HeaderSignal matches when the request header has one of Values (any value when empty).
type HeaderSignal struct {
	Name   string   `yaml:"name" json:"name"`
	Header string   `yaml:"header" json:"header"`
	Values []string `yaml:"values,omitempty" json:"values,omitempty"`
}

// UserSignal matches when the request's "user" field is one of Users (any user when empty).
type UserSignal struct {
	Name  string   `yaml:"name" json:"name"`
	Users []string `yaml:"users,omitempty" json:"users,omitempty"`
}

// Built-in vocabularies the validation checks against. The router's signal package holds the
// same lists; a test keeps them in step.
var (
	BuiltinDomains = []string{"biology", "business", "chemistry", "computer science", "economics", "engineering",
		"health", "history", "law", "math", "other", "philosophy", "physics", "psychology"}
	// SignalRoles are the values of a signal's roles: system (and developer) messages, user
	// messages, assistant messages, tool results and tool-call arguments, and the last user
	// message alone.
	SignalRoles       = []string{"system", "user", "assistant", "tool", "last_user"}
	PIITypes          = []string{"api_key", "credit_card", "email", "iban", "ip_address", "person_name", "phone", "ssn", "street_address"}
	ComplexityLevels  = []string{"low", "medium", "high"}
	signalNameRE      = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	headerNameRE      = regexp.MustCompile(`^[A-Za-z0-9-]+$`)
	languageCodeRE    = regexp.MustCompile(`^[a-z]{2}$`)
	signalOperators   = []string{"any", "all"}
	defaultJailbreak  = 0.5
	defaultSimilarity = 0.75
)

// signalEntry is one named signal, for validation and lookups.
type signalEntry struct {
	name, kind, path string
}

// entries lists every signal with its kind and field path, in configuration order.
func (s *Signals) entries() []signalEntry {
	var out []signalEntry
	add := func(kind string, names []string) {
		for i, n := range names {
			out = append(out, signalEntry{n, kind, fmt.Sprintf("signals.%s[%d]", kind, i)})
		}
	}
	add("keywords", names(s.Keywords, func(x KeywordSignal) string { return x.Name }))
	add("regex", names(s.Regex, func(x RegexSignal) string { return x.Name }))
	add("embeddings", names(s.Embeddings, func(x EmbeddingSignal) string { return x.Name }))
	add("domains", names(s.Domains, func(x DomainSignal) string { return x.Name }))
	add("pii", names(s.PII, func(x PIISignal) string { return x.Name }))
	add("jailbreak", names(s.Jailbreak, func(x JailbreakSignal) string { return x.Name }))
	add("complexity", names(s.Complexity, func(x ComplexitySignal) string { return x.Name }))
	add("language", names(s.Language, func(x LanguageSignal) string { return x.Name }))
	add("context_length", names(s.ContextLength, func(x ContextLengthSignal) string { return x.Name }))
	add("headers", names(s.Headers, func(x HeaderSignal) string { return x.Name }))
	add("users", names(s.Users, func(x UserSignal) string { return x.Name }))
	return out
}

func names[T any](xs []T, name func(T) string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = name(x)
	}
	return out
}

// SignalNames returns every configured signal name.
func (s *Signals) SignalNames() []string {
	var out []string
	for _, e := range s.entries() {
		out = append(out, e.name)
	}
	return out
}

func (s *Signals) applyDefaults() {
	if s.Embedder.Type == "" {
		s.Embedder.Type = EmbedderBuiltin
	}
	for i := range s.Keywords {
		if s.Keywords[i].Operator == "" {
			s.Keywords[i].Operator = "any"
		}
	}
	for i := range s.Regex {
		if s.Regex[i].Operator == "" {
			s.Regex[i].Operator = "any"
		}
	}
	for i := range s.Embeddings {
		if s.Embeddings[i].Threshold == 0 {
			s.Embeddings[i].Threshold = defaultSimilarity
		}
	}
	for i := range s.Jailbreak {
		if s.Jailbreak[i].Threshold == 0 {
			s.Jailbreak[i].Threshold = defaultJailbreak
		}
	}
}

func (s *Signals) validate(v *validator) {
	seen := map[string]string{}
	for _, e := range s.entries() {
		switch {
		case !signalNameRE.MatchString(e.name):
			v.add(e.path+".name", "must be lower_snake_case (a-z, 0-9, _), got %q", e.name)
		case seen[e.name] != "":
			v.add(e.path+".name", "duplicate signal name %q (first defined at %s)", e.name, seen[e.name])
		default:
			seen[e.name] = e.path
		}
	}
	s.Embedder.validate(v)
	if s.Embedder.RequestTimeout < 0 {
		v.add("signals.embedder.request_timeout", "must not be negative")
	}
	s.validateRoles(v)
	domains := slices.Clone(BuiltinDomains)
	if s.ReplaceBuiltinDomains {
		domains = nil
	}
	for i, c := range s.DomainCategories {
		p := fmt.Sprintf("signals.domain_categories[%d]", i)
		if strings.TrimSpace(c.Name) == "" {
			v.add(p+".name", "is required")
		}
		if len(c.Examples) == 0 {
			v.add(p+".examples", "at least one example prompt is required")
		}
		domains = append(domains, c.Name)
	}
	for i, k := range s.Keywords {
		p := fmt.Sprintf("signals.keywords[%d]", i)
		checkOperator(v, p, k.Operator)
		nonEmpty(v, p+".keywords", k.Keywords, "keyword")
		if k.Fuzzy < 0 || k.Fuzzy > 3 {
			v.add(p+".fuzzy", "must be between 0 and 3, got %d", k.Fuzzy)
		}
	}
	for i, r := range s.Regex {
		p := fmt.Sprintf("signals.regex[%d]", i)
		checkOperator(v, p, r.Operator)
		nonEmpty(v, p+".patterns", r.Patterns, "pattern")
		for j, pat := range r.Patterns {
			if _, err := regexp.Compile(pat); err != nil {
				v.add(fmt.Sprintf("%s.patterns[%d]", p, j), "is not a valid RE2 pattern: %v", err)
			}
		}
	}
	for i, e := range s.Embeddings {
		p := fmt.Sprintf("signals.embeddings[%d]", i)
		nonEmpty(v, p+".examples", e.Examples, "example prompt")
		inUnit(v, p+".threshold", e.Threshold)
	}
	for i, d := range s.Domains {
		p := fmt.Sprintf("signals.domains[%d]", i)
		nonEmpty(v, p+".categories", d.Categories, "category")
		for j, c := range d.Categories {
			if !slices.Contains(domains, c) {
				v.add(fmt.Sprintf("%s.categories[%d]", p, j), "%s", unknownWord("domain category", c, domains))
			}
		}
		if d.MinConfidence < 0 || d.MinConfidence > 1 {
			v.add(p+".min_confidence", "must be between 0 and 1, got %g", d.MinConfidence)
		}
	}
	for i, x := range s.PII {
		for j, t := range x.Types {
			if !slices.Contains(PIITypes, t) {
				v.add(fmt.Sprintf("signals.pii[%d].types[%d]", i, j), "%s", unknownWord("PII type", t, PIITypes))
			}
		}
	}
	for i, j := range s.Jailbreak {
		inUnit(v, fmt.Sprintf("signals.jailbreak[%d].threshold", i), j.Threshold)
	}
	for i, c := range s.Complexity {
		if !slices.Contains(ComplexityLevels, c.MinLevel) {
			v.add(fmt.Sprintf("signals.complexity[%d].min_level", i), "must be low, medium or high, got %q", c.MinLevel)
		}
	}
	for i, l := range s.Language {
		p := fmt.Sprintf("signals.language[%d].languages", i)
		nonEmpty(v, p, l.Languages, "language code")
		for j, code := range l.Languages {
			if !languageCodeRE.MatchString(code) {
				v.add(fmt.Sprintf("%s[%d]", p, j), "must be an ISO 639-1 code such as en or de, got %q", code)
			}
		}
	}
	for i, c := range s.ContextLength {
		p := fmt.Sprintf("signals.context_length[%d]", i)
		if c.MinTokens < 0 || c.MaxTokens < 0 || (c.MaxTokens > 0 && c.MaxTokens < c.MinTokens) {
			v.add(p, "min_tokens and max_tokens must not be negative, and max_tokens (0 = no limit) must be at least min_tokens")
		}
	}
	for i, h := range s.Headers {
		if !headerNameRE.MatchString(h.Header) {
			v.add(fmt.Sprintf("signals.headers[%d].header", i), "must be an HTTP header name, got %q", h.Header)
		}
	}
}

// validateRoles checks each signal's roles against SignalRoles.
func (s *Signals) validateRoles(v *validator) {
	check := func(kind string, i int, roles []string) {
		for j, r := range roles {
			if !slices.Contains(SignalRoles, r) {
				v.add(fmt.Sprintf("signals.%s[%d].roles[%d]", kind, i, j), "%s", unknownWord("role", r, SignalRoles))
			}
		}
	}
	for i, x := range s.Keywords {
		check("keywords", i, x.Roles)
	}
	for i, x := range s.Regex {
		check("regex", i, x.Roles)
	}
	for i, x := range s.Embeddings {
		check("embeddings", i, x.Roles)
	}
	for i, x := range s.Domains {
		check("domains", i, x.Roles)
	}
	for i, x := range s.PII {
		check("pii", i, x.Roles)
	}
	for i, x := range s.Jailbreak {
		check("jailbreak", i, x.Roles)
	}
	for i, x := range s.Complexity {
		check("complexity", i, x.Roles)
	}
	for i, x := range s.Language {
		check("language", i, x.Roles)
	}
}

func checkOperator(v *validator, p, op string) {
	if !slices.Contains(signalOperators, op) {
		v.add(p+".operator", "must be any or all, got %q", op)
	}
}

func nonEmpty(v *validator, p string, xs []string, what string) {
	if len(xs) == 0 {
		v.add(p, "at least one %s is required", what)
	}
	for i, x := range xs {
		if strings.TrimSpace(x) == "" {
			v.add(fmt.Sprintf("%s[%d]", p, i), "must not be empty")
		}
	}
}

func inUnit(v *validator, p string, x float64) {
	if x <= 0 || x > 1 {
		v.add(p, "must be greater than 0 and at most 1, got %g", x)
	}
}

// unknownWord explains a name that is not among known: the closest known one, or the list
// (each name once: a name defined twice is an error of its own).
func unknownWord(what, got string, known []string) string {
	msg := fmt.Sprintf("unknown %s %q", what, got)
	if s := suggest(got, slices.Clone(known)); s != "" {
		return msg + fmt.Sprintf("; did you mean %q?", s)
	}
	if len(known) == 0 {
		return msg + fmt.Sprintf(" (no %s is defined)", what)
	}
	var once []string
	for _, k := range known {
		if !slices.Contains(once, k) {
			once = append(once, k)
		}
	}
	return msg + fmt.Sprintf(" (one of %s)", strings.Join(once, ", "))
}

func (e *Embedder) validate(v *validator) {
	const p = "signals.embedder"
	remoteSet := e.BaseURL != "" || e.Model != "" || !e.APIKey.IsZero() || e.EmbedderConnection != (EmbedderConnection{})
	onnxSet := e.ModelDir != "" || e.Library != "" || e.MaxLength != 0 || e.Pooling != "" || e.Normalize != nil || e.Threads != 0
	switch e.Type {
	case EmbedderBuiltin:
		if remoteSet || onnxSet {
			v.add(p, "type builtin takes no other field")
		}
	case EmbedderRemote:
		validateBaseURL(v, p+".base_url", e.BaseURL)
		if e.Model == "" {
			v.add(p+".model", "is required for type remote")
		}
		validateRef(v, p+".api_key", e.APIKey)
		e.EmbedderConnection.validate(v, p)
		if onnxSet {
			v.add(p, "model_dir, library, max_length, pooling, normalize and threads are used only by type onnx")
		}
	case EmbedderONNX:
		if e.ModelDir == "" {
			v.add(p+".model_dir", "is required for type onnx (a directory with model.onnx and tokenizer.json)")
		}
		if e.Pooling != "" && e.Pooling != "mean" && e.Pooling != "cls" {
			v.add(p+".pooling", "must be mean or cls, got %q", e.Pooling)
		}
		if e.MaxLength == 1 || e.MaxLength < 0 {
			v.add(p+".max_length", "must be at least 2 (0: the default 256), got %d", e.MaxLength)
		}
		if e.Threads < 0 {
			v.add(p+".threads", "must not be negative")
		}
		if remoteSet {
			v.add(p, "base_url, model and api_key are used only by type remote")
		}
	default:
		v.add(p+".type", "must be builtin, remote or onnx, got %q", e.Type)
	}
}
