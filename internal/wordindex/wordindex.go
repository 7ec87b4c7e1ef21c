// Package wordindex numbers a fixed list of words in memory the garbage collector never
// scans.
//
// An Index is what a map[string]int32 would be, laid out with no pointer in it: the words end
// to end in one byte slice, where each one ends, and an open-addressed table of word numbers
// by hash. A map of the builtin embedder's 100,000 words is 100,000 strings the collector
// marks, and 3.5 MB of entries it reads, on every cycle of a process that holds it; an Index
// of them is nothing to scan, half the size, and as fast to look up.
package wordindex

import (
	"hash/maphash"
	"math"
)

// Index numbers words in the order they were added. Build it with New and Add; once built,
// lookups are safe for concurrent use.
type Index struct {
	seed maphash.Seed
	text []byte
	// ends[i] is where word i ends in text; it starts where word i-1 ends.
	ends []uint32
	// slots hold, for a word, its hash's upper 32 bits and its number plus one (zero is an
	// empty slot); a word sits in the first slot not taken from its hash on.
	slots []uint64
	mask  uint64
}

// New returns an empty index with room for n words of about avgLen bytes each; it grows past
// them when more are added.
func New(n, avgLen int) *Index {
	x := &Index{seed: maphash.MakeSeed(), text: make([]byte, 0, n*avgLen), ends: make([]uint32, 0, n)}
	x.resize(n)
	return x
}

// resize makes the table of slots twice the power of two at or above n, at least 16, and
// puts the words added so far back in it.
func (x *Index) resize(n int) {
	size := 16
	for size < 2*n {
		size *= 2
	}
	x.slots, x.mask = make([]uint64, size), uint64(size-1) //nolint:gosec // a positive power of two
	for w := range x.ends {
		word := x.Word(w)
		h := maphash.Bytes(x.seed, word)
		i, _ := slot(x, h, word)
		x.slots[i] = h&^number | uint64(w+1)
	}
}

// Of returns an index of words, numbered in order.
func Of(words []string) *Index {
	x := New(len(words), 8)
	for _, w := range words {
		x.AddString(w)
	}
	return x
}

// Add gives word the next number and returns it. A word added twice keeps the later number,
// as a map would. An index holds fewer than 2^31 words and 4 GiB of text; Add panics past
// that.
func (x *Index) Add(word []byte) int32 {
	return add(x, maphash.Bytes(x.seed, word), word)
}

// AddString is Add for a string.
func (x *Index) AddString(word string) int32 {
	return add(x, maphash.String(x.seed, word), word)
}

func add[W []byte | string](x *Index, h uint64, word W) int32 {
	if len(x.ends) == math.MaxInt32 || uint64(len(x.text))+uint64(len(word)) > math.MaxUint32 {
		panic("wordindex: an index holds fewer than 2^31 words and 4 GiB of text")
	}
	if 2*(len(x.ends)+1) > len(x.slots) {
		x.resize(2 * (len(x.ends) + 1))
	}
	i, _ := slot(x, h, word)
	x.text = append(x.text, word...)
	x.ends = append(x.ends, uint32(len(x.text))) //nolint:gosec // bounded above
	x.slots[i] = h&^number | uint64(len(x.ends))
	return int32(len(x.ends) - 1) //nolint:gosec // bounded above
}

// number masks a slot's word number plus one.
const number = 1<<32 - 1

// Word returns word n. The bytes are the index's own: the caller must not change them.
func (x *Index) Word(n int) []byte {
	start := uint32(0)
	if n > 0 {
		start = x.ends[n-1]
	}
	return x.text[start:x.ends[n]]
}

// Lookup returns word's number and true, or -1 and false when the index does not hold it.
func (x *Index) Lookup(word []byte) (int32, bool) {
	i, ok := slot(x, maphash.Bytes(x.seed, word), word)
	return int32(x.slots[i]&number) - 1, ok //nolint:gosec // a word number, below 2^31
}

// LookupString is Lookup for a string.
func (x *Index) LookupString(word string) (int32, bool) {
	i, ok := slot(x, maphash.String(x.seed, word), word)
	return int32(x.slots[i]&number) - 1, ok //nolint:gosec // a word number, below 2^31
}

// Has reports whether the index holds word.
func (x *Index) Has(word string) bool {
	_, ok := slot(x, maphash.String(x.seed, word), word)
	return ok
}

// Len returns the number of words added.
func (x *Index) Len() int { return len(x.ends) }

// slot returns the slot that holds word, whose hash is h, and true; or the empty slot where
// it would go, and false.
func slot[W []byte | string](x *Index, h uint64, word W) (uint64, bool) {
	for i := h & x.mask; ; i = (i + 1) & x.mask {
		s := x.slots[i]
		if s == 0 {
			return i, false
		}
		if s&^number == h&^number && string(x.Word(int(s&number)-1)) == string(word) {
			return i, true
		}
	}
}
