package signal

import (
	"strings"
	"testing"
)

func TestEstimateTokens(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text string
		want int
	}{
		{"", 0},
		{"hi", 1},
		{"The quick brown fox jumps over the lazy dog.", 11},
		{strings.Repeat("a", 400), 100},
		{"我喜欢学习中文", 7},
		{"こんにちは", 5},
		{"Привет, как дела?", 8},
	}
	for _, tt := range tests {
		if got := EstimateTokens(tt.text); got != tt.want {
			t.Errorf("EstimateTokens(%q) = %d, want %d", tt.text, got, tt.want)
		}
	}
}

func TestContextLength(t *testing.T) {
	t.Parallel()
	c, err := NewContextLength(ContextLengthOptions{Min: 5, Max: 20})
	if err != nil {
		t.Fatal(err)
	}
	if r := c.Check("short"); r.Matched || r.Tokens != 1 {
		t.Errorf("short: %+v", r)
	}
	if r := c.Check(strings.Repeat("word ", 10)); !r.Matched || r.Tokens != 13 {
		t.Errorf("medium: %+v", r)
	}
	open, _ := NewContextLength(ContextLengthOptions{Min: 1})
	if r := open.Check(strings.Repeat("x", 10000)); !r.Matched {
		t.Errorf("unbounded max: %+v", r)
	}
	if _, err := NewContextLength(ContextLengthOptions{Min: 10, Max: 5}); err == nil || err.Error() != "context length: bounds [10, 5]: need 0 <= min <= max (max 0 means unbounded)" {
		t.Errorf("err = %v", err)
	}
}
