package signal

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// RegexOptions configure a RegexMatcher. Patterns use Go's RE2 syntax,
// which runs in time linear in the input, so user patterns cannot stall
// the router.
type RegexOptions struct {
	Patterns []string
	// Mode is "any" (default) or "all", as for keywords.
	Mode KeywordMode
	// CaseInsensitive prefixes every pattern with (?i).
	CaseInsensitive bool
}

// RegexResult lists the patterns that matched, in option order.
type RegexResult struct {
	Matched bool
	Found   []string
}

// RegexMatcher matches prompts against compiled patterns. It is safe for
// concurrent use.
type RegexMatcher struct {
	patterns []string
	res      []*regexp.Regexp
	// need holds, per pattern, a string every match contains ("" if none is known): a text
	// without it is not searched.
	need []string
	mode KeywordMode
}

// NewRegexMatcher compiles the patterns, reporting every bad one.
func NewRegexMatcher(opts RegexOptions) (*RegexMatcher, error) {
	var errs []error
	if len(opts.Patterns) == 0 {
		errs = append(errs, errors.New("at least one pattern is required"))
	}
	switch opts.Mode {
	case "", KeywordAny, KeywordAll:
	default:
		errs = append(errs, fmt.Errorf("mode %q: must be any or all", opts.Mode))
	}
	m := &RegexMatcher{mode: opts.Mode}
	if m.mode == "" {
		m.mode = KeywordAny
	}
	for i, p := range opts.Patterns {
		src := p
		if opts.CaseInsensitive {
			src = "(?i)" + p
		}
		re, err := regexp.Compile(src)
		if err != nil {
			errs = append(errs, fmt.Errorf("patterns[%d]: %w", i, err))
			continue
		}
		m.patterns = append(m.patterns, p)
		m.res = append(m.res, re)
		m.need = append(m.need, requiredLiteral(src))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("regex: %w", err)
	}
	return m, nil
}

// Match checks text.
func (m *RegexMatcher) Match(text string) RegexResult {
	var res RegexResult
	for i, re := range m.res {
		if m.need[i] != "" && !strings.Contains(text, m.need[i]) {
			continue
		}
		if re.MatchString(text) {
			res.Found = append(res.Found, m.patterns[i])
		}
	}
	if m.mode == KeywordAll {
		res.Matched = len(res.Found) == len(m.res)
	} else {
		res.Matched = len(res.Found) > 0
	}
	return res
}

// requiredLiteral returns the longest case-sensitive literal that every match of the
// pattern holds: a literal in the pattern's top-level sequence (as "JIRA-" in
// `\bJIRA-\d+\b`), or "" when there is none.
func requiredLiteral(src string) string {
	re, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		return ""
	}
	for re.Op == syntax.OpCapture && len(re.Sub) == 1 {
		re = re.Sub[0]
	}
	parts := []*syntax.Regexp{re}
	if re.Op == syntax.OpConcat {
		parts = re.Sub
	}
	best := ""
	for _, p := range parts {
		if p.Op != syntax.OpLiteral || p.Flags&syntax.FoldCase != 0 {
			continue
		}
		lit := string(p.Rune)
		// An invalid byte in the text reads as U+FFFD, which no literal can stand for.
		if !strings.ContainsRune(lit, utf8.RuneError) && len(lit) > len(best) {
			best = lit
		}
	}
	return best
}
