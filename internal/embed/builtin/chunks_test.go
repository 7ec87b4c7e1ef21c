package builtin

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/semantic-router/semantic-router/internal/embed"
)

// longText is at least n bytes of numbered sentences about varied topics, in lines.
func longText(n int) string {
	sentences := []string{
		"How do plants turn sunlight into energy in their leaves?",
		"The compiler inlines small functions and keeps the hot loop in registers.",
		"Cats sleep most of the day and hunt at dusk.",
		"Explain the derivative of a polynomial, step by step.",
		"The river floods every spring when the snow melts in the mountains.",
		"Write a haiku about autumn leaves falling on a quiet pond.",
		"Kubernetes schedules each pod on a node with enough memory.",
	}
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "%d %s\n", i, sentences[(i*3)%len(sentences)])
	}
	return b.String()
}

func TestLongTextVectorIsTheSameKeptOrNot(t *testing.T) {
	t.Parallel()
	text := longText(6 * chunkBytes)
	fresh, _ := New().Vector(text)
	// An embedder that has read an earlier turn of the text keeps its chunks' sums.
	e := New()
	if _, err := e.Vector(text[:3*chunkBytes+100]); err != nil {
		t.Fatal(err)
	}
	if e.sums.kept.Len() == 0 {
		t.Fatal("nothing kept of a text of three chunks")
	}
	for i := range 2 {
		got, _ := e.Vector(text)
		if !slices.Equal(got, fresh) {
			t.Fatalf("read %d: the vector with kept chunks differs from a fresh embedder's", i)
		}
	}
}

func TestLongTextVectorIsItsWordsVector(t *testing.T) {
	t.Parallel()
	tab, err := sharedTable()
	if err != nil {
		t.Fatal(err)
	}
	text := longText(10 * chunkBytes)
	if len(chunkCuts(text)) < 9 {
		t.Fatalf("a text of %d bytes is cut at %v", len(text), chunkCuts(text))
	}
	// The same words summed in one pass: only the rounding differs.
	one := make([]float32, tab.dims)
	tab.addText(one, text)
	tab.finish(one)
	got, _ := New().Vector(text)
	if c := embed.Cosine(got, one); c < 0.99999 {
		t.Errorf("cosine of the chunked and the one-pass vector = %v", c)
	}
}

func BenchmarkEmbedNextTurn(b *testing.B) {
	e := New()
	text := longText(32 << 10)
	if _, err := e.Vector(text); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(text)))
	for i := 0; b.Loop(); i++ {
		if _, err := e.Vector(fmt.Sprintf("%s\nQuestion %d: what does the loop return?", text, i)); err != nil {
			b.Fatal(err)
		}
	}
}
