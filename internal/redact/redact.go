// Package redact removes credential values from text before it leaves the process: log
// lines, errors relayed to clients, stream error events. The router registers every value it
// holds (backend keys, client keys, management tokens, cloud credentials) and replaces them
// when they rotate; anything that goes out passes through a Redactor.
package redact

import (
	"bytes"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// Mask replaces each credential value.
const Mask = "[redacted]"

// MinLength is the shortest value that is redacted. Shorter values would match ordinary words
// everywhere, and a credential that short protects nothing anyway.
const MinLength = 6

// Redactor replaces registered values with Mask. The zero value and nil redact nothing. It is
// safe for concurrent use: String costs a substring search per value and allocates only when
// a value is found.
type Redactor struct {
	mu   sync.Mutex
	sets map[*Set][]string

	cur atomic.Pointer[table]
}

// table is an immutable snapshot of every registered value, longest first so that a value
// that contains another is replaced whole.
type table struct {
	values []string
	bvals  [][]byte // values, for Bytes without a conversion per call
	rep    *strings.Replacer
	// alphabet holds every byte that occurs in a value: Split holds back the run of them
	// that ends a piece, whatever it spells.
	alphabet [256]bool
}

// New returns an empty Redactor.
func New() *Redactor { return &Redactor{} }

// Set is one owner's values (one configuration generation, one secret store): replacing them
// on rotation leaves the other owners' values in place.
type Set struct {
	r *Redactor
}

// NewSet returns an empty set of values registered with r. On a nil Redactor it returns a set
// whose methods do nothing.
func (r *Redactor) NewSet() *Set {
	return &Set{r: r}
}

// Replace makes values the set's values. Empty and too short values are ignored.
func (s *Set) Replace(values []string) {
	if s == nil || s.r == nil {
		return
	}
	var keep []string
	for _, v := range values {
		if len(v) >= MinLength {
			keep = append(keep, v)
		}
	}
	r := s.r
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.sets == nil {
		r.sets = map[*Set][]string{}
	}
	r.sets[s] = keep
	r.rebuild()
}

// Close removes the set's values.
func (s *Set) Close() {
	if s == nil || s.r == nil {
		return
	}
	r := s.r
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.sets, s)
	r.rebuild()
}

// rebuild publishes a new table; r.mu is held.
func (r *Redactor) rebuild() {
	seen := map[string]bool{}
	var all []string
	for _, vs := range r.sets {
		for _, v := range vs {
			if !seen[v] {
				seen[v] = true
				all = append(all, v)
			}
		}
	}
	if len(all) == 0 {
		r.cur.Store(nil)
		return
	}
	slices.SortFunc(all, func(a, b string) int { return len(b) - len(a) })
	pairs := make([]string, 0, 2*len(all))
	bvals := make([][]byte, len(all))
	for i, v := range all {
		pairs = append(pairs, v, Mask)
		bvals[i] = []byte(v)
	}
	t := &table{values: all, bvals: bvals, rep: strings.NewReplacer(pairs...)}
	for _, v := range all {
		for i := range len(v) {
			t.alphabet[v[i]] = true
		}
	}
	r.cur.Store(t)
}

// String returns s with every registered value replaced by Mask.
func (r *Redactor) String(s string) string {
	if r == nil {
		return s
	}
	t := r.cur.Load()
	if t == nil || !t.containsIn(s) {
		return s
	}
	return t.rep.Replace(s)
}

// Bytes returns b with every registered value replaced by Mask: b itself when it holds none,
// else a new slice.
func (r *Redactor) Bytes(b []byte) []byte {
	if r == nil {
		return b
	}
	t := r.cur.Load()
	if t == nil {
		return b
	}
	found := false
	for _, v := range t.bvals {
		if bytes.Contains(b, v) {
			found = true
			break
		}
	}
	if !found {
		return b
	}
	return []byte(t.rep.Replace(string(b)))
}

// Split is String for text that is sent in pieces and joined by its reader, as the content of
// a streamed answer is: a value cut across two pieces is in neither. text is the next piece,
// preceded by what the previous call held back. Split returns the part to send now, with
// every value in it replaced by Mask, and the end of text that is held back because the next
// piece may complete a value there: the run of bytes that occur in values that ends text, up
// to one byte shorter than the longest value. Sent joined to held is text, every value
// replaced.
//
// What is held depends on which bytes occur in the values, never on whether text begins
// one: a reader who has the model repeat guesses learns nothing from when each part of
// them arrives (holding only a value's actual beginning would confirm each right character
// of a guess by holding it one piece longer).
func (r *Redactor) Split(text string) (send, held string) {
	if r == nil {
		return text, ""
	}
	t := r.cur.Load()
	if t == nil {
		return text, ""
	}
	i := t.heldFrom(text)
	if t.containsIn(text) {
		i = t.uncut(text, i)
		return t.rep.Replace(text[:i]), text[i:]
	}
	return text[:i], text[i:]
}

