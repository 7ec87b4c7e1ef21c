package signal

import "testing"

func TestComplexity(t *testing.T) {
	t.Parallel()
	c, err := NewComplexityScorer(ComplexityOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		text string
		want ComplexityLevel
	}{
		{"Hi!", ComplexityLow},
		{"What is the capital of France?", ComplexityLow},
		{"Compare the trade-offs of B-trees and LSM trees for a write-heavy workload, then design a storage layout and explain why it holds up under compaction.", ComplexityHigh},
		{"Prove that for all n >= 1, sum_{k=1}^{n} k^2 = n(n+1)(2n+1)/6, step by step.", ComplexityHigh},
		{"Fix this: ```func f() { return x; }``` it does not compile", ComplexityMedium},
		{"Explain why the sky is blue in a couple of sentences for a curious kid.", ComplexityMedium},
		// Short prompts that name a hard task.
		{"Prove the Riemann hypothesis.", ComplexityHigh},
		{"Derive the Euler-Lagrange equations formally.", ComplexityHigh},
		{"Demuestra el teorema de Pitágoras.", ComplexityHigh},
		{"Démontrez le théorème de Fermat.", ComplexityHigh},
		{"Beweise den Satz von Pythagoras streng.", ComplexityHigh},
		{"Докажите теорему Ферма.", ComplexityHigh},
		{"证明费马大定理。", ComplexityHigh},
		// Everyday words that sound hard stay below high.
		{"What is the optimal temperature for green tea?", ComplexityLow},
		{"Thanks, that proves useful!", ComplexityLow},
	}
	for _, tt := range tests {
		res := c.Score(tt.text)
		if res.Level != tt.want {
			t.Errorf("Score(%q) = %s (%.2f: len %.2f steps %.2f math %.2f code %.2f), want %s",
				tt.text, res.Level, res.Score, res.Length, res.Steps, res.Math, res.Code, tt.want)
		}
		if res.Score < 0 || res.Score > 1 {
			t.Errorf("score %v out of range", res.Score)
		}
	}
}

func TestComplexityOptions(t *testing.T) {
	t.Parallel()
	_, err := NewComplexityScorer(ComplexityOptions{Medium: 0.7, High: 0.5})
	if err == nil || err.Error() != "complexity: thresholds medium 0.7, high 0.5: need 0 < medium < high <= 1" {
		t.Errorf("err = %v", err)
	}
}

func BenchmarkComplexity(b *testing.B) {
	c, _ := NewComplexityScorer(ComplexityOptions{})
	text := "Compare the trade-offs of B-trees and LSM trees for a write-heavy workload, then design a storage layout and explain why."
	b.ReportAllocs()
	for b.Loop() {
		c.Score(text)
	}
}
