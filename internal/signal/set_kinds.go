package signal

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"

	"github.com/semantic-router/semantic-router/internal/config"
)

// builder adds the configured signals to a Set, kind by kind, in configuration order.
type builder struct {
	ctx context.Context
	set *Set
	// deferBuild leaves the parts that embed examples to Set.ensure: the embedder did not
	// answer at start.
	deferBuild bool
	scopeErr   error // the first bad roles list
}

// build adds every signal of cfg. A part that cannot be built stops it at once; a bad roles
// list is reported after the rest is built, as it always was.
func (b *builder) build(cfg *config.Signals) error {
	for _, step := range []func(*config.Signals) error{
		b.keywords, b.regex, b.embeddings, b.domains, b.pii, b.jailbreak, b.complexity, b.language,
	} {
		if err := step(cfg); err != nil {
			return err
		}
	}
	b.metadata(cfg)
	return b.scopeErr
}

// later runs build now, or at Set.ensure when the embedder did not answer at start.
func (b *builder) later(build func(context.Context) error) error {
	if b.deferBuild {
		b.set.pending = append(b.set.pending, build)
		return nil
	}
	return build(b.ctx)
}

// add registers one signal that reads the messages in roles, by default def: the last user
// message for routing signals (ScopeRouting), every message for policies (ScopeAll), none
// (0) for the signals of the request's metadata. Jailbreak signals score each segment on
// its own.
func (b *builder) add(name, kind string, roles []string, def Role, vec bool, run func(*evaluation) Result) {
	scope, err := ParseScope(roles, def)
	if err != nil && b.scopeErr == nil {
		b.scopeErr = fmt.Errorf("signal %q: %w", name, err)
	}
	if b.set.index == nil {
		b.set.index = map[string]int{}
	}
	b.set.index[name] = len(b.set.list)
	b.set.list = append(b.set.list, extractor{name: name, kind: kind, scope: scope, vec: vec, perSegment: kind == "jailbreak", run: run})
	if scope != 0 && !slices.Contains(b.set.scopes, scope) {
		b.set.scopes = append(b.set.scopes, scope)
	}
}

// mustScope is the scope of a signal's roles; a bad role is reported by add, which parses
// the same list.
func mustScope(roles []string, def Role) Role {
	s, _ := ParseScope(roles, def)
	return s
}

// exact is the confidence of a yes-or-no signal.
func exact(ok bool) float64 {
	if ok {
		return 1
	}
	return 0
}

func (b *builder) keywords(cfg *config.Signals) error {
	for _, k := range cfg.Keywords {
		m, err := NewKeywordMatcher(KeywordOptions{Keywords: k.Keywords, Mode: KeywordMode(k.Operator),
			CaseSensitive: k.CaseSensitive, MaxEdits: k.Fuzzy})
		if err != nil {
			return fmt.Errorf("signal %q: %w", k.Name, err)
		}
		scope := mustScope(k.Roles, ScopeRouting)
		b.add(k.Name, "keyword", k.Roles, ScopeRouting, false, func(ev *evaluation) Result {
			r := m.matchText(ev.text(ev.in.Text(scope)))
			return Result{Matched: r.Matched, Confidence: exact(r.Matched), Value: r.Found}
		})
		b.set.list[len(b.set.list)-1].fuzzy = k.Fuzzy > 0
	}
	return nil
}

func (b *builder) regex(cfg *config.Signals) error {
	for _, x := range cfg.Regex {
		m, err := NewRegexMatcher(RegexOptions{Patterns: x.Patterns, Mode: KeywordMode(x.Operator), CaseInsensitive: x.CaseInsensitive})
		if err != nil {
			return fmt.Errorf("signal %q: %w", x.Name, err)
		}
		scope := mustScope(x.Roles, ScopeRouting)
		b.add(x.Name, "regex", x.Roles, ScopeRouting, false, func(ev *evaluation) Result {
			r := m.Match(ev.in.Text(scope))
			return Result{Matched: r.Matched, Confidence: exact(r.Matched)}
		})
	}
	return nil
}

