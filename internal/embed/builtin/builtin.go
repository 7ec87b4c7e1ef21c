// Package builtin is the default embedder: static word vectors shipped inside
// the binary, combined into a sentence vector by a frequency-weighted (SIF)
// average. It needs no network and no cgo and embeds a prompt in
// microseconds, at the price of ignoring word order.
package builtin

import (
	"context"
	"fmt"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/semantic-router/semantic-router/internal/embed"
)

// The vector table is decoded once, on first use, and shared read-only by
// every Embedder; this is the package's only global state.
var (
	loadOnce   sync.Once
	loaded     *table
	errLoading error
)

func sharedTable() (*table, error) {
	loadOnce.Do(func() { loaded, errLoading = loadTable(vectorsGz) })
	return loaded, errLoading
}

// Dimensions is the length of every vector the builtin embedder returns.
const Dimensions = 100

// Embedder is the builtin embedder. The zero value is ready to use and safe
// for concurrent use; the vector table loads on the first call (about 100 ms).
// It keeps the sums of long texts' chunks (see chunkSums): up to chunksKept when
// made by New, up to longtext.DefaultLimit as the zero value.
type Embedder struct {
	sums chunkSums
}

// New returns the builtin embedder.
func New() *Embedder {
	e := &Embedder{}
	e.sums.kept.Limit = chunksKept
	return e
}

// Dimensions implements embed.Embedder.
func (*Embedder) Dimensions() int { return Dimensions }

// Embed implements embed.Embedder. Each vector is L2-normalised; a text with
// no letters or digits maps to the zero vector. It never blocks on I/O and
// only fails if the shipped table is corrupt.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	t, err := sharedTable()
	if err != nil {
		return nil, fmt.Errorf("builtin embedder: %w", err)
	}
	out := make([][]float32, len(texts))
	for i, s := range texts {
		if i%64 == 63 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("builtin embedder: %w", err)
			}
		}
		out[i] = t.sentence(s, &e.sums)
	}
	return out, nil
}

// Vector embeds a single text; it is Embed without the slices.
func (e *Embedder) Vector(text string) ([]float32, error) {
	t, err := sharedTable()
	if err != nil {
		return nil, fmt.Errorf("builtin embedder: %w", err)
	}
	return t.sentence(text, &e.sums), nil
}

// sifWeight is a/(a+p(w)) with p(w) estimated from the frequency rank by
// Zipf's law, so "the" counts ~1% as much as a rare content word. It must
// match internal/gen.
func sifWeight(rank int32) float32 {
	const a = 1e-3
	p := 0.075 / float32(rank+1)
	return a / (a + p)
}

// sentence is s's vector: its words' weighted vectors added up (a long text's in chunks,
// kept in sums; see chunkCuts), less the direction every text shares, normalised.
func (t *table) sentence(s string, sums *chunkSums) []float32 {
	v := make([]float32, t.dims)
	if cuts := chunkCuts(s); len(cuts) == 0 {
		t.addText(v, s)
	} else {
		start := 0
		for _, end := range append(cuts, len(s)) {
			for i, x := range sums.sum(t, s[start:end]) {
				v[i] += x
			}
			start = end
		}
	}
	t.finish(v)
	return v
}

// finish makes a sum of word vectors a sentence vector: less the direction every text
// shares, what is left being topic, and normalised.
func (t *table) finish(v []float32) {
	var dot float32
	for i, c := range t.common {
		dot += v[i] * c
	}
	for i, c := range t.common {
		v[i] -= dot * c
	}
	embed.Normalize(v)
}

// addText adds the weighted vectors of s's words to v.
func (t *table) addText(v []float32, s string) {
	var buf [64]byte
	tok := buf[:0]
	flush := func() {
		if len(tok) > 0 {
			t.addToken(v, tok)
			tok = tok[:0]
		}
	}
	for _, r := range s {
		if r < utf8.RuneSelf {
			// ASCII, most text: what the cases below decide, without the Unicode tables.
			switch c := byte(r); {
			case 'a' <= c && c <= 'z' || '0' <= c && c <= '9':
				tok = append(tok, c)
			case 'A' <= c && c <= 'Z':
				tok = append(tok, c+'a'-'A')
			default:
				flush()
			}
			continue
		}
		switch {
		case isIdeograph(r):
			// CJK text has no spaces: each character is its own token.
			flush()
			tok = utf8.AppendRune(tok, r)
			flush()
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			tok = utf8.AppendRune(tok, unicode.ToLower(r))
		default:
			flush()
		}
	}
	flush()
}

func (t *table) addToken(v []float32, tok []byte) {
	if rank, ok := t.words.Lookup(tok); ok {
		k := t.scales[rank] * sifWeight(rank)
		row := t.vals[int(rank)*t.dims : int(rank+1)*t.dims]
		for i, q := range row {
			v[i] += k * float32(q)
		}
		return
	}
	// Unknown word: average its character n-gram vectors. They are small
	// (means of many words), so an unknown word weighs less than a known one.
	var hashes [96]uint32
	hs := ngramHashes(hashes[:0], tok)
	if len(hs) == 0 {
		return
	}
	inv := 1 / float32(len(hs))
	for _, h := range hs {
		b := int(h % uint32(len(t.bucketScales)))
		k := t.bucketScales[b] * inv
		row := t.bucketVals[b*t.dims : (b+1)*t.dims]
		for i, q := range row {
			v[i] += k * float32(q)
		}
	}
}

// ngramHashes appends FNV-1a hashes of the byte n-grams (3 to 5) of
// "<tok>", the scheme internal/gen used to build the buckets.
func ngramHashes(dst []uint32, tok []byte) []uint32 {
	var buf [66]byte
	if len(tok) > 64 {
		tok = tok[:64]
	}
	s := append(append(append(buf[:0], '<'), tok...), '>')
	for size := 3; size <= 5; size++ {
		for i := 0; i+size <= len(s); i++ {
			if len(dst) == cap(dst) {
				return dst
			}
			h := uint32(2166136261)
			for _, c := range s[i : i+size] {
				h ^= uint32(c)
				h *= 16777619
			}
			dst = append(dst, h)
		}
	}
	return dst
}

func isIdeograph(r rune) bool {
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) ||
		unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r)
}

var _ embed.Embedder = (*Embedder)(nil)

// WordRank is the frequency rank of a lowercase word in the shipped vocabulary (0 is the most
// frequent of its 100,000 words), and false for a word it does not hold. The first call loads
// the table, as the first embedding does.
func WordRank(word string) (int, bool) {
	t, err := sharedTable()
	if err != nil {
		return 0, false
	}
	r, ok := t.words.LookupString(word)
	return int(r), ok
}
