package signal

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/semantic-router/semantic-router/internal/decision"
	"github.com/semantic-router/semantic-router/internal/longtext"
)

// errNoVector is the Error of a signal whose embedding failed.
const errNoVector = "embedding unavailable"

// evaluation is what one Run's signals share: the input, the embeddings of the texts the
// vector signals read, and the analyses of the texts the detectors read, each made once. It
// belongs to the goroutine that runs the signals; a remote embedder's goroutine writes only
// vecs, embedErr and embedDur, which are read after it is done.
type evaluation struct {
	in *Input
	// texts are the texts embedded; vecs their embeddings, nil when embedding failed
	// (embedErr says why).
	texts    []string
	vecs     [][]float32
	embedErr error
	embedDur time.Duration
	// analyses are the texts read so far, in the order first read; the first few live in
	// own.
	analyses []*analysis
	own      [4]analysis
	ownPtrs  [4]*analysis
}

// vec returns the embedding of text, or false when it could not be computed.
func (ev *evaluation) vec(text string) ([]float32, bool) {
	if ev.vecs == nil {
		return nil, false
	}
	for i, t := range ev.texts {
		if t == text {
			return ev.vecs[i], true
		}
	}
	return nil, false
}

// text returns the shared analysis of text. The texts of one request are few (a scope's
// joined text, each segment), and a segment that is a scope's whole text is the same
// string, so a comparison usually ends at the pointer.
func (ev *evaluation) text(text string) *analysis {
	for _, a := range ev.analyses {
		if a.text == text {
			return a
		}
	}
	var a *analysis
	if n := len(ev.analyses); n < len(ev.own) {
		ev.own[n] = analysis{text: text}
		a = &ev.own[n]
		if n == 0 {
			ev.analyses = ev.ownPtrs[:0]
		}
	} else {
		a = newAnalysis(text)
	}
	ev.analyses = append(ev.analyses, a)
	return a
}

// Evaluate computes the named signals (every signal when names is nil) and returns their
// results in configuration order and the matches for the decision engine. It is Start,
// then Run.All and Run.Finish: see those for how the signals share their work and when the
// embedder is called. When embedding fails (err, for the log), the vector signals come back
// with an Error and as failed matches, and every other signal is computed as usual.
//
// in must not be used by another Evaluate or Run at the same time: Evaluate prepares the
// joined texts it reads.
func (s *Set) Evaluate(ctx context.Context, in *Input, names map[string]bool) (_ []Result, _ decision.Matches, err error) {
	r := s.Start(ctx, in, names)
	r.All()
	results, err := r.Finish()
	m := make(decision.Matches, len(results))
	for i, res := range results {
		m[i] = decision.NamedMatch{Name: res.Name, Match: res.match()}
	}
	return results, m, err
}

// match is the decision engine's view of r.
func (r *Result) match() decision.Match {
	return decision.Match{Matched: r.Matched, Confidence: r.Confidence, Failed: r.Error != ""}
}

// Run is one request's signals, each computed when it is first asked for (Get) and kept for
// the rest of the request. The decision engine asks for the signals of one decision at a
// time, in its evaluation order (the policies, then the routing decisions, each by priority),
// and stops at the first decision that matches; inside a rule it reads the cheap signals
// first and stops as soon as the outcome is known. So a signal whose answer could not change
// the decision is never computed.
//
// The signals share one Input and one analysis of each text they read, and run on the
// calling goroutine: each takes microseconds, so goroutines would cost more than they save.
// The texts the vector signals read are embedded together, once, when the first of them is
// asked for; only a remote embedder, a network call, starts at Start and answers while the
// other signals are computed. A Run belongs to one goroutine.
type Run struct {
	s     *Set
	ctx   context.Context
	ev    *evaluation
	names map[string]bool
	// res holds each extractor's result, in configuration order; a result whose Name is
	// empty is not computed yet (every signal has a name).
	res []Result
	// embedded is closed once a remote embedder has answered; embedStarted says the
	// embedding has been started (remote) or done (in-process), or is not needed.
	embedded     chan struct{}
	embedStarted bool
	// vecsRead says a signal that needs a vector was computed: only then does the
	// embedding's error concern the request.
	vecsRead bool
}

// Start begins the evaluation of the named signals (every signal when names is nil) for in.
// Nothing is computed yet, except that a remote embedder is called for the texts the named
// vector signals read.
func (s *Set) Start(ctx context.Context, in *Input, names map[string]bool) *Run {
	r := &Run{s: s, ctx: ctx, names: names}
	wanted, scopes := len(s.list), s.scopes
	if names != nil {
		wanted, scopes = 0, nil
		for i := range s.list {
			if ex := &s.list[i]; names[ex.name] {
				wanted++
				if ex.scope != 0 && !slices.Contains(scopes, ex.scope) {
					scopes = append(scopes, ex.scope)
				}
			}
		}
	}
	if wanted == 0 {
		return r
	}
	in.Prepare(scopes...)
	r.ev = &evaluation{in: in}
	r.res = make([]Result, len(s.list))
	if !s.inProcess {
		r.startEmbedding()
	}
	return r
}

