package router

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/decision"
	"github.com/semantic-router/semantic-router/internal/embed"
	"github.com/semantic-router/semantic-router/internal/embed/builtin"
	"github.com/semantic-router/semantic-router/internal/embed/onnx"
	"github.com/semantic-router/semantic-router/internal/embed/remote"
	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/provider/transport"
	"github.com/semantic-router/semantic-router/internal/secret"
	"github.com/semantic-router/semantic-router/internal/signal"
)

// SignalResult is one signal's outcome for a request, as the classification API and the
// debug header report it.
type SignalResult struct {
	Name       string  `json:"name"`
	Kind       string  `json:"kind"`
	Matched    bool    `json:"matched"`
	Confidence float64 `json:"confidence"`
	// Label is the domain, the language code or the complexity level.
	Label string `json:"label,omitempty"`
	// Types are the PII types found (those the signal looks for).
	Types []string `json:"types,omitempty"`
	// Value is the signal's detail: the domain and its scores, the PII findings, the
	// jailbreak score and reasons, the complexity level, the language, the token estimate.
	Value any `json:"value,omitempty"`
	// Error says why the signal could not be computed for this request (its embedder
	// failed); it then reads as not matched, and the policies that depend on it take their
	// on_error.
	Error     string  `json:"error,omitempty"`
	LatencyMs float64 `json:"latency_ms"`
}

// signalSet holds the extractors built from the configuration, one per signal, sharing the
// expensive ones (the embedder, the domain classifier, the PII and jailbreak detectors).
type signalSet struct {
	embedder     embed.Embedder
	closer       interface{ Close() error } // the embedder's resources (an ONNX session), if any
	embedTimeout time.Duration
	extractor    map[string]extractor
	order        []string // configuration order

	// pending build the parts that embed their examples (similarity matchers, the domain
	// classifier, the jailbreak detector) when a remote embedder was not answering at
	// start; ensure runs them once it answers. built is set when none is left.
	pendingMu sync.Mutex
	pending   []func(context.Context) error
	built     atomic.Bool
}

// readier is an embedder that can say whether its service answers (the remote one).
type readier interface{ Ready(context.Context) error }

// Ready reports whether every signal can be computed: nil, or why not (a remote embedder
// that has not answered yet). The management API's /ready reports it.
func (r *Router) Ready(ctx context.Context) error {
	if r.signals == nil {
		return nil
	}
	if rd, ok := r.signals.embedder.(readier); ok {
		if err := rd.Ready(ctx); err != nil {
			return fmt.Errorf("signals.embedder: %w", err)
		}
	}
	if err := r.signals.ensure(ctx); err != nil {
		return fmt.Errorf("signals: %w", err)
	}
	return nil
}

// ensure builds the parts left pending at start. It is safe for concurrent use; parts it
// built are visible to a goroutine that synchronizes with its return.
func (s *signalSet) ensure(ctx context.Context) error {
	if s.built.Load() {
		return nil
	}
	s.pendingMu.Lock()
	defer s.pendingMu.Unlock()
	for len(s.pending) > 0 {
		if err := s.pending[0](ctx); err != nil {
			return err
		}
		s.pending = s.pending[1:]
	}
	s.built.Store(true)
	return nil
}

// input is what the signals read of a request. It is filled before the extractors run
// concurrently and only read by them.
type input struct {
	sig    *signal.Input    // every text the model reads, normalised once
	msgs   []openai.Message // the conversation, read only by the token estimate
	header http.Header
	user   string // the request's "user" field
	// vecs are the embeddings of the texts the vector signals read; nil when embedding
	// failed (embedErr says why).
	vecs     map[string][]float32
	embedErr error
}

// vec returns the embedding of text, or false when it could not be computed.
func (in *input) vec(text string) ([]float32, bool) {
	v, ok := in.vecs[text]
	return v, ok
}

