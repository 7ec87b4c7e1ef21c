package builtin

import (
	"context"
	"math"
	"sort"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/semantic-router/semantic-router/internal/embed"
)

func TestEmbedShape(t *testing.T) {
	t.Parallel()
	e := New()
	vecs, err := e.Embed(context.Background(), []string{"hello world", "", "!!!", "Kubernetesoperatorz", "中文文本"})
	if err != nil {
		t.Fatal(err)
	}
	if len(vecs) != 5 {
		t.Fatalf("got %d vectors, want 5", len(vecs))
	}
	for i, v := range vecs {
		if len(v) != e.Dimensions() {
			t.Fatalf("vector %d has %d dims, want %d", i, len(v), e.Dimensions())
		}
	}
	for _, i := range []int{0, 3, 4} {
		if n := norm(vecs[i]); math.Abs(n-1) > 1e-4 {
			t.Errorf("vector %d norm = %v, want 1", i, n)
		}
	}
	for _, i := range []int{1, 2} {
		if n := norm(vecs[i]); n != 0 {
			t.Errorf("vector %d norm = %v, want 0 for text without words", i, n)
		}
	}
}

func TestEmbedDeterministicAndCaseInsensitive(t *testing.T) {
	t.Parallel()
	e := New()
	a, _ := e.Vector("Photosynthesis in PLANTS")
	b, _ := e.Vector("photosynthesis in plants")
	if c := embed.Cosine(a, b); c < 0.9999 {
		t.Errorf("cosine of case variants = %v, want 1", c)
	}
}

// TestEmbedSemantics checks that the vectors carry meaning: each query is
// closer to its paraphrase than to unrelated sentences.
func TestEmbedSemantics(t *testing.T) {
	t.Parallel()
	e := New()
	tests := []struct {
		query, near string
	}{
		{"How do plants turn sunlight into energy?", "Explain photosynthesis in leaves and chlorophyll"},
		{"What is the derivative of x squared?", "Compute the integral of a polynomial function"},
		{"My landlord will not return my deposit, can I sue?", "Tenant rights and small claims court lawsuits"},
		{"Write a Python function that sorts a list", "Implement a sorting algorithm in code"},
		{"Why did the Roman Empire fall?", "Causes of the decline of ancient Rome"},
	}
	others := []string{
		"Explain photosynthesis in leaves and chlorophyll",
		"Compute the integral of a polynomial function",
		"Tenant rights and small claims court lawsuits",
		"Implement a sorting algorithm in code",
		"Causes of the decline of ancient Rome",
	}
	for _, tt := range tests {
		q, _ := e.Vector(tt.query)
		type scored struct {
			s string
			c float32
		}
		var ss []scored
		for _, o := range others {
			v, _ := e.Vector(o)
			ss = append(ss, scored{o, embed.Cosine(q, v)})
		}
		sort.Slice(ss, func(i, j int) bool { return ss[i].c > ss[j].c })
		if ss[0].s != tt.near {
			t.Errorf("nearest to %q = %q (%.3f), want %q", tt.query, ss[0].s, ss[0].c, tt.near)
		}
	}
}

func TestEmbedContextCanceled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	texts := make([]string, 100)
	if _, err := New().Embed(ctx, texts); err == nil || err.Error() != "builtin embedder: context canceled" {
		t.Errorf("Embed with canceled context: err = %v, want builtin embedder: context canceled", err)
	}
}

func TestLoadTableCorrupt(t *testing.T) {
	t.Parallel()
	if _, err := loadTable([]byte("this is not a gzip stream")); err == nil || err.Error() != "reading vector table: gzip: invalid header" {
		t.Errorf("err = %v", err)
	}
}

func norm(v []float32) float64 {
	var ss float64
	for _, x := range v {
		ss += float64(x) * float64(x)
	}
	return math.Sqrt(ss)
}

func BenchmarkEmbedPrompt(b *testing.B) {
	e := New()
	prompt := "Can you explain how the citric acid cycle produces ATP in mitochondria, and why oxygen is needed at the end of the electron transport chain?"
	if _, err := e.Vector(prompt); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Vector(prompt); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLoadTable(b *testing.B) {
	for b.Loop() {
		if _, err := loadTable(vectorsGz); err != nil {
			b.Fatal(err)
		}
	}
}

func FuzzEmbed(f *testing.F) {
	for _, s := range []string{"", "hello", "日本語のテキスト", "a\x00b\xff", "x-y_z'w 12.5%"} {
		f.Add(s)
	}
	e := New()
	f.Fuzz(func(t *testing.T, s string) {
		v, err := e.Vector(s)
		if err != nil {
			t.Fatal(err)
		}
		if len(v) != Dimensions {
			t.Fatalf("len = %d", len(v))
		}
		for _, x := range v {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				t.Fatalf("non-finite value in %v", v)
			}
		}
	})
}

// TestASCIIFastPathAgreesWithUnicode checks the ASCII shortcut of sentence against the
// Unicode tests it skips.
func TestASCIIFastPathAgreesWithUnicode(t *testing.T) {
	t.Parallel()
	for r := rune(0); r < utf8.RuneSelf; r++ {
		word := 'a' <= r && r <= 'z' || '0' <= r && r <= '9' || 'A' <= r && r <= 'Z'
		if isIdeograph(r) || word != (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			t.Fatalf("rune %q: the ASCII shortcut disagrees with unicode", r)
		}
		if word && unicode.ToLower(r) != r|0x20 && !('0' <= r && r <= '9') {
			t.Fatalf("rune %q: lower case %q", r, unicode.ToLower(r))
		}
	}
}
