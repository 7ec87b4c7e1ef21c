package builtin

import (
	"hash/maphash"
	"sync"
)

// A text longer than wholeBytes (an agent's conversation, a pasted document) is summed in
// chunks: each chunk's word vectors are added up on their own, and the chunks' sums then
// in order. A chunk ends at a cut, the first byte after a space or a line break at or past
// a multiple of chunkBytes, found from the text around it alone: a word never spans a cut,
// so the words are the text's, and text appended at the end leaves the earlier chunks as
// they were. Their sums are kept (chunkSums), and the next text that holds them, the
// conversation's next turn, adds only its new words. Floating-point sums depend on their
// order, so a long text's vector is that of its chunks, whether kept or not; a text up to
// wholeBytes, or without a place to cut, is summed in one pass.
const (
	wholeBytes = 2 * chunkBytes
	chunkBytes = 4096
	// cutReach is how far past a multiple of chunkBytes a cut is looked for.
	cutReach = chunkBytes / 4
	// keptMin is the shortest chunk kept: the last chunk of a text may be short, and new
	// each turn.
	keptMin = 1024
	// chunksKept is how many chunks' sums an Embedder keeps (400 bytes each).
	chunksKept = 4096
)

// chunkCuts are the places where s's chunks end; none for a text summed in one pass.
func chunkCuts(s string) []int {
	if len(s) <= wholeBytes {
		return nil
	}
	var cuts []int
	for p := chunkBytes; p < len(s); p += chunkBytes {
		for q := p; q < len(s) && q < p+cutReach; q++ {
			if c := s[q-1]; c == ' ' || c == '\n' {
				if len(cuts) == 0 || q > cuts[len(cuts)-1] {
					cuts = append(cuts, q)
				}
				break
			}
		}
	}
	return cuts
}

// chunkSums keeps the word-vector sums of up to chunksKept chunks, by a 128-bit hash of the
// chunk and its length; past that, any one is dropped for the new one. The zero value is
// ready to use, and safe for concurrent use.
type chunkSums struct {
	mu   sync.Mutex
	kept map[chunkKey][]float32
}

type chunkKey struct {
	h1, h2 uint64
	n      int
}

// chunkSeeds are the process's own: nobody who does not know them can choose two chunks
// that share a key.
var chunkSeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// sum returns the sum of chunk's word vectors, kept or computed (and kept when the chunk is
// long). The slice is shared: callers read it only.
func (c *chunkSums) sum(t *table, chunk string) []float32 {
	if len(chunk) < keptMin {
		v := make([]float32, t.dims)
		t.addText(v, chunk)
		return v
	}
	k := chunkKey{maphash.String(chunkSeeds[0], chunk), maphash.String(chunkSeeds[1], chunk), len(chunk)}
	c.mu.Lock()
	v, ok := c.kept[k]
	c.mu.Unlock()
	if ok {
		return v
	}
	v = make([]float32, t.dims)
	t.addText(v, chunk)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.kept == nil {
		c.kept = make(map[chunkKey][]float32)
	}
	if _, ok := c.kept[k]; !ok && len(c.kept) >= chunksKept {
		for old := range c.kept {
			delete(c.kept, old)
			break
		}
	}
	c.kept[k] = v
	return v
}