type extractor struct {
	kind string
	// scope is the messages the signal reads; 0 for signals that read no message text.
	scope signal.Role
	// vec says the signal needs embeddings: of each segment in scope (perSegment) or of
	// their joined text.
	vec, perSegment bool
	// run fills Matched, Confidence, Label, Types and Value, or Error when a vector it
	// needs is missing.
	run func(in *input) SignalResult
}

// defaultEmbedTimeout bounds embedding one request's texts when signals.embedder.timeout is
// not set.
const defaultEmbedTimeout = 3 * time.Second

// errNoVector is the Error of a signal whose embedding failed.
const errNoVector = "embedding unavailable"

func newSignalSet(ctx context.Context, s *config.Signals, secrets *secret.Store) (*signalSet, error) {
	set := &signalSet{extractor: map[string]extractor{}, embedTimeout: s.Embedder.RequestTimeout.D()}
	if set.embedTimeout == 0 {
		set.embedTimeout = defaultEmbedTimeout
	}
	emb, closer, err := newEmbedder(&s.Embedder, secrets)
	if err != nil {
		return nil, fmt.Errorf("signals.embedder: %w", err)
	}
	set.embedder, set.closer = emb, closer
	// A remote embedder that does not answer yet must not stop the router: the parts that
	// embed examples are built when it does, and /ready says why not until then.
	deferBuild := false
	if rd, ok := emb.(readier); ok && rd.Ready(ctx) != nil {
		deferBuild = true
	}
	set.built.Store(!deferBuild)
	later := func(build func(context.Context) error) error {
		if deferBuild {
			set.pending = append(set.pending, build)
			return nil
		}
		return build(ctx)
	}
	var scopeErr error
	add := func(name, kind string, roles []string, def signal.Role, vec bool, run func(*input) SignalResult) {
		scope, err := signal.ParseScope(roles, def)
		if err != nil && scopeErr == nil {
			scopeErr = fmt.Errorf("signal %q: %w", name, err)
		}
		set.extractor[name] = extractor{kind: kind, scope: scope, vec: vec, perSegment: kind == "jailbreak", run: run}
		set.order = append(set.order, name)
	}
	const routing, policy, none = signal.ScopeRouting, signal.ScopeAll, signal.Role(0)
	exact := func(ok bool) float64 {
		if ok {
			return 1
		}
		return 0
	}

	for _, k := range s.Keywords {
		m, err := signal.NewKeywordMatcher(signal.KeywordOptions{Keywords: k.Keywords, Mode: signal.KeywordMode(k.Operator),
			CaseSensitive: k.CaseSensitive, MaxEdits: k.Fuzzy})
		if err != nil {
			return nil, fmt.Errorf("signal %q: %w", k.Name, err)
		}
		scope := mustScope(k.Roles, routing)
		add(k.Name, "keyword", k.Roles, routing, false, func(in *input) SignalResult {
			r := m.Match(in.sig.Text(scope))
			return SignalResult{Matched: r.Matched, Confidence: exact(r.Matched), Value: r.Found}
		})
	}
	for _, x := range s.Regex {
		m, err := signal.NewRegexMatcher(signal.RegexOptions{Patterns: x.Patterns, Mode: signal.KeywordMode(x.Operator), CaseInsensitive: x.CaseInsensitive})
		if err != nil {
			return nil, fmt.Errorf("signal %q: %w", x.Name, err)
		}
		scope := mustScope(x.Roles, routing)
		add(x.Name, "regex", x.Roles, routing, false, func(in *input) SignalResult {
			r := m.Match(in.sig.Text(scope))
			return SignalResult{Matched: r.Matched, Confidence: exact(r.Matched)}
		})
	}
	for _, e := range s.Embeddings {
		var m *signal.SimilarityMatcher
		if err := later(func(ctx context.Context) (err error) {
			m, err = signal.NewSimilarityMatcher(ctx, signal.SimilarityOptions{Embedder: set.embedder, Examples: e.Examples, Threshold: e.Threshold})
			if err != nil {
				return fmt.Errorf("signal %q: %w", e.Name, err)
			}
			return nil
		}); err != nil {
			return nil, err
		}
		scope := mustScope(e.Roles, routing)
		add(e.Name, "embedding", e.Roles, routing, true, func(in *input) SignalResult {
			v, ok := in.vec(in.sig.Text(scope))
			if !ok {
				return SignalResult{Error: errNoVector}
			}
			r := m.MatchVector(v)
			return SignalResult{Matched: r.Matched, Confidence: max(0, r.Score), Value: r}
		})
	}
	if len(s.Domains) > 0 {
		var cats []signal.DomainCategory
		for _, c := range s.DomainCategories {
			cats = append(cats, signal.DomainCategory{Name: c.Name, Examples: c.Examples, Keywords: c.Keywords})
		}
		var dc *signal.DomainClassifier
		if err := later(func(ctx context.Context) (err error) {
			dc, err = signal.NewDomainClassifier(ctx, signal.DomainOptions{Embedder: set.embedder, Categories: cats, ReplaceBuiltin: s.ReplaceBuiltinDomains})
			if err != nil {
				return fmt.Errorf("domain classifier: %w", err)
			}
			return nil
		}); err != nil {
			return nil, err
		}
		for _, d := range s.Domains {
			scope := mustScope(d.Roles, routing)
			add(d.Name, "domain", d.Roles, routing, true, func(in *input) SignalResult {
				text := in.sig.Text(scope)
				v, have := in.vec(text)
				if !have {
					return SignalResult{Error: errNoVector}
				}
				r := dc.ClassifyVector(text, v)
				ok := slices.Contains(d.Categories, r.Label) && r.Confidence >= d.MinConfidence
				return SignalResult{Matched: ok, Confidence: r.Confidence, Label: r.Label, Value: r.Scores}
			})
		}
	}
	if len(s.PII) > 0 {
		det, err := signal.NewPIIDetector(signal.PIIOptions{})
		if err != nil {
			return nil, fmt.Errorf("pii detector: %w", err)
		}
		for _, p := range s.PII {
			scope := mustScope(p.Roles, policy)
			add(p.Name, "pii", p.Roles, policy, false, func(in *input) SignalResult {
				r := det.Detect(in.sig.Text(scope))
				var types []string
				for _, t := range r.Types() {
					if len(p.Types) == 0 || slices.Contains(p.Types, string(t)) {
						types = append(types, string(t))
					}
				}
				return SignalResult{Matched: len(types) > 0, Confidence: exact(len(types) > 0), Types: types}
			})
		}
	}
	if len(s.Jailbreak) > 0 {
		var det *signal.JailbreakDetector
		if err := later(func(ctx context.Context) (err error) {
			det, err = signal.NewJailbreakDetector(ctx, signal.JailbreakOptions{Embedder: set.embedder})
			if err != nil {
				return fmt.Errorf("jailbreak detector: %w", err)
			}
			return nil
		}); err != nil {
			return nil, err
		}
		for _, j := range s.Jailbreak {
			scope := mustScope(j.Roles, policy)
			add(j.Name, "jailbreak", j.Roles, policy, true, func(in *input) SignalResult {
				return jailbreakResult(det, in, scope, j.Threshold)
			})
		}
	}
	if len(s.Complexity) > 0 {
		sc, err := signal.NewComplexityScorer(signal.ComplexityOptions{})
		if err != nil {
			return nil, fmt.Errorf("complexity scorer: %w", err)
		}
		for _, c := range s.Complexity {
			minLevel := slices.Index(config.ComplexityLevels, c.MinLevel)
			scope := mustScope(c.Roles, routing)
			add(c.Name, "complexity", c.Roles, routing, false, func(in *input) SignalResult {
				r := sc.Score(in.sig.Text(scope))
				return SignalResult{Matched: slices.Index(config.ComplexityLevels, string(r.Level)) >= minLevel, Confidence: r.Score, Label: string(r.Level), Value: r}
			})
		}
	}
	if len(s.Language) > 0 {
		ld, err := signal.NewLanguageDetector(signal.LanguageOptions{})
		if err != nil {
			return nil, fmt.Errorf("language detector: %w", err)
		}
		for _, l := range s.Language {
			scope := mustScope(l.Roles, routing)
			add(l.Name, "language", l.Roles, routing, false, func(in *input) SignalResult {
				r := ld.Detect(in.sig.Text(scope))
				return SignalResult{Matched: slices.Contains(l.Languages, r.Code), Confidence: r.Confidence, Label: r.Code}
			})
		}
	}
	for _, c := range s.ContextLength {
		add(c.Name, "context_length", nil, none, false, func(in *input) SignalResult {
			n := 0
			for _, m := range in.msgs {
				n += signal.EstimateTokens(m.Content.String())
			}
			ok := n >= c.MinTokens && (c.MaxTokens == 0 || n <= c.MaxTokens)
			return SignalResult{Matched: ok, Confidence: exact(ok), Value: n}
		})
	}
	for _, h := range s.Headers {
		add(h.Name, "header", nil, none, false, func(in *input) SignalResult {
			vals := in.header.Values(h.Header)
			ok := len(vals) > 0 && (len(h.Values) == 0 || slices.ContainsFunc(vals, func(v string) bool { return slices.Contains(h.Values, v) }))
			return SignalResult{Matched: ok, Confidence: exact(ok)}
		})
	}
	for _, u := range s.Users {
		add(u.Name, "user", nil, none, false, func(in *input) SignalResult {
			ok := in.user != "" && (len(u.Users) == 0 || slices.Contains(u.Users, in.user))
			return SignalResult{Matched: ok, Confidence: exact(ok)}
		})
	}
	if scopeErr != nil {
		return nil, scopeErr
	}
	return set, nil
}

