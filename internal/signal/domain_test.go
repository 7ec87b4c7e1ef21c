package signal

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/semantic-router/semantic-router/internal/embed/builtin"
)

var sharedDomain = sync.OnceValues(func() (*DomainClassifier, error) {
	return NewDomainClassifier(context.Background(), DomainOptions{Embedder: builtin.New(), TopK: 2})
})

func TestBuiltinDomains(t *testing.T) {
	t.Parallel()
	cats := BuiltinDomains()
	want := []string{"biology", "business", "chemistry", "computer science", "economics", "engineering", "health",
		"history", "law", "math", "philosophy", "physics", "psychology", "other"}
	if len(cats) != len(want) {
		t.Fatalf("%d categories, want %d", len(cats), len(want))
	}
	for i, c := range cats {
		if c.Name != want[i] || len(c.Examples) < 40 {
			t.Errorf("category %d = %s with %d examples, want %s with >= 40", i, c.Name, len(c.Examples), want[i])
		}
		if len(builtinDomainKeywords[c.Name]) == 0 {
			t.Errorf("category %s has no keywords", c.Name)
		}
	}
}

func TestDomainClassify(t *testing.T) {
	t.Parallel()
	c, err := sharedDomain()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ text, want string }{
		{"How do I reverse a string in Rust?", "computer science"},
		{"What is the integral of cos(x)?", "math"},
		{"Can my landlord raise the rent in the middle of a lease?", "law"},
		{"What causes the northern lights physically?", "physics"},
		{"What should I cook for a picnic?", "other"},
	}
	for _, tt := range tests {
		res, err := c.Classify(context.Background(), tt.text)
		if err != nil {
			t.Fatal(err)
		}
		if res.Label != tt.want {
			t.Errorf("Classify(%q) = %s (%.2f), want %s", tt.text, res.Label, res.Confidence, tt.want)
		}
		if res.Abstained || len(res.Scores) != 2 || res.Scores[0].Label != res.Label || res.Scores[0].Score != res.Confidence || res.Scores[1].Score > res.Confidence {
			t.Errorf("Scores = %+v", res.Scores)
		}
	}
}

func TestDomainAbstains(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tests := []struct {
		name          string
		minConfidence float64
		text          string
		wantLabel     string
		wantAbstained bool
	}{
		{"gibberish", 0, "asdf qwer zxcv", "other", true},
		{"digits only", 0, "1234 5678", "other", true},
		{"a clear prompt stays", 0, "How do I reverse a linked list in Java?", "computer science", false},
		{"a strict threshold abstains on a clear prompt", 0.9999999, "How do I reverse a linked list in Java?", "other", true},
		{"abstaining off", -1, "asdf qwer zxcv", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, err := NewDomainClassifier(ctx, DomainOptions{Embedder: builtin.New(), MinConfidence: tt.minConfidence})
			if err != nil {
				t.Fatal(err)
			}
			res, err := c.Classify(ctx, tt.text)
			if err != nil {
				t.Fatal(err)
			}
			if res.Abstained != tt.wantAbstained || (tt.wantLabel != "" && res.Label != tt.wantLabel) {
				t.Errorf("Classify(%q) = %s abstained=%v (%.2f), want %s abstained=%v", tt.text, res.Label, res.Abstained, res.Confidence, tt.wantLabel, tt.wantAbstained)
			}
			if res.Abstained && (res.Confidence != 1-res.Scores[0].Score || res.Scores[0].Score >= c.minConf) {
				t.Errorf("abstained with confidence %.3f and best score %.3f (threshold %.3f)", res.Confidence, res.Scores[0].Score, c.minConf)
			}
		})
	}
}

func TestDomainUserCategories(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c, err := NewDomainClassifier(ctx, DomainOptions{
		Embedder:       builtin.New(),
		ReplaceBuiltin: true,
		Categories: []DomainCategory{
			{Name: "billing", Examples: []string{"Why was I charged twice?", "How do I update my credit card?", "I want a refund for my invoice"}},
			{Name: "shipping", Examples: []string{"Where is my parcel?", "The delivery is late", "Can I change the shipping address?"}, Keywords: []string{"courier"}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Labels(); len(got) != 2 || got[0] != "billing" || got[1] != "shipping" {
		t.Errorf("Labels = %v", got)
	}
	for text, want := range map[string]string{"My payment was taken two times": "billing", "The courier never showed up with my package": "shipping"} {
		res, err := c.Classify(ctx, text)
		if err != nil {
			t.Fatal(err)
		}
		if res.Label != want {
			t.Errorf("Classify(%q) = %s, want %s", text, res.Label, want)
		}
	}

	// Adding to the built-ins keeps all 14 and appends the new one.
	c, err = NewDomainClassifier(ctx, DomainOptions{Embedder: builtin.New(), Categories: []DomainCategory{
		{Name: "cooking", Examples: []string{"How long do I roast a chicken?"}},
		{Name: "math", Examples: []string{"What is a group homomorphism?"}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(c.Labels()); n != 15 {
		t.Errorf("%d labels, want 15", n)
	}
}

func TestDomainOptionErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		opts DomainOptions
		want string
	}{
		{"no embedder", DomainOptions{}, "domain: embedder is required"},
		{"negative top k", DomainOptions{Embedder: builtin.New(), TopK: -1}, "domain: top k -1: must not be negative"},
		{"bad categories", DomainOptions{Embedder: builtin.New(), ReplaceBuiltin: true, Categories: []DomainCategory{{}, {Name: "x"}}},
			"domain: categories[0]: name is required\ncategories[1] (x): at least one example is required"},
		{"nothing left", DomainOptions{Embedder: builtin.New(), ReplaceBuiltin: true}, "domain: no categories"},
		{"embedder fails", DomainOptions{Embedder: failingEmbedder{}}, "domain: embedding examples: connection refused"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := NewDomainClassifier(context.Background(), tt.opts)
			if err == nil || err.Error() != tt.want {
				t.Errorf("err = %v\nwant  %s", err, tt.want)
			}
		})
	}
}

func BenchmarkDomainClassify(b *testing.B) {
	c, err := sharedDomain()
	if err != nil {
		b.Fatal(err)
	}
	prompt := "Explain the difference between FIFO and LIFO inventory valuation and how each affects reported profit."
	b.ReportAllocs()
	for b.Loop() {
		_, _ = c.Classify(context.Background(), prompt)
	}
}

// BenchmarkDomainClassify200 is one prompt of about 200 tokens, embedding
// included.
func BenchmarkDomainClassify200(b *testing.B) {
	c, err := sharedDomain()
	if err != nil {
		b.Fatal(err)
	}
	prompt := strings.Repeat("Our warehouse team keeps running out of packing tape and boxes before the end of the month, "+
		"and the supplier wants payment upfront. How should a small online shop plan its inventory, negotiate payment terms, "+
		"and forecast demand for the holiday season without tying up too much cash? ", 3)
	b.ReportAllocs()
	for b.Loop() {
		_, _ = c.Classify(context.Background(), prompt)
	}
}

func BenchmarkDomainBuild(b *testing.B) {
	for b.Loop() {
		if _, err := NewDomainClassifier(context.Background(), DomainOptions{Embedder: builtin.New()}); err != nil {
			b.Fatal(err)
		}
	}
}
