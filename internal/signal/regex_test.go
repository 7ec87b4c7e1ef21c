package signal

import (
	"fmt"
	"regexp"
	"testing"
)

func TestRegexMatcher(t *testing.T) {
	t.Parallel()
	m, err := NewRegexMatcher(RegexOptions{Patterns: []string{`\bv\d+\.\d+\b`, `error \d{3}`}, CaseInsensitive: true})
	if err != nil {
		t.Fatal(err)
	}
	res := m.Match("Upgrading to V2.3 gives ERROR 500")
	if !res.Matched || fmt.Sprint(res.Found) != `[\bv\d+\.\d+\b error \d{3}]` {
		t.Errorf("Match = %+v", res)
	}
	all, _ := NewRegexMatcher(RegexOptions{Patterns: []string{`a`, `z`}, Mode: KeywordAll})
	if res := all.Match("abc"); res.Matched || fmt.Sprint(res.Found) != "[a]" {
		t.Errorf("all-mode Match = %+v", res)
	}
}

func TestRegexErrors(t *testing.T) {
	t.Parallel()
	_, err := NewRegexMatcher(RegexOptions{Patterns: []string{`ok`, `(unclosed`, `a{2,1}`}, Mode: "every"})
	want := "regex: mode \"every\": must be any or all\npatterns[1]: error parsing regexp: missing closing ): `(unclosed`\npatterns[2]: error parsing regexp: invalid repeat count: `{2,1}`"
	if err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant  %s", err, want)
	}
}

// TestRegexLiteralGateChangesNothing checks that skipping texts without a pattern's
// required literal gives the regexp's own answer.
func TestRegexLiteralGateChangesNothing(t *testing.T) {
	t.Parallel()
	patterns := []string{`\bJIRA-\d+\b`, `(?i)jira-\d+`, `JIRA|PROJ`, `(ticket) #\d+`, `a(b)c`, `^Dear `, `\d{3}-\d{4}`,
		`x*`, `(?:foo)+bar`, `\x{FFFD}x`, `ab(?i)cd`, `(?s)BEGIN.*END`, `the `, `é[a-z]`, `(?m)^- \w+`, `\Bing\b`,
		`\bé\w`, `aa$`, `(?m)^$x`, `^(?:abc)`}
	type hint struct{ need, lead string }
	want := map[string]hint{`\bJIRA-\d+\b`: {"JIRA-", "JIRA-"}, `(?i)jira-\d+`: {}, `JIRA|PROJ`: {}, `(ticket) #\d+`: {" #", ""},
		`a(b)c`: {"a", "a"}, `^Dear `: {"Dear ", "Dear "}, `(?:foo)+bar`: {"bar", ""}, `\x{FFFD}x`: {}, `ab(?i)cd`: {"ab", "ab"},
		`(?s)BEGIN.*END`: {"BEGIN", "BEGIN"}, `é[a-z]`: {"é", "é"}, `(?m)^- \w+`: {"- ", "- "}, `\Bing\b`: {"ing", "ing"}}
	for p, w := range want {
		if need, lead := requiredLiteral(p); need != w.need || lead != w.lead {
			t.Errorf("requiredLiteral(%q) = %q, %q, want %q, %q", p, need, lead, w.need, w.lead)
		}
	}
	texts := append(gateTexts(t), "Our ticket is JIRA-4521.", "jira-12", "a\xffx", "ticket #12", "abCD", "BEGIN\nEND", "éa",
		"JIRA-1", "xJIRA-1", "éJIRA-1 JIRA-2", "a\n- item", "- item", "x- item", "singing", "sing", "ééa", "xéa", "aaa", "aa",
		"\nx", "abc", "xabc", "a\xffJIRA-1", "Dear Ann", " Dear Ann")
	for _, p := range patterns {
		m, err := NewRegexMatcher(RegexOptions{Patterns: []string{p}})
		if err != nil {
			t.Fatal(err)
		}
		src, err := foldedPattern(p) // the matcher's regexp: an accented letter matches its base letter too
		if err != nil {
			t.Fatal(err)
		}
		re := regexp.MustCompile(src)
		for _, text := range texts {
			if got, want := m.Match(text).Matched, re.MatchString(text); got != want {
				t.Fatalf("pattern %q on %q: matched %v, the regexp says %v", p, text, got, want)
			}
		}
	}
}