// newInput collects what the signals read of a request: each message's text and each tool
// call's arguments, normalised once. Nothing else is copied: the conversation itself is read
// only by the token estimate.
func newInput(req *openai.ChatRequest, h http.Header) *input {
	segs := make([]signal.Segment, 0, len(req.Messages))
	for i, m := range req.Messages {
		role := signal.MessageRole(m.Role)
		if t := m.Content.String(); t != "" {
			segs = append(segs, signal.Segment{Message: i, Role: role, Raw: t})
		}
		for _, tc := range m.ToolCalls {
			if tc.Function.Arguments != "" {
				segs = append(segs, signal.Segment{Message: i, Role: signal.RoleTool, ToolCall: true,
					Raw: signal.ToolCallText(tc.Function.Arguments)})
			}
		}
	}
	return &input{sig: signal.NewInput(segs), msgs: req.Messages, header: h, user: req.User}
}

// maskText masks the personal data in one message's text. Data that shows only after
// normalisation (digits split by zero-width spaces, full-width digits) is masked in the
// normalised text, which is then what the model reads of that message.
func maskText(det *signal.PIIDetector, text string) string {
	masked := det.Mask(text)
	if n := signal.Normalize(masked); n != masked {
		if r := det.Detect(n); len(r.Findings) > 0 {
			return r.Mask(n)
		}
	}
	return masked
}