// heldFrom returns where the end of text that Split holds back starts: the run of alphabet
// bytes that ends text, at most one byte shorter than the longest value (a whole value is
// replaced, not held), from the start of a character.
func (t *table) heldFrom(text string) int {
	limit := max(0, len(text)-len(t.values[0])+1)
	i := len(text)
	for i > limit && t.alphabet[text[i-1]] {
		i--
	}
	for i < len(text) && !utf8.RuneStart(text[i]) {
		i++
	}
	return i
}

// uncut moves i back to the start of any value in text that i would cut, so that the value
// is held whole and replaced with what follows.
func (t *table) uncut(text string, i int) int {
	for moved := true; moved; {
		moved = false
		for _, v := range t.values {
			for off := 0; off < i; {
				j := strings.Index(text[off:], v)
				if j < 0 {
					break
				}
				if start := off + j; start < i && start+len(v) > i {
					i, moved = start, true
				}
				off += j + 1
			}
		}
	}
	return i
}

// Unfinished returns held text (from Split) fit to send when no piece will follow: every
// value in it replaced by Mask, and so is the beginning of a value that ends it when it is
// enough of the value to tell (see Telling).
func (r *Redactor) Unfinished(held string) string {
	held = r.String(held)
	if i := r.tellingFrom(held); i >= 0 {
		return held[:i] + Mask
	}
	return held
}

// Telling reports whether held tells of a value: it holds one whole (Split holds a value
// that a longer one may continue), or ends with enough of a value's beginning to tell it:
// half of it or more, and at least MinLength. A key's first characters are most often the
// format's public prefix ("sk-proj-"), which ordinary text may end with too.
func (r *Redactor) Telling(held string) bool {
	if r == nil {
		return false
	}
	if t := r.cur.Load(); t != nil && t.containsIn(held) {
		return true
	}
	return r.tellingFrom(held) >= 0
}

// tellingFrom returns where the longest telling beginning of a value that ends held starts,
// or -1.
func (r *Redactor) tellingFrom(held string) int {
	if r == nil || len(held) < MinLength {
		return -1
	}
	t := r.cur.Load()
	if t == nil {
		return -1
	}
	for i := 0; i+MinLength <= len(held); i++ {
		end := held[i:]
		for _, v := range t.values {
			if len(v) > len(end) && strings.HasPrefix(v, end) && 2*len(end) >= len(v) {
				return i
			}
		}
	}
	return -1
}

// Active reports whether any value is registered.
func (r *Redactor) Active() bool { return r != nil && r.cur.Load() != nil }

func (t *table) containsIn(s string) bool {
	for _, v := range t.values {
		if strings.Contains(s, v) {
			return true
		}
	}
	return false
}

// JSON is Bytes for a JSON text: it also replaces a registered value written with escapes
// inside a JSON string (as in "sk-abc\u0064ef"), which a client's JSON decoder would turn
// back into the value. Such a string is written again, unescaped where it can be, with the
// value replaced. Text that is not valid JSON is left after the raw replacement.
func (r *Redactor) JSON(b []byte) []byte {
	b = r.Bytes(b)
	if r == nil || bytes.IndexByte(b, '\\') < 0 {
		return b
	}
	t := r.cur.Load()
	if t == nil {
		return b
	}
	dec := jsontext.NewDecoder(bytes.NewReader(b), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	var out []byte
	last := 0
	for {
		kind := dec.PeekKind()
		if kind == 0 {
			break
		}
		if kind != '"' {
			if _, err := dec.ReadToken(); err != nil {
				break
			}
			continue
		}
		raw, err := dec.ReadValue()
		if err != nil {
			break
		}
		if bytes.IndexByte(raw, '\\') < 0 {
			continue
		}
		s, err := jsontext.AppendUnquote(nil, raw)
		if err != nil || !t.containsIn(string(s)) {
			continue
		}
		end := int(dec.InputOffset())
		start := end - len(raw)
		out = append(out, b[last:start]...)
		out, _ = jsontext.AppendQuote(out, t.rep.Replace(string(s)))
		last = end
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}
