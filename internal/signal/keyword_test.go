package signal

import (
	"fmt"
	"strings"
	"testing"
)

func TestKeywordMatcher(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		opts  KeywordOptions
		text  string
		match bool
		found string
	}{
		{"any, word boundary", KeywordOptions{Keywords: []string{"urgent", "asap"}}, "This is URGENT!", true, "[urgent]"},
		{"no substring match", KeywordOptions{Keywords: []string{"cat"}}, "concatenate the files", false, "[]"},
		{"all needs every keyword", KeywordOptions{Keywords: []string{"refund", "invoice"}, Mode: KeywordAll}, "refund please", false, "[refund]"},
		{"all satisfied", KeywordOptions{Keywords: []string{"refund", "invoice"}, Mode: KeywordAll}, "Invoice 12: refund it", true, "[refund invoice]"},
		{"case sensitive", KeywordOptions{Keywords: []string{"Go"}, CaseSensitive: true}, "go home", false, "[]"},
		{"case sensitive match", KeywordOptions{Keywords: []string{"Go"}, CaseSensitive: true}, "write it in Go.", true, "[Go]"},
		{"phrase", KeywordOptions{Keywords: []string{"machine learning"}}, "Intro to Machine  Learning?", true, "[machine learning]"},
		{"phrase order matters", KeywordOptions{Keywords: []string{"machine learning"}}, "learning machine", false, "[]"},
		{"fuzzy one edit", KeywordOptions{Keywords: []string{"kubernetes"}, MaxEdits: 1}, "deploy on kubernets", true, "[kubernetes]"},
		{"fuzzy too far", KeywordOptions{Keywords: []string{"kubernetes"}, MaxEdits: 1}, "deploy on kubrnets", false, "[]"},
		{"fuzzy skips short words", KeywordOptions{Keywords: []string{"sql"}, MaxEdits: 1}, "sal", false, "[]"},
		{"cjk", KeywordOptions{Keywords: []string{"数学"}}, "我喜欢数学和物理", true, "[数学]"},
		{"accents", KeywordOptions{Keywords: []string{"café"}}, "Un CAFÉ, s'il vous plaît", true, "[café]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m, err := NewKeywordMatcher(tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			res := m.Match(tt.text)
			if res.Matched != tt.match || fmt.Sprint(res.Found) != tt.found {
				t.Errorf("Match(%q) = %v %v, want %v %s", tt.text, res.Matched, res.Found, tt.match, tt.found)
			}
		})
	}
}

func TestKeywordOptionErrors(t *testing.T) {
	t.Parallel()
	_, err := NewKeywordMatcher(KeywordOptions{Keywords: []string{"ok", "!!"}, Mode: "some", MaxEdits: 5})
	want := "keyword: mode \"some\": must be any or all\nmax edits 5: must be between 0 and 3\nkeywords[1] \"!!\": has no letters or digits"
	if err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant  %s", err, want)
	}
	_, err = NewKeywordMatcher(KeywordOptions{})
	if err == nil || err.Error() != "keyword: at least one keyword is required" {
		t.Errorf("err = %v", err)
	}
}

func TestEditDistance(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		a, b  string
		limit int
		want  int
	}{
		{"kitten", "sitting", 3, 3},
		{"flaw", "lawn", 2, 2},
		{"same", "same", 1, 0},
		{"abc", "abcdef", 1, 2}, // gave up: limit+1
		{"héllo", "hello", 1, 1},
	} {
		if got := editDistance(tt.a, tt.b, tt.limit); got != tt.want {
			t.Errorf("editDistance(%q, %q, %d) = %d, want %d", tt.a, tt.b, tt.limit, got, tt.want)
		}
	}
}

func FuzzKeyword(f *testing.F) {
	f.Add("hello world", "world")
	f.Add("数学", "学")
	f.Fuzz(func(t *testing.T, text, kw string) {
		m, err := NewKeywordMatcher(KeywordOptions{Keywords: []string{kw}, MaxEdits: 1})
		if err != nil {
			return
		}
		res := m.Match(text)
		if res.Matched != (len(res.Found) == 1) {
			t.Fatalf("inconsistent %+v", res)
		}
	})
}

func BenchmarkKeywordFuzzy(b *testing.B) {
	m, _ := NewKeywordMatcher(KeywordOptions{Keywords: []string{"kubernetes", "docker", "terraform", "machine learning"}, MaxEdits: 1})
	text := "How do I deploy my machine learning model with docker on a managed kubernetes cluster using terraform modules?"
	b.ReportAllocs()
	for b.Loop() {
		m.Match(text)
	}
}

// TestFuzzyMatchingCostIsBounded: edit distances do not allocate, so a Match allocates the
// same whatever the number of fuzzy keywords, and words past MaxFuzzyWords match only exactly.
func TestFuzzyMatchingCostIsBounded(t *testing.T) {
	if n := testing.AllocsPerRun(100, func() { _ = editDistance("kubernetes", "kubernets", 2) }); n != 0 {
		t.Errorf("editDistance allocated %v times", n)
	}
	text := strings.Repeat("the quick brown fox jumps over the lazy dog ", 500) // 4,500 words
	one, err := NewKeywordMatcher(KeywordOptions{Keywords: []string{"kubernetes"}, MaxEdits: 2})
	if err != nil {
		t.Fatal(err)
	}
	var many []string
	for i := range 100 {
		many = append(many, fmt.Sprintf("keyword%03d", i))
	}
	hundred, err := NewKeywordMatcher(KeywordOptions{Keywords: many, MaxEdits: 2})
	if err != nil {
		t.Fatal(err)
	}
	a1 := testing.AllocsPerRun(5, func() { _ = one.Match(text) })
	a100 := testing.AllocsPerRun(5, func() { _ = hundred.Match(text) })
	// Up to 450,000 comparisons more; a margin of 2 absorbs allocations of the runtime.
	if a100 > a1+2 {
		t.Errorf("Match allocated %v times with 1 fuzzy keyword and %v with 100", a1, a100)
	}
	// "kubernets" within the first MaxFuzzyWords words matches; past them only the exact word.
	early := "my kubernets cluster " + text
	late := text + " my kubernets cluster"
	exact := text + " my kubernetes cluster"
	for _, c := range []struct {
		name, text string
		want       bool
	}{{"early typo", early, true}, {"late typo", late, false}, {"late exact", exact, true}} {
		if got := one.Match(c.text).Matched; got != c.want {
			t.Errorf("%s: matched %v, want %v", c.name, got, c.want)
		}
	}
}

func BenchmarkFuzzyKeywords(b *testing.B) {
	var kws []string
	for i := range 100 {
		kws = append(kws, fmt.Sprintf("keyword%03d", i))
	}
	m, err := NewKeywordMatcher(KeywordOptions{Keywords: kws, MaxEdits: 2})
	if err != nil {
		b.Fatal(err)
	}
	text := strings.Repeat("the quick brown fox jumps over the lazy dog while keywords wait ", 9000) // ~560 KB
	b.ReportAllocs()
	for b.Loop() {
		_ = m.Match(text)
	}
}
