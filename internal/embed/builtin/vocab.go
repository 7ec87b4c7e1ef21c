package builtin

import "hash/maphash"

// vocab numbers the table's words. It is what a map[string]int32 would be, laid out so that
// nothing in it holds a pointer: the words end to end in one byte slice, where each one ends,
// and an open-addressed table of word numbers by hash. The collector therefore never scans
// it; a map of 100,000 words is 100,000 strings it would mark on every cycle, and 6 MB of
// entries it would read. It is immutable once built and safe for concurrent lookups.
type vocab struct {
	seed maphash.Seed
	text []byte
	// ends[i] is where word i ends in text; it starts where word i-1 ends.
	ends []uint32
	// slots hold, for a word, its hash's upper 32 bits and its number plus one (zero is an
	// empty slot); a word sits in the first slot not taken from its hash on.
	slots []uint64
	mask  uint64
}

// newVocab returns an empty vocabulary sized for n words of about avgLen bytes.
func newVocab(n, avgLen int) *vocab {
	size := 16
	for size < 2*n {
		size *= 2
	}
	return &vocab{
		seed:  maphash.MakeSeed(),
		text:  make([]byte, 0, n*avgLen),
		ends:  make([]uint32, 0, n),
		slots: make([]uint64, size),
		mask:  uint64(size - 1),
	}
}

// add gives word the next number and returns it. A word added twice keeps the later number,
// as a map would. The caller keeps the count under the size given to newVocab and the text
// under 4 GiB.
func (v *vocab) add(word []byte) int32 {
	h := maphash.Bytes(v.seed, word)
	i, _ := slot(v, h, word)
	v.text = append(v.text, word...)
	v.ends = append(v.ends, uint32(len(v.text)))
	v.slots[i] = h&^number | uint64(len(v.ends))
	return int32(len(v.ends) - 1)
}

// number masks a slot's word number plus one.
const number = 1<<32 - 1

// word returns the bytes of word n.
func (v *vocab) word(n int) []byte {
	start := uint32(0)
	if n > 0 {
		start = v.ends[n-1]
	}
	return v.text[start:v.ends[n]]
}

// lookup returns word's number, and false when the vocabulary does not hold it.
func (v *vocab) lookup(word []byte) (int32, bool) {
	i, ok := slot(v, maphash.Bytes(v.seed, word), word)
	return int32(v.slots[i]&number) - 1, ok
}

// lookupString is lookup for a string.
func (v *vocab) lookupString(word string) (int32, bool) {
	i, ok := slot(v, maphash.String(v.seed, word), word)
	return int32(v.slots[i]&number) - 1, ok
}

// slot returns the slot that holds word, whose hash is h, and true; or the empty slot where
// it would go, and false.
func slot[W []byte | string](v *vocab, h uint64, word W) (uint64, bool) {
	for i := h & v.mask; ; i = (i + 1) & v.mask {
		s := v.slots[i]
		if s == 0 {
			return i, false
		}
		if s&^number == h&^number && string(v.word(int(s&number)-1)) == string(word) {
			return i, true
		}
	}
}

// len returns the number of words added.
func (v *vocab) len() int { return len(v.ends) }