// mustScope is the scope of a signal's roles; a bad role is reported by add, which parses
// the same list.
func mustScope(roles []string, def signal.Role) signal.Role {
	s, _ := signal.ParseScope(roles, def)
	return s
}

// jailbreakResult scores each segment in scope on its own and keeps the highest score, so
// that a long, benign system prompt does not dilute an attack in one message. Without
// embeddings the patterns still score: a match stands, while a score below the threshold is
// an Error, since similarity might have tipped it.
func jailbreakResult(det *signal.JailbreakDetector, in *input, scope signal.Role, threshold float64) SignalResult {
	var best signal.JailbreakResult
	missing := false
	for _, seg := range in.sig.Segments {
		if seg.Role&scope == 0 || seg.Text == "" {
			continue
		}
		v, ok := in.vec(seg.Text)
		missing = missing || !ok
		if r := det.DetectVector(seg.Text, v); r.Score > best.Score {
			best = r
		}
	}
	res := SignalResult{Matched: best.Score >= threshold, Confidence: best.Score, Value: best.Reasons}
	if missing && !res.Matched {
		res.Error = errNoVector
	}
	return res
}

// newEmbedder builds the configured embedder; closer is non-nil when it holds resources.
func newEmbedder(e *config.Embedder, secrets *secret.Store) (embed.Embedder, interface{ Close() error }, error) {
	switch e.Type {
	case config.EmbedderRemote:
		o := remote.Options{BaseURL: e.BaseURL, Model: e.Model, Timeout: e.Timeout.D()}
		if !e.APIKey.IsZero() {
			src, err := secrets.Open(string(e.APIKey))
			if err != nil {
				return nil, nil, fmt.Errorf("api_key %s: %w", e.APIKey, err)
			}
			// Read on every call: a rotated file: key takes effect without a reload.
			o.APIKey, o.APIKeySource = src.Value, src.Ref()
		}
		topts := transport.Options{ConnectTimeout: e.ConnectTimeout.D()}
		if !e.CACertPEM.IsZero() {
			src, err := secrets.Open(string(e.CACertPEM))
			if err != nil {
				return nil, nil, fmt.Errorf("ca_cert_pem %s: %w", e.CACertPEM, err)
			}
			pem, err := src.Value()
			if err != nil {
				return nil, nil, fmt.Errorf("ca_cert_pem %s: %w", e.CACertPEM, err)
			}
			topts.CACertPEM = []byte(pem)
		}
		t, err := transport.New(topts)
		if err != nil {
			return nil, nil, err
		}
		o.Transport = t
		c, err := remote.New(o)
		return c, nil, err
	case config.EmbedderONNX:
		c, err := onnx.New(onnx.Options{ModelDir: e.ModelDir, LibraryPath: e.Library, MaxLength: e.MaxLength,
			Pooling: e.Pooling, Normalize: e.Normalize, Threads: e.Threads})
		if err != nil {
			return nil, nil, err
		}
		return c, c, nil
	default:
		return builtin.New(), nil, nil
	}
}

