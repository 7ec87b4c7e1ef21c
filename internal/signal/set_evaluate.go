package signal

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/semantic-router/semantic-router/internal/decision"
)

// errNoVector is the Error of a signal whose embedding failed.
const errNoVector = "embedding unavailable"

// evaluation is one Evaluate call: the input, the embeddings of the texts the vector
// signals read, and the analyses of the texts the detectors read, each made once and
// shared by every signal. It belongs to the goroutine that runs the signals; a remote
// embedder's goroutine writes only vecs and embedErr, which are read after it is done.
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
// results in configuration order and the matches for the decision engine. The texts the
// vector signals read are embedded together, once, only if one of them is wanted. When that
// fails (err, for the log), the vector signals come back with an Error and as failed
// matches, and every other signal is computed as usual.
//
// The signals run one after the other on the calling goroutine: each takes microseconds
// and reads the analyses of the same few texts, so goroutines would cost more than they
// save. Only a remote embedder, a network call, runs concurrently with the signals that
// need no vector; an in-process one (builtin, onnx) is called inline.
//
// in must not be used by another Evaluate at the same time: Evaluate prepares the joined
// texts it reads.
func (s *Set) Evaluate(ctx context.Context, in *Input, names map[string]bool) (_ []Result, _ decision.Matches, err error) {
	n := len(s.list)
	scopes := s.scopes
	if names != nil {
		n, scopes = 0, nil
		for i := range s.list {
			if ex := &s.list[i]; names[ex.name] {
				n++
				if ex.scope != 0 && !slices.Contains(scopes, ex.scope) {
					scopes = append(scopes, ex.scope)
				}
			}
		}
	}
	if n == 0 {
		return nil, decision.Matches{}, nil
	}
	in.Prepare(scopes...)
	ev := &evaluation{in: in}
	var embedded chan struct{} // closed once a remote embedder has answered
	if texts := s.embedTexts(in, names); len(texts) > 0 {
		ev.texts = texts
		if s.inProcess {
			s.embedInto(ctx, ev)
		} else {
			embedded = make(chan struct{})
			go func() {
				defer close(embedded)
				s.embedInto(ctx, ev)
			}()
		}
	}
	results := make([]Result, 0, n)
	// The vector signals wait for a remote embedder: their places in results, and their
	// extractors.
	var waiting []int
	for i := range s.list {
		ex := &s.list[i]
		if names != nil && !names[ex.name] {
			continue
		}
		if ex.vec && embedded != nil {
			waiting = append(waiting, len(results), i)
			results = append(results, Result{})
			continue
		}
		results = append(results, s.run(ex, ev))
	}
	if embedded != nil {
		<-embedded
		for k := 0; k < len(waiting); k += 2 {
			results[waiting[k]] = s.run(&s.list[waiting[k+1]], ev)
		}
	}
	if ev.embedErr != nil {
		// The classification API shows operators why; clients only see the signal names.
		for i := range results {
			if results[i].Error == errNoVector {
				results[i].Error = errNoVector + ": " + ev.embedErr.Error()
			}
		}
	}
	m := make(decision.Matches, len(results))
	for i, r := range results {
		m[i] = decision.NamedMatch{Name: r.Name, Match: decision.Match{Matched: r.Matched, Confidence: r.Confidence, Failed: r.Error != ""}}
	}
	return results, m, ev.embedErr
}

// run computes one signal. A vector signal's latency includes the embedding it read.
func (s *Set) run(ex *extractor, ev *evaluation) Result {
	start := time.Now()
	res := ex.run(ev)
	res.Name, res.Kind = ex.name, ex.kind
	took := time.Since(start)
	if ex.vec {
		took += ev.embedDur
	}
	res.LatencyMs = float64(took.Microseconds()) / 1000
	return res
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
				if seg.Role&ex.scope != 0 && seg.Text != "" {
					addText(seg.Text)
				}
			}
		default:
			addText(in.Text(ex.scope))
		}
	}
	return texts
}

// embedList embeds texts in one call bounded by the embedder timeout, one vector per text.
func (s *Set) embedList(ctx context.Context, texts []string) ([][]float32, error) {
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

// jailbreakResult scores each segment in scope on its own and keeps the highest score, so
// that a long, benign system prompt does not dilute an attack in one message. Without
// embeddings the patterns still score: a match stands, while a score below the threshold is
// an Error, since similarity might have tipped it.
func jailbreakResult(det *JailbreakDetector, ev *evaluation, scope Role, threshold float64) Result {
	var best JailbreakResult
	missing := false
	for _, seg := range ev.in.Segments {
		if seg.Role&scope == 0 || seg.Text == "" {
			continue
		}
		v, ok := ev.vec(seg.Text)
		missing = missing || !ok
		if r := det.detect(ev.text(seg.Text), v); r.Score > best.Score {
			best = r
		}
	}
	res := Result{Matched: best.Score >= threshold, Confidence: best.Score, Value: best.Reasons}
	if missing && !res.Matched {
		res.Error = errNoVector
	}
	return res
}
