package builtin

import "github.com/semantic-router/semantic-router/internal/longtext"

// A text longer than twice chunkBytes (an agent's conversation, a pasted document) is
// summed in chunks: each chunk's word vectors are added up on their own, and the chunks'
// sums then in order. A chunk ends at a cut (longtext.Cuts), after a space or a line break
// at or past a multiple of chunkBytes: a word never spans a cut, so the words are the
// text's, and text appended at the end leaves the earlier chunks as they were. Their sums
// are kept (chunkSums), and the next text that holds them, the conversation's next turn,
// adds only its new words. Floating-point sums depend on their order, so a long text's
// vector is that of its chunks, whether kept or not; a shorter text, or one without a place
// to cut, is summed in one pass.
const (
	chunkBytes = 4096
	// cutReach is how far past a multiple of chunkBytes a cut is looked for.
	cutReach = chunkBytes / 4
	// chunksKept is how many chunks' sums an Embedder keeps (400 bytes each).
	chunksKept = 4096
)

// chunkCuts are the places where s's chunks end; none for a text summed in one pass.
func chunkCuts(s string) []int { return longtext.Cuts(s, chunkBytes, cutReach) }

// chunkSums keeps the word-vector sums of long texts' chunks.
type chunkSums struct {
	kept longtext.Memo[[]float32]
}

// sum returns the sum of chunk's word vectors, kept or computed (and kept when the chunk is
// long). The slice is shared: callers read it only.
func (c *chunkSums) sum(t *table, chunk string) []float32 {
	long := len(chunk) >= longtext.MinKept
	var k longtext.Key
	if long {
		k = longtext.KeyOf(chunk, 0)
		if v, ok := c.kept.Get(k); ok {
			return v
		}
	}
	v := make([]float32, t.dims)
	t.addText(v, chunk)
	if long {
		c.kept.Put(k, v)
	}
	return v
}
