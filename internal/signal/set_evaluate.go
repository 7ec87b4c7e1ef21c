package signal

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/semantic-router/semantic-router/internal/decision"
)

// errNoVector is the Error of a signal whose embedding failed.
const errNoVector = "embedding unavailable"

// evaluation is one Evaluate call: the input and the embeddings of the texts the vector
// signals read. vecs and embedErr are written before the vector signals run (they wait for
// the embedding) and only read afterwards.
type evaluation struct {
	in *Input
	// vecs are the embeddings of the texts the vector signals read; nil when embedding
	// failed (embedErr says why).
	vecs     map[string][]float32
	embedErr error
}

// vec returns the embedding of text, or false when it could not be computed.
func (ev *evaluation) vec(text string) ([]float32, bool) {
	v, ok := ev.vecs[text]
	return v, ok
}

// Evaluate computes the named signals (every signal when names is nil) concurrently and
// returns their results in configuration order and the matches for the decision engine.
// The texts the vector signals read are embedded together, once, only if one of them is
// wanted. When that fails (err, for the log), the vector signals come back with an Error and
// as failed matches, and every other signal is computed as usual.
//
// in must not be used by another Evaluate at the same time: Evaluate prepares the joined
// texts it reads.
func (s *Set) Evaluate(ctx context.Context, in *Input, names map[string]bool) (_ []Result, _ decision.Matches, err error) {
	var want []string
	var scopes []Role
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
	in.Prepare(scopes...)
	ev := &evaluation{in: in}
	texts := s.embedTexts(in, want)
	var embedDone sync.WaitGroup
	if len(texts) > 0 {
		embedDone.Add(1)
		go func() {
			defer embedDone.Done()
			ev.vecs, ev.embedErr = s.embed(ctx, texts)
			if ev.embedErr == nil {
				// The parts left pending while the embedder was down.
				if err := s.ensure(ctx); err != nil {
					ev.vecs, ev.embedErr = nil, err
				}
			}
		}()
	}
	results := make([]Result, len(want))
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
			res := ex.run(ev)
			res.Name, res.Kind = n, ex.kind
			res.LatencyMs = float64(time.Since(start).Microseconds()) / 1000
			results[i] = res
		}()
	}
	// Every text to embed is read by a wanted vector signal, which waited for the embedding:
	// ev is settled once they are all done.
	wg.Wait()
	if ev.embedErr != nil {
		// The classification API shows operators why; clients only see the signal names.
		for i := range results {
			if results[i].Error == errNoVector {
				results[i].Error = errNoVector + ": " + ev.embedErr.Error()
			}
		}
	}
	m := make(decision.Matches, len(results))
	for _, r := range results {
		m[r.Name] = decision.Match{Matched: r.Matched, Confidence: r.Confidence, Failed: r.Error != ""}
	}
	return results, m, ev.embedErr
}

// embedTexts lists the distinct texts the wanted vector signals read.
func (s *Set) embedTexts(in *Input, want []string) []string {
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

// embed embeds texts in one call bounded by the embedder timeout.
func (s *Set) embed(ctx context.Context, texts []string) (map[string][]float32, error) {
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
		if r := det.DetectVector(seg.Text, v); r.Score > best.Score {
			best = r
		}
	}
	res := Result{Matched: best.Score >= threshold, Confidence: best.Score, Value: best.Reasons}
	if missing && !res.Matched {
		res.Error = errNoVector
	}
	return res
}
