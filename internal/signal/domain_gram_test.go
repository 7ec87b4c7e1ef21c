package signal

import (
	"slices"
	"strings"
	"testing"
)

func TestAppendGrams(t *testing.T) {
	t.Parallel()
	tests := []struct {
		word string
		want int
	}{
		{"a", 1},           // "<a>"
		{"ion", 3 + 2 + 1}, // "<io" "ion" "on>", "<ion" "ion>", "<ion>"
		{"neurotransmitters", 17 + 16 + 15},
		{strings.Repeat("x", 40), 3*gramMaxWord - 3},
	}
	for _, tt := range tests {
		if got := len(appendGrams(nil, tt.word)); got != tt.want {
			t.Errorf("%q: %d n-grams, want %d", tt.word, got, tt.want)
		}
	}
	// Word boundaries count: the "on>" that ends "ion" is not in "ions".
	ion := appendGrams(nil, "ion")
	if end := ion[len(ion)-1]; slices.Contains(appendGrams(nil, "ions"), end) {
		t.Errorf("the n-grams of %q hold the end of %q", "ions", "ion")
	}
}

func TestGramBayesUnseenLongWord(t *testing.T) {
	t.Parallel()
	docs := [][]string{
		{"How do neurons fire and how does neurotransmission work in the synapse?", "What does the neurologist examine?"},
		{"What is jurisprudence and how did jurisprudential thinking shape courts?", "Explain the constitutionality of the statute."},
	}
	b := fitGramBayes(docs, len(docs))
	tests := []struct {
		words []string
		want  int
	}{
		{[]string{"what", "are", "neurotransmitters"}, 0},
		{[]string{"is", "it", "unconstitutional"}, 1},
	}
	for _, tt := range tests {
		s := make([]float64, len(docs))
		b.logScores(tt.words, s)
		if s[tt.want] != 0 || s[1-tt.want] > -1 {
			t.Errorf("%v: scores %v, want class %d best by more than 1", tt.words, s, tt.want)
		}
	}
	// A word of the examples scores from its precomputed sum as it would n-gram by n-gram.
	for _, w := range []string{"neurotransmission", "jurisprudential"} {
		if _, ok := b.words[w]; !ok {
			t.Fatalf("%q: no precomputed sum", w)
		}
		got, want := make([]float64, len(docs)), make([]float64, len(docs))
		b.logScores([]string{w}, got)
		b.addGrams(want, w, nil)
		m := max(want[0], want[1])
		want[0], want[1] = want[0]-m, want[1]-m
		if !slices.Equal(got, want) {
			t.Errorf("%q: scores %v, want %v", w, got, want)
		}
	}
	// Short words carry no n-gram evidence.
	s := []float64{1, 2}
	b.logScores([]string{"neuron", "court"}, s)
	if !slices.Equal(s, []float64{0, 0}) {
		t.Errorf("short words: scores %v, want [0 0]", s)
	}
}