func (b *builder) embeddings(cfg *config.Signals) error {
	for _, e := range cfg.Embeddings {
		var m *SimilarityMatcher
		if err := b.later(func(ctx context.Context) (err error) {
			m, err = NewSimilarityMatcher(ctx, SimilarityOptions{Embedder: b.set.embedder, Examples: e.Examples, Threshold: e.Threshold})
			if err != nil {
				return fmt.Errorf("signal %q: %w", e.Name, err)
			}
			return nil
		}); err != nil {
			return err
		}
		scope := mustScope(e.Roles, ScopeRouting)
		b.add(e.Name, "embedding", e.Roles, ScopeRouting, true, func(ev *evaluation) Result {
			v, ok := ev.vec(ev.in.Text(scope))
			if !ok {
				return Result{Error: errNoVector}
			}
			r := m.MatchVector(v)
			return Result{Matched: r.Matched, Confidence: max(0, r.Score), Value: r}
		})
	}
	return nil
}

func (b *builder) domains(cfg *config.Signals) error {
	if len(cfg.Domains) == 0 {
		return nil
	}
	var cats []DomainCategory
	for _, c := range cfg.DomainCategories {
		cats = append(cats, DomainCategory{Name: c.Name, Examples: c.Examples, Keywords: c.Keywords})
	}
	var dc *DomainClassifier
	if err := b.later(func(ctx context.Context) (err error) {
		dc, err = NewDomainClassifier(ctx, DomainOptions{Embedder: b.set.embedder, Categories: cats, ReplaceBuiltin: cfg.ReplaceBuiltinDomains})
		if err != nil {
			return fmt.Errorf("domain classifier: %w", err)
		}
		return nil
	}); err != nil {
		return err
	}
	for _, d := range cfg.Domains {
		scope := mustScope(d.Roles, ScopeRouting)
		b.add(d.Name, "domain", d.Roles, ScopeRouting, true, func(ev *evaluation) Result {
			text := ev.in.Text(scope)
			v, have := ev.vec(text)
			if !have {
				return Result{Error: errNoVector}
			}
			r := dc.classifyVector(v, ev.text(text))
			ok := slices.Contains(d.Categories, r.Label) && r.Confidence >= d.MinConfidence
			return Result{Matched: ok, Confidence: r.Confidence, Label: r.Label, Value: r.Scores}
		})
	}
	return nil
}

func (b *builder) pii(cfg *config.Signals) error {
	if len(cfg.PII) == 0 {
		return nil
	}
	det, err := NewPIIDetector(PIIOptions{})
	if err != nil {
		return fmt.Errorf("pii detector: %w", err)
	}
	for _, p := range cfg.PII {
		scope := mustScope(p.Roles, ScopeAll)
		b.add(p.Name, "pii", p.Roles, ScopeAll, false, func(ev *evaluation) Result {
			found := det.TypesIn(ev.in.Text(scope))
			// A value cut into two user messages ("call me at (312) 555-" / "0148") reads
			// whole in the user's turns.
			if turns, ok := ev.in.userTurns(scope); ok {
				for _, t := range det.TypesIn(turns) {
					if !slices.Contains(found, t) {
						found = append(found, t)
					}
				}
			}
			var types []string
			for _, t := range found {
				if len(p.Types) == 0 || slices.Contains(p.Types, string(t)) {
					types = append(types, string(t))
				}
			}
			return Result{Matched: len(types) > 0, Confidence: exact(len(types) > 0), Types: types}
		})
	}
	return nil
}