// evaluate computes the named signals (every signal when names is nil) concurrently and
// returns their results in configuration order and the matches for the decision engine.
// The texts the vector signals read are embedded together, once, only if one of them is
// wanted. When that fails (err, for the log), the vector signals come back with an Error and
// as failed matches, and every other signal is computed as usual.
func (s *signalSet) evaluate(ctx context.Context, in *input, names map[string]bool) (_ []SignalResult, _ decision.Matches, err error) {
	var want []string
	var scopes []signal.Role
	for _, n := range s.order {
		if names == nil || names[n] {
			want = append(want, n)
			if sc := s.extractor[n].scope; sc != 0 && !slices.Contains(scopes, sc) {
				scopes = append(scopes, sc)
			}
		}
	}
	if len(want) == 0 {
		return nil, decision.Matches{}, nil
	}
	in.sig.Prepare(scopes...)
	texts := s.embedTexts(in, want)
	var embedDone sync.WaitGroup
	if len(texts) > 0 {
		embedDone.Add(1)
		go func() {
			defer embedDone.Done()
			in.vecs, in.embedErr = s.embed(ctx, texts)
			if in.embedErr == nil {
				// The parts left pending while the embedder was down.
				if err := s.ensure(ctx); err != nil {
					in.vecs, in.embedErr = nil, err
				}
			}
		}()
	}
	results := make([]SignalResult, len(want))
	var wg sync.WaitGroup
	for i, n := range want {
		ex := s.extractor[n]
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			if ex.vec {
				embedDone.Wait()
			}
			res := ex.run(in)
			res.Name, res.Kind = n, ex.kind
			res.LatencyMs = float64(time.Since(start).Microseconds()) / 1000
			results[i] = res
		}()
	}
	wg.Wait()
	if in.embedErr != nil {
		// The classification API shows operators why; clients only see the signal names.
		for i := range results {
			if results[i].Error == errNoVector {
				results[i].Error = errNoVector + ": " + in.embedErr.Error()
			}
		}
	}
	m := make(decision.Matches, len(results))
	for _, r := range results {
		m[r.Name] = decision.Match{Matched: r.Matched, Confidence: r.Confidence, Failed: r.Error != ""}
	}
	return results, m, in.embedErr
}