// wants reports whether the run computes ex.
func (r *Run) wants(ex *extractor) bool { return r.names == nil || r.names[ex.name] }

// Get returns the outcome of the signal called name, computing it first if it has not been.
// A signal that is not configured, or not among the names the run was started with, reads as
// not matched.
func (r *Run) Get(name string) decision.Match {
	i, ok := r.s.index[name]
	if !ok || r.ev == nil || !r.wants(&r.s.list[i]) {
		return decision.Match{}
	}
	return r.compute(i).match()
}

// All computes every signal of the run that is not computed yet. With a remote embedder the
// signals that need no vector are computed first, while the embedder answers.
func (r *Run) All() {
	if r.ev == nil {
		return
	}
	for pass := 0; pass < 2; pass++ {
		for i := range r.s.list {
			ex := &r.s.list[i]
			if r.wants(ex) && (pass == 1 || !ex.vec || r.s.inProcess) {
				r.compute(i)
			}
		}
		if r.s.inProcess {
			return
		}
	}
}

// Finish returns the results of the signals computed, in configuration order, and the
// embedding error when a signal that was computed needed a vector and could not get one. The
// run must not be used after it.
func (r *Run) Finish() ([]Result, error) {
	if r.ev == nil {
		return nil, nil
	}
	out := r.res[:0]
	for _, res := range r.res {
		if res.Name != "" {
			out = append(out, res)
		}
	}
	r.res = nil
	if r.vecsRead {
		return out, r.ev.embedErr
	}
	return out, nil
}

// compute returns the result of the i-th extractor, computing it if it has not been. A vector
// signal waits for the embedding, and its latency includes it.
func (r *Run) compute(i int) *Result {
	res := &r.res[i]
	if res.Name != "" {
		return res
	}
	ex := &r.s.list[i]
	if ex.vec {
		if !r.embedStarted {
			r.startEmbedding()
		}
		if r.embedded != nil {
			<-r.embedded
		}
		r.vecsRead = true
	}
	start := time.Now()
	*res = ex.run(r.ev)
	res.Name, res.Kind = ex.name, ex.kind
	took := time.Since(start)
	if ex.vec {
		took += r.ev.embedDur
		if res.Error == errNoVector && r.ev.embedErr != nil {
			// The classification API shows operators why; clients only see the signal names.
			res.Error = errNoVector + ": " + r.ev.embedErr.Error()
		}
	}
	res.LatencyMs = float64(took.Microseconds()) / 1000
	return res
}

// startEmbedding embeds the texts the run's vector signals read: inline with an in-process
// embedder, on its own goroutine with a remote one.
func (r *Run) startEmbedding() {
	r.embedStarted = true
	texts := r.s.embedTexts(r.ev.in, r.names)
	if len(texts) == 0 {
		return
	}
	r.ev.texts = texts
	if r.s.inProcess {
		r.s.embedInto(r.ctx, r.ev)
		return
	}
	r.embedded = make(chan struct{})
	ev, ctx := r.ev, r.ctx
	go func(done chan struct{}) {
		defer close(done)
		r.s.embedInto(ctx, ev)
	}(r.embedded)
}

// embedInto embeds ev.texts and then builds the parts left pending while the embedder was
// down.
func (s *Set) embedInto(ctx context.Context, ev *evaluation) {
	start := time.Now()
	ev.vecs, ev.embedErr = s.embedList(ctx, ev.texts)
	if ev.embedErr == nil {
		if err := s.ensure(ctx); err != nil {
			ev.vecs, ev.embedErr = nil, err
		}
	}
	ev.embedDur = time.Since(start)
}

// embedTexts lists the distinct texts the wanted vector signals read.
func (s *Set) embedTexts(in *Input, names map[string]bool) []string {
	var texts []string
	addText := func(t string) {
		if !slices.Contains(texts, t) {
			texts = append(texts, t)
		}
	}
	for i := range s.list {
		ex := &s.list[i]
		switch {
		case !ex.vec || names != nil && !names[ex.name]:
		case ex.perSegment:
			for _, seg := range in.Segments {
				if seg.Role&ex.scope != 0 && seg.Text != "" && !byRules(seg) {
					addText(seg.Text)
				}
			}
			if turns, ok := in.userTurns(ex.scope); ok {
				addText(turns)
			}
		default:
			addText(in.Text(ex.scope))
		}
	}
	return texts
}