func (b *builder) jailbreak(cfg *config.Signals) error {
	if len(cfg.Jailbreak) == 0 {
		return nil
	}
	// Until an embedder that was down at start answers, a detector without it scores the
	// patterns (as the full one does without a vector): an evident attack is still
	// refused. Requests read det while ensure replaces it.
	var det atomic.Pointer[JailbreakDetector]
	if b.deferBuild {
		d, err := NewJailbreakDetector(b.ctx, JailbreakOptions{})
		if err != nil {
			return fmt.Errorf("jailbreak detector: %w", err)
		}
		det.Store(d)
	}
	if err := b.later(func(ctx context.Context) error {
		d, err := NewJailbreakDetector(ctx, JailbreakOptions{Embedder: b.set.embedder})
		if err != nil {
			return fmt.Errorf("jailbreak detector: %w", err)
		}
		det.Store(d)
		return nil
	}); err != nil {
		return err
	}
	for _, j := range cfg.Jailbreak {
		scope := mustScope(j.Roles, ScopeAll)
		b.add(j.Name, "jailbreak", j.Roles, ScopeAll, true, func(ev *evaluation) Result {
			return jailbreakResult(det.Load(), ev, scope, j.Threshold)
		})
	}
	return nil
}

func (b *builder) complexity(cfg *config.Signals) error {
	if len(cfg.Complexity) == 0 {
		return nil
	}
	sc, err := NewComplexityScorer(ComplexityOptions{})
	if err != nil {
		return fmt.Errorf("complexity scorer: %w", err)
	}
	for _, c := range cfg.Complexity {
		minLevel := slices.Index(config.ComplexityLevels, c.MinLevel)
		scope := mustScope(c.Roles, ScopeRouting)
		b.add(c.Name, "complexity", c.Roles, ScopeRouting, false, func(ev *evaluation) Result {
			r := sc.score(ev.text(ev.in.Text(scope)))
			return Result{Matched: slices.Index(config.ComplexityLevels, string(r.Level)) >= minLevel, Confidence: r.Score, Label: string(r.Level), Value: r}
		})
	}
	return nil
}

func (b *builder) language(cfg *config.Signals) error {
	if len(cfg.Language) == 0 {
		return nil
	}
	ld, err := NewLanguageDetector(LanguageOptions{})
	if err != nil {
		return fmt.Errorf("language detector: %w", err)
	}
	for _, l := range cfg.Language {
		scope := mustScope(l.Roles, ScopeRouting)
		b.add(l.Name, "language", l.Roles, ScopeRouting, false, func(ev *evaluation) Result {
			r := ld.detect(ev.text(ev.in.Text(scope)))
			return Result{Matched: slices.Contains(l.Languages, r.Code), Confidence: r.Confidence, Label: r.Code}
		})
	}
	return nil
}

// metadata adds the signals that read no message text: the token estimate of the whole
// conversation, the request's headers and its "user" field.
func (b *builder) metadata(cfg *config.Signals) {
	for _, c := range cfg.ContextLength {
		b.add(c.Name, "context_length", nil, 0, false, func(ev *evaluation) Result {
			n := ev.in.tokens()
			ok := n >= c.MinTokens && (c.MaxTokens == 0 || n <= c.MaxTokens)
			return Result{Matched: ok, Confidence: exact(ok), Value: n}
		})
	}
	for _, h := range cfg.Headers {
		b.add(h.Name, "header", nil, 0, false, func(ev *evaluation) Result {
			vals := ev.in.Header.Values(h.Header)
			ok := len(vals) > 0 && (len(h.Values) == 0 || slices.ContainsFunc(vals, func(v string) bool { return slices.Contains(h.Values, v) }))
			return Result{Matched: ok, Confidence: exact(ok)}
		})
	}
	for _, u := range cfg.Users {
		b.add(u.Name, "user", nil, 0, false, func(ev *evaluation) Result {
			ok := ev.in.User != "" && (len(u.Users) == 0 || slices.Contains(u.Users, ev.in.User))
			return Result{Matched: ok, Confidence: exact(ok)}
		})
	}
}
