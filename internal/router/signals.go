package router

import (
	"context"
	"fmt"
	"net/http"
	"slices"
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
	Value     any     `json:"value,omitempty"`
	LatencyMs float64 `json:"latency_ms"`
}

// signalSet holds the extractors built from the configuration, one per signal, sharing the
// expensive ones (the embedder, the domain classifier, the PII and jailbreak detectors).
type signalSet struct {
	embedder  embed.Embedder
	closer    interface{ Close() error } // the embedder's resources (an ONNX session), if any
	extractor map[string]extractor
	order     []string // configuration order
	needsVec  map[string]bool

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

// input is what the signals read of a request.
type input struct {
	text   string           // the last user message
	msgs   []openai.Message // the conversation, read only by the token estimate
	header http.Header
	user   string    // the request's "user" field
	vec    []float32 // the embedding of text, when a signal needs it
}

type extractor struct {
	kind string
	// run fills Matched, Confidence, Label, Types and Value.
	run func(in *input) SignalResult
}

func newSignalSet(ctx context.Context, s *config.Signals, secrets *secret.Store) (*signalSet, error) {
	set := &signalSet{extractor: map[string]extractor{}, needsVec: map[string]bool{}}
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
	add := func(name, kind string, vec bool, run func(*input) SignalResult) {
		set.extractor[name] = extractor{kind: kind, run: run}
		set.order = append(set.order, name)
		set.needsVec[name] = vec
	}
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
		add(k.Name, "keyword", false, func(in *input) SignalResult {
			r := m.Match(in.text)
			return SignalResult{Matched: r.Matched, Confidence: exact(r.Matched), Value: r.Found}
		})
	}
	for _, x := range s.Regex {
		m, err := signal.NewRegexMatcher(signal.RegexOptions{Patterns: x.Patterns, Mode: signal.KeywordMode(x.Operator), CaseInsensitive: x.CaseInsensitive})
		if err != nil {
			return nil, fmt.Errorf("signal %q: %w", x.Name, err)
		}
		add(x.Name, "regex", false, func(in *input) SignalResult {
			r := m.Match(in.text)
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
		add(e.Name, "embedding", true, func(in *input) SignalResult {
			r := m.MatchVector(in.vec)
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
			add(d.Name, "domain", true, func(in *input) SignalResult {
				r := dc.ClassifyVector(in.text, in.vec)
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
			add(p.Name, "pii", false, func(in *input) SignalResult {
				r := det.Detect(in.text)
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
			add(j.Name, "jailbreak", true, func(in *input) SignalResult {
				r := det.DetectVector(in.text, in.vec)
				return SignalResult{Matched: r.Score >= j.Threshold, Confidence: r.Score, Value: r.Reasons}
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
			add(c.Name, "complexity", false, func(in *input) SignalResult {
				r := sc.Score(in.text)
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
			add(l.Name, "language", false, func(in *input) SignalResult {
				r := ld.Detect(in.text)
				return SignalResult{Matched: slices.Contains(l.Languages, r.Code), Confidence: r.Confidence, Label: r.Code}
			})
		}
	}
	for _, c := range s.ContextLength {
		add(c.Name, "context_length", false, func(in *input) SignalResult {
			n := 0
			for _, m := range in.msgs {
				n += signal.EstimateTokens(m.Content.String())
			}
			ok := n >= c.MinTokens && (c.MaxTokens == 0 || n <= c.MaxTokens)
			return SignalResult{Matched: ok, Confidence: exact(ok), Value: n}
		})
	}
	for _, h := range s.Headers {
		add(h.Name, "header", false, func(in *input) SignalResult {
			vals := in.header.Values(h.Header)
			ok := len(vals) > 0 && (len(h.Values) == 0 || slices.ContainsFunc(vals, func(v string) bool { return slices.Contains(h.Values, v) }))
			return SignalResult{Matched: ok, Confidence: exact(ok)}
		})
	}
	for _, u := range s.Users {
		add(u.Name, "user", false, func(in *input) SignalResult {
			ok := in.user != "" && (len(u.Users) == 0 || slices.Contains(u.Users, in.user))
			return SignalResult{Matched: ok, Confidence: exact(ok)}
		})
	}
	return set, nil
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
// returns their results in configuration order and the matches for the decision engine. The
// prompt is embedded once, only if one of the signals needs the vector.
func (s *signalSet) evaluate(ctx context.Context, in *input, names map[string]bool) ([]SignalResult, decision.Matches, error) {
	var want []string
	vec := false
	for _, n := range s.order {
		if names == nil || names[n] {
			want = append(want, n)
			vec = vec || s.needsVec[n]
		}
	}
	results := make([]SignalResult, len(want))
	if len(want) == 0 {
		return nil, decision.Matches{}, nil
	}
	var embedErr error
	var embedDone sync.WaitGroup
	if vec {
		embedDone.Add(1)
		go func() {
			defer embedDone.Done()
			vs, err := s.embedder.Embed(ctx, []string{in.text})
			if err == nil {
				err = s.ensure(ctx) // the parts left pending while the embedder was down
			}
			if err != nil {
				embedErr = err
				return
			}
			in.vec = vs[0]
		}()
	}
	var wg sync.WaitGroup
	for i, n := range want {
		ex := s.extractor[n]
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			if s.needsVec[n] {
				embedDone.Wait()
				if embedErr != nil {
					results[i] = SignalResult{Name: n, Kind: ex.kind}
					return
				}
			}
			res := ex.run(in)
			res.Name, res.Kind = n, ex.kind
			res.LatencyMs = float64(time.Since(start).Microseconds()) / 1000
			results[i] = res
		}()
	}
	wg.Wait()
	if embedErr != nil {
		return nil, nil, fmt.Errorf("embedding the prompt: %w", embedErr)
	}
	m := make(decision.Matches, len(results))
	for _, r := range results {
		m[r.Name] = decision.Match{Matched: r.Matched, Confidence: r.Confidence}
	}
	return results, m, nil
}

// close releases the embedder's resources. The set must not be used afterwards.
func (s *signalSet) close() error {
	if s == nil || s.closer == nil {
		return nil
	}
	return s.closer.Close()
}