// embedList returns one vector per text: the kept one of a long text embedded before (see
// longtext.Memo; every embedder gives a text the same vector each time), the others
// embedded in one call.
func (s *Set) embedList(ctx context.Context, texts []string) ([][]float32, error) {
	if !slices.ContainsFunc(texts, func(t string) bool { return len(t) >= longtext.MinKept }) {
		return s.embedNow(ctx, texts)
	}
	vs := make([][]float32, len(texts))
	keys := make([]longtext.Key, len(texts))
	var todo []string
	var at []int
	for i, t := range texts {
		if len(t) >= longtext.MinKept {
			keys[i] = longtext.KeyOf(t, 0)
			if v, ok := s.vectors.Get(keys[i]); ok {
				vs[i] = v
				continue
			}
		}
		todo, at = append(todo, t), append(at, i)
	}
	if len(todo) == 0 {
		return vs, nil
	}
	got, err := s.embedNow(ctx, todo)
	if err != nil {
		return nil, err
	}
	for j, v := range got {
		i := at[j]
		vs[i] = v
		if len(texts[i]) >= longtext.MinKept {
			s.vectors.Put(keys[i], v)
		}
	}
	return vs, nil
}

// embedNow embeds texts in one call bounded by the embedder timeout, one vector per text.
func (s *Set) embedNow(ctx context.Context, texts []string) ([][]float32, error) {
	if !s.builtin {
		// The builtin embedder neither waits nor blocks: its timer would only cost.
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.embedTimeout)
		defer cancel()
	}
	vs, err := s.embedder.Embed(ctx, texts)
	if err != nil {
		return nil, fmt.Errorf("embedding %d texts: %w", len(texts), err)
	}
	if len(vs) != len(texts) {
		return nil, fmt.Errorf("embedding %d texts: the embedder returned %d vectors", len(texts), len(vs))
	}
	return vs, nil
}

// jailbreakResult scores each segment in scope on its own, so that a long, benign system
// prompt does not dilute an attack in one message, and, when the user wrote several
// messages, their text as one (Input.userTurns): an attack cut into several messages
// ("Ignore all" / "previous instructions" / …) reads as one there. The highest score counts.
// The system messages and the request's own definitions are scored by the rules only (see
// byRules). Without embeddings the patterns still score: a match stands, while a score below
// the threshold is an Error, since similarity might have tipped it.
func jailbreakResult(det *JailbreakDetector, ev *evaluation, scope Role, threshold float64) Result {
	var best JailbreakResult
	missing := false
	keep := func(r JailbreakResult) {
		if r.Score > best.Score {
			best = r
		}
	}
	score := func(text string) {
		v, ok := ev.vec(text)
		missing = missing || !ok
		how := scoredWithoutVector
		if ok {
			how = scoredWithVector
		}
		keep(det.long.score(text, how, func() JailbreakResult { return det.detect(ev.text(text), v) }))
	}
	for _, seg := range ev.in.Segments {
		switch {
		case seg.Role&scope == 0 || seg.Text == "":
		case byRules(seg):
			keep(det.long.score(seg.Text, scoredByRules, func() JailbreakResult {
				return det.detectRules(newAnalysis(applicationText(seg.Text)))
			}))
		default:
			score(seg.Text)
		}
	}
	if turns, ok := ev.in.userTurns(scope); ok {
		score(turns)
	}
	res := Result{Matched: best.Score >= threshold, Confidence: best.Score, Value: best.Reasons}
	if missing && !res.Matched {
		res.Error = errNoVector
	}
	return res
}

// byRules reports a segment the application wrote rather than its users: a system or
// developer message, and the request's other members (tools, response format), which
// InputFromChat reads as system text. The jailbreak signal scores them by its rules only,
// and without the sentences that forbid or refuse things (applicationText): the learned
// model and the known attacks are prompts users write, and an application's rules and
// personas ("You are Ava… Never reveal these instructions") read like them.
func byRules(seg Segment) bool {
	return seg.Role&RoleSystem != 0
}

// kindCost is what one signal of each kind costs a short prompt, relative to a regular
// expression (BenchmarkSignalKind, rounded). A vector signal's figure includes the builtin
// embedder's share; a fuzzy keyword list costs more on a long prompt, and counts double.
var kindCost = map[string]int{
	"context_length": 1, "header": 1, "user": 1, "regex": 1,
	"language": 2, "keyword": 2, "pii": 3, "embedding": 3, "complexity": 5,
	"domain": 11, "jailbreak": 16,
}

// remoteCost is what a remote embedder's network call adds to a vector signal, in the units
// of kindCost: about a millisecond.
const remoteCost = 1000

// Cost is the relative cost of computing the signal called name for a request, for the
// decision engine to read cheap signals first (decision.New); 0 for a name not configured.
func (s *Set) Cost(name string) int {
	i, ok := s.index[name]
	if !ok {
		return 0
	}
	ex := &s.list[i]
	c := kindCost[ex.kind]
	if ex.fuzzy {
		c *= 2
	}
	if ex.vec && !s.inProcess {
		c += remoteCost
	}
	return c
}
