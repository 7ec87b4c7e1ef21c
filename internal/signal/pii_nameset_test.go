package signal

import (
	"testing"

	"github.com/semantic-router/semantic-router/internal/wordindex"
)

func TestNameSet(t *testing.T) {
	t.Parallel()
	shipped := nameSet{shipped: wordindex.Of([]string{"maria", "chana", "josé"})}
	extra := map[string]bool{"zebulon": true, "chana": true}
	given, loose := shipped, shipped
	given.added, loose.removed = extra, extra
	tests := []struct {
		set  nameSet
		name string
		word string
		want bool
	}{
		{shipped, "shipped", "maria", true},
		{shipped, "shipped", "Maria", false}, // has reads lower-case words
		{shipped, "shipped", "zebulon", false},
		{given, "with extra names", "zebulon", true},
		{given, "with extra names", "maria", true},
		{loose, "less extra names", "chana", false},
		{loose, "less extra names", "maria", true},
		{loose, "less extra names", "zebulon", false},
	}
	for _, tt := range tests {
		if got := tt.set.has(tt.word); got != tt.want {
			t.Errorf("%s: has(%q) = %v, want %v", tt.name, tt.word, got, tt.want)
		}
		if got := tt.set.hasBytes([]byte(tt.word)); got != tt.want {
			t.Errorf("%s: hasBytes(%q) = %v, want %v", tt.name, tt.word, got, tt.want)
		}
	}
	for word, want := range map[string]bool{"MARIA": true, "Zebulon": true, "José": true, "JOSÉ": true, "Mari": false} {
		if got := given.holdsLower(word); got != want {
			t.Errorf("holdsLower(%q) = %v, want %v", word, got, want)
		}
	}
}
