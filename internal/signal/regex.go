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
	hints    []literalHint
	mode     KeywordMode
}

// literalHint lets a pattern skip most of a text: need is a string every match contains
// ("" if none is known), lead one every match starts with (after zero-width assertions
// only, as "JIRA-" in `\bJIRA-\d+\b`). With a lead, the pattern is tried only where the
// lead occurs, anchored there: at0 at the start of the text, at after the rune before it,
// which it consumes so that \b and ^ see the same neighbours as in the whole text.
type literalHint struct {
	need, lead string
	at0, at    *regexp.Regexp
}

func newLiteralHint(src string) literalHint {
	h := literalHint{}
	h.need, h.lead = requiredLiteral(src)
	if h.lead != "" {
		var err0, err error
		h.at0, err0 = regexp.Compile(`^(?:` + src + `)`)
		h.at, err = regexp.Compile(`^(?s:.)(?:` + src + `)`)
		if err0 != nil || err != nil {
			h.lead = ""
		}
	}
	return h
}

// match is re.MatchString(text).
func (h *literalHint) match(re *regexp.Regexp, text string) bool {
	if h.need != "" && !strings.Contains(text, h.need) {
		return false
	}
	// Stepping back one rune is only the regexp's view of the text when the text is valid UTF-8.
	if h.lead == "" || !utf8.ValidString(text) {
		return re.MatchString(text)
	}
	for from := 0; ; {
		i := strings.Index(text[from:], h.lead)
		if i < 0 {
			return false
		}
		k := from + i
		if k == 0 {
			if h.at0.MatchString(text) {
				return true
			}
		} else {
			_, size := utf8.DecodeLastRuneInString(text[:k])
			if h.at.MatchString(text[k-size:]) {
				return true
			}
		}
		from = k + 1
	}
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
		// The text is normalised, its accents folded: an accented letter of the pattern
		// matches its base letter too.
		src, err := foldedPattern(src)
		if err != nil {
			errs = append(errs, fmt.Errorf("patterns[%d]: %w", i, err))
			continue
		}
		re, err := regexp.Compile(src)
		if err != nil {
			errs = append(errs, fmt.Errorf("patterns[%d]: %w", i, err))
			continue
		}
		m.patterns = append(m.patterns, p)
		m.res = append(m.res, re)
		m.hints = append(m.hints, newLiteralHint(src))
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
		if m.hints[i].match(re, text) {
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

// requiredLiteral returns the longest case-sensitive literal in the pattern's top-level
// sequence, which every match holds (as "JIRA-" in `\bJIRA-\d+\b`), and that literal
// again as lead when only zero-width assertions come before it; "" when there is none.
func requiredLiteral(src string) (need, lead string) {
	re, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		return "", ""
	}
	for re.Op == syntax.OpCapture && len(re.Sub) == 1 {
		re = re.Sub[0]
	}
	parts := []*syntax.Regexp{re}
	if re.Op == syntax.OpConcat {
		parts = re.Sub
	}
	leading := true
	for _, p := range parts {
		switch p.Op {
		case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
			syntax.OpWordBoundary, syntax.OpNoWordBoundary:
			continue // zero-width
		}
		lit := ""
		if p.Op == syntax.OpLiteral && p.Flags&syntax.FoldCase == 0 {
			lit = string(p.Rune)
		}
		// An invalid byte in the text reads as U+FFFD, which no literal can stand for.
		if strings.ContainsRune(lit, utf8.RuneError) {
			lit = ""
		}
		if leading && lit != "" {
			lead = lit
		}
		leading = false
		if len(lit) > len(need) {
			need = lit
		}
	}
	return need, lead
}
