package signal

import (
	"strings"
	"unicode/utf8"

	"github.com/semantic-router/semantic-router/internal/wordindex"
)

// nameSet is a shipped list of lower-case names, shared read-only by every detector, with
// one detector's own changes (PIIOptions.ExtraGivenNames) on top. The shipped list is a
// wordindex.Index, not a map: some 60,000 names across the three lists, which the collector
// would otherwise read on every cycle of a router that detects names.
type nameSet struct {
	shipped *wordindex.Index
	// added and removed are nil but for a detector with extra given names: they are added to
	// its first names and removed from its loose ones.
	added, removed map[string]bool
}

// has reports whether the set holds w, which is lower-case.
func (s nameSet) has(w string) bool {
	return s.added[w] || s.shipped.Has(w) && !s.removed[w]
}

// hasBytes is has for bytes.
func (s nameSet) hasBytes(w []byte) bool {
	if s.added[string(w)] {
		return true
	}
	_, ok := s.shipped.Lookup(w)
	return ok && !s.removed[string(w)]
}

// holdsLower reports whether the set holds strings.ToLower(w), without building the
// lower-case string for a short ASCII word.
func (s nameSet) holdsLower(w string) bool {
	var buf [32]byte
	if b, ok := lowerShortASCII(&buf, w); ok {
		return s.hasBytes(b)
	}
	return s.has(strings.ToLower(w))
}

// lowerShortASCII writes w lower-cased into buf and returns it, or false when w is longer
// than buf or not ASCII.
func lowerShortASCII(buf *[32]byte, w string) ([]byte, bool) {
	if len(w) > len(buf) {
		return nil, false
	}
	b := buf[:len(w)]
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case c >= utf8.RuneSelf:
			return nil, false
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		}
		b[i] = c
	}
	return b, true
}
