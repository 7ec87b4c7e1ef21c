package signal

import "testing"

func TestTailWindow(t *testing.T) {
	t.Parallel()
	tests := []struct {
		s    string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"'s law of motion", 6, "'s law"},
		{"'s lawyer said", 6, "'s lawyer"}, // not cut inside a word: \b must not match after "law"
		{" said hello", 2, " said"},
		{" Zoë and", 3, " Zoë"}, // a letter outside ASCII is part of the word
		{"ab, cd", 2, "ab"},
	}
	for _, tt := range tests {
		if got := tailWindow(tt.s, tt.n); got != tt.want {
			t.Errorf("tailWindow(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
		}
	}
}
