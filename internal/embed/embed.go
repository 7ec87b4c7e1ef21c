// Package embed turns text into vectors for the similarity-based signals
// (domain, jailbreak, embedding rules) and the semantic cache.
//
// The default implementation is package builtin (static word vectors shipped
// in the binary, no network); package remote calls any OpenAI-compatible
// /v1/embeddings endpoint.
package embed

import (
	"context"
	"math"
)

// Embedder maps texts to fixed-size vectors. Implementations return one
// vector per input text, in order, each of length Dimensions(), and are safe
// for concurrent use.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	Dimensions() int
}

// Cosine returns the cosine similarity of a and b, or 0 when either is a
// zero vector or their lengths differ.
func Cosine(a, b []float32) float32 {
	if len(a) != len(b) {
		return 0
	}
	var dot, na, nb float64
	for i := range a {
		x, y := float64(a[i]), float64(b[i])
		dot += x * y
		na += x * x
		nb += y * y
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return float32(dot / math.Sqrt(na*nb))
}

// Normalize scales v in place to unit L2 length; a zero vector is left as is.
func Normalize(v []float32) {
	var ss float64
	for _, x := range v {
		ss += float64(x) * float64(x)
	}
	if ss == 0 {
		return
	}
	inv := float32(1 / math.Sqrt(ss))
	for i := range v {
		v[i] *= inv
	}
}
