package signal

import (
	"errors"
	"fmt"
	"regexp"
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
	mode     KeywordMode
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
