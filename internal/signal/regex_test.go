package signal

import (
	"fmt"
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
