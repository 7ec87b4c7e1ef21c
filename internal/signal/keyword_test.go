package signal

import (
	"fmt"
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
