package signal

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/semantic-router/semantic-router/internal/embed"
)

// SimilarityOptions configure a SimilarityMatcher: the "embedding" signal,
// true when a prompt is close to any of the example prompts.
type SimilarityOptions struct {
	Embedder embed.Embedder
	Examples []string
	// Threshold is the cosine similarity at or above which the signal
	// matches, in (0, 1]. With the builtin embedder paraphrases typically
	// score 0.75 and above.
	Threshold float64
}

// SimilarityResult is the best similarity, the example it came from, and
// whether it reached the threshold.
type SimilarityResult struct {
	Matched bool
	Score   float64
	Example string
}

// SimilarityMatcher compares prompts with example prompts embedded once at
// construction. It is safe for concurrent use.
type SimilarityMatcher struct {
	emb       embed.Embedder
	examples  []string
	vecs      [][]float32
	threshold float64
}

// NewSimilarityMatcher validates the options and embeds the examples.
func NewSimilarityMatcher(ctx context.Context, opts SimilarityOptions) (*SimilarityMatcher, error) {
	var errs []error
	if opts.Embedder == nil {
		errs = append(errs, errors.New("embedder is required"))
	}
	if len(opts.Examples) == 0 {
		errs = append(errs, errors.New("at least one example is required"))
	}
	if !(opts.Threshold > 0 && opts.Threshold <= 1) {
		errs = append(errs, fmt.Errorf("threshold %v: must be in (0, 1]", opts.Threshold))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("embedding signal: %w", err)
	}
	vecs, err := opts.Embedder.Embed(ctx, opts.Examples)
	if err != nil {
		return nil, fmt.Errorf("embedding signal: embedding examples: %w", err)
	}
	if len(vecs) != len(opts.Examples) {
		return nil, fmt.Errorf("embedding signal: embedder returned %d vectors for %d examples", len(vecs), len(opts.Examples))
	}
	return &SimilarityMatcher{emb: opts.Embedder, examples: opts.Examples, vecs: vecs, threshold: opts.Threshold}, nil
}

// Match embeds text and compares it with every example.
func (m *SimilarityMatcher) Match(ctx context.Context, text string) (SimilarityResult, error) {
	vecs, err := m.emb.Embed(ctx, []string{text})
	if err != nil {
		return SimilarityResult{}, fmt.Errorf("embedding signal: %w", err)
	}
	if len(vecs) != 1 {
		return SimilarityResult{}, fmt.Errorf("embedding signal: embedder returned %d vectors for 1 text", len(vecs))
	}
	return m.MatchVector(vecs[0]), nil
}

// MatchVector is Match for a prompt the caller has already embedded with
// the same embedder, so one embedding serves several signals.
func (m *SimilarityMatcher) MatchVector(v []float32) SimilarityResult {
	res := SimilarityResult{Score: math.Inf(-1)}
	for i, ex := range m.vecs {
		if s := float64(embed.Cosine(v, ex)); s > res.Score {
			res.Score, res.Example = s, m.examples[i]
		}
	}
	res.Matched = res.Score >= m.threshold
	return res
}
