package signal

import (
	"context"
	"testing"

	"github.com/semantic-router/semantic-router/internal/embed/builtin"
)

func TestSimilarityMatcher(t *testing.T) {
	t.Parallel()
	m, err := NewSimilarityMatcher(context.Background(), SimilarityOptions{
		Embedder:  builtin.New(),
		Examples:  []string{"book a flight to Paris", "reserve a hotel room"},
		Threshold: 0.75,
	})
	if err != nil {
		t.Fatal(err)
	}
	res, err := m.Match(context.Background(), "I need to book flights to Rome")
	if err != nil {
		t.Fatal(err)
	}
	if !res.Matched || res.Example != "book a flight to Paris" {
		t.Errorf("paraphrase: %+v", res)
	}
	res, _ = m.Match(context.Background(), "Prove that the square root of two is irrational")
	if res.Matched {
		t.Errorf("unrelated prompt matched: %+v", res)
	}
}

func TestSimilarityErrors(t *testing.T) {
	t.Parallel()
	_, err := NewSimilarityMatcher(context.Background(), SimilarityOptions{Threshold: 1.5})
	want := "embedding signal: embedder is required\nat least one example is required\nthreshold 1.5: must be in (0, 1]"
	if err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant  %s", err, want)
	}
	_, err = NewSimilarityMatcher(context.Background(), SimilarityOptions{Embedder: failingEmbedder{}, Examples: []string{"x"}, Threshold: 0.5})
	if err == nil || err.Error() != "embedding signal: embedding examples: connection refused" {
		t.Errorf("err = %v", err)
	}
}