// embedTexts lists the distinct texts the wanted vector signals read.
func (s *signalSet) embedTexts(in *input, want []string) []string {
	var texts []string
	addText := func(t string) {
		if !slices.Contains(texts, t) {
			texts = append(texts, t)
		}
	}
	for _, n := range want {
		ex := s.extractor[n]
		switch {
		case !ex.vec:
		case ex.perSegment:
			for _, seg := range in.sig.Segments {
				if seg.Role&ex.scope != 0 && seg.Text != "" {
					addText(seg.Text)
				}
			}
		default:
			addText(in.sig.Text(ex.scope))
		}
	}
	return texts
}

// embed embeds texts in one call bounded by the embedder timeout.
func (s *signalSet) embed(ctx context.Context, texts []string) (map[string][]float32, error) {
	ctx, cancel := context.WithTimeout(ctx, s.embedTimeout)
	defer cancel()
	vs, err := s.embedder.Embed(ctx, texts)
	if err != nil {
		return nil, fmt.Errorf("embedding %d texts: %w", len(texts), err)
	}
	if len(vs) != len(texts) {
		return nil, fmt.Errorf("embedding %d texts: the embedder returned %d vectors", len(texts), len(vs))
	}
	out := make(map[string][]float32, len(texts))
	for i, t := range texts {
		out[t] = vs[i]
	}
	return out, nil
}

// policyUnavailable is the refusal of a decision that could not be evaluated because the
// signals it reads failed, and its on_error is refuse.
func policyUnavailable(decision string, failed []string) *openai.APIError {
	what := "signal"
	if len(failed) > 1 {
		what = "signals"
	}
	return &openai.APIError{Status: http.StatusServiceUnavailable, Type: openai.TypeServer, Code: "policy_unavailable",
		Message: fmt.Sprintf("the request was not sent to a model: policy %q could not be checked because %s %s could not be computed (the embedder did not answer); try again later",
			decision, what, quoteList(failed))}
}

func quoteList(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = strconv.Quote(x)
	}
	return strings.Join(q, ", ")
}

// countSignalErrors counts each failed signal by what became of the request: refused (a
// decision that reads it refused on error), allowed (a policy read it as not matched, by
// on_error allow) or not_matched (routing read it as not matched).
func (r *Router) countSignalErrors(results []SignalResult, res decision.Result, matched bool) {
	if r.metrics == nil {
		return
	}
	for _, s := range results {
		if s.Error == "" {
			continue
		}
		outcome := "not_matched"
		switch {
		case matched && res.Undetermined && slices.Contains(res.Failed, s.Name):
			outcome = "refused"
		case r.policyAllows(s.Name):
			outcome = "allowed"
		}
		r.metrics.SignalErrors.WithLabelValues(s.Name, outcome).Inc()
	}
}

// policyAllows reports whether a policy (applies_to: all) with on_error allow reads the
// signal. Only failures ask, so the decisions are walked each time.
func (r *Router) policyAllows(name string) bool {
	for _, d := range r.cfg.Decisions {
		if d.AppliesTo == "all" && !d.RefusesOnError() && (&config.Config{Decisions: []config.Decision{d}}).ReferencedSignals()[name] {
			return true
		}
	}
	return false
}

// close releases the embedder's resources. The set must not be used afterwards.
func (s *signalSet) close() error {
	if s == nil || s.closer == nil {
		return nil
	}
	return s.closer.Close()
}
