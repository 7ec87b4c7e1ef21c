package signal

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// The Latin letters with a canonical decomposition lie in these two blocks (Latin-1 and
// Latin Extended-A and -B; Latin Extended Additional, Vietnamese among them).
const (
	latinLo, latinHi       = 0xc0, 0x24f
	latinAddLo, latinAddHi = 0x1e00, 0x1eff
)

// latinBases maps each Latin letter with diacritics to its base letter: the first rune of
// its canonical decomposition, when the rest are combining marks (é è ê ë ę → e, ñ → n,
// ǖ → u, ǿ → ø); 0 for the others (ø ł đ ß æ have none, and stay as they are).
var latinBases = func() [latinHi - latinLo + 1 + latinAddHi - latinAddLo + 1]rune {
	var out [latinHi - latinLo + 1 + latinAddHi - latinAddLo + 1]rune
	for i := range out {
		r := rune(latinLo + i)
		if r > latinHi {
			r = rune(latinAddLo + i - (latinHi - latinLo + 1))
		}
		d := norm.NFD.String(string(r))
		base, n := utf8.DecodeRuneInString(d)
		if n < len(d) && unicode.Is(unicode.Latin, base) && strings.IndexFunc(d[n:], func(m rune) bool { return !isMark(m) }) < 0 {
			out[i] = base
		}
	}
	return out
}()

// latinBase returns the base letter of a Latin letter with diacritics, and false for any
// other rune.
func latinBase(r rune) (rune, bool) {
	var b rune
	switch {
	case r >= latinLo && r <= latinHi:
		b = latinBases[r-latinLo]
	case r >= latinAddLo && r <= latinAddHi:
		b = latinBases[r-latinAddLo+latinHi-latinLo+1]
	}
	return b, b != 0
}

// foldAccents writes the Latin letters with diacritics as their base letters ("Ígnóre"
// reads "Ignore", "exámple" "example") and removes the combining marks that follow a
// character of a script that writes its accented letters precomposed (precomposedScript):
// there such a mark is one no letter has, put there to split a word or a number ("1̲2̲3̲").
// Marks after the letters of other scripts, where they are part of the writing
// (Devanagari, Thai, Arabic, Hebrew, ...), are kept, and so are Greek, Cyrillic and
// Armenian letters written precomposed (й is not и). s is NFC or NFKC (Normalize applies
// NFKC first, which composes a letter and its marks into one precomposed letter where
// Unicode has one); s itself is returned when there is nothing to fold.
func foldAccents(s string) string {
	// Every letter folded and every mark dropped is U+00C0 or above: its UTF-8 form starts
	// with 0xC3 or more.
	i := 0
	for i < len(s) && s[i] < 0xc3 {
		i++
	}
	if i == len(s) || strings.IndexFunc(s[i:], foldable) < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	base := ' ' // a mark with nothing before it marks nothing
	from := 0
	for j, r := range s {
		if isMark(r) {
			if precomposedScript(base) {
				b.WriteString(s[from:j])
				from = j + utf8.RuneLen(r)
			}
			continue
		}
		base = r
		if l, ok := latinBase(r); ok {
			b.WriteString(s[from:j])
			b.WriteRune(l)
			from = j + utf8.RuneLen(r)
		}
	}
	b.WriteString(s[from:])
	return b.String()
}

// foldable reports a rune that foldAccents may change: a Latin letter with diacritics or a
// combining mark.
func foldable(r rune) bool {
	_, ok := latinBase(r)
	return ok || isMark(r)
}

// withFolded appends to terms the folded form (foldAccents) of each term that has one, so
// that a list written with accents matches text as Normalize writes it as well as text as
// sent.
func withFolded(terms []string) []string {
	out := terms
	for _, t := range terms {
		if f := foldAccents(t); f != t && !slices.Contains(out, f) {
			if len(out) == len(terms) {
				out = slices.Clip(out) // never write into the caller's array
			}
			out = append(out, f)
		}
	}
	return out
}

// mustCompileFolded is regexp.MustCompile of foldedPattern(expr): for the shipped
// patterns, whose accented letters must also match the text as Normalize writes it.
func mustCompileFolded(expr string) *regexp.Regexp {
	f, err := foldedPattern(expr)
	if err != nil {
		panic(err) // a shipped pattern: the tests compile every one
	}
	return regexp.MustCompile(f)
}

// foldedPattern rewrites an RE2 pattern so that each Latin letter with diacritics it names,
// in a literal or a character class, also matches its base letter ("règles" becomes
// "r[eè]gles"): Normalize folds those letters, so the pattern must read text written both
// ways. Negated and wide classes (ranges over 1,024 code points, as in [^e] or \W) are left
// as they are, since adding a base letter to them would change what they exclude. A
// pattern without non-ASCII characters is returned as is.
func foldedPattern(expr string) (string, error) {
	if !hasNonASCII(expr) {
		return expr, nil
	}
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return "", err
	}
	if !foldSyntax(re) {
		return expr, nil
	}
	return re.String(), nil
}

// foldSyntax rewrites re in place as foldedPattern says, and reports whether it changed.
func foldSyntax(re *syntax.Regexp) bool {
	changed := false
	for _, sub := range re.Sub {
		changed = foldSyntax(sub) || changed
	}
	switch re.Op {
	case syntax.OpLiteral:
		if !slices.ContainsFunc(re.Rune, func(r rune) bool { _, ok := latinBase(r); return ok }) {
			return changed
		}
		var parts []*syntax.Regexp
		lit := func(rs []rune) {
			if len(rs) > 0 {
				parts = append(parts, &syntax.Regexp{Op: syntax.OpLiteral, Flags: re.Flags, Rune: slices.Clone(rs)})
			}
		}
		from := 0
		for i, r := range re.Rune {
			l, ok := latinBase(r)
			if !ok {
				continue
			}
			lit(re.Rune[from:i])
			from = i + 1
			class := []rune{r, r, l, l}
			if re.Flags&syntax.FoldCase != 0 {
				for _, c := range []rune{r, l} {
					for f := unicode.SimpleFold(c); f != c; f = unicode.SimpleFold(f) {
						class = append(class, f, f)
					}
				}
			}
			parts = append(parts, &syntax.Regexp{Op: syntax.OpCharClass, Rune: class})
		}
		lit(re.Rune[from:])
		*re = syntax.Regexp{Op: syntax.OpConcat, Flags: re.Flags, Sub: parts}
		return true
	case syntax.OpCharClass:
		var add []rune
		for i := 0; i+1 < len(re.Rune); i += 2 {
			lo, hi := re.Rune[i], re.Rune[i+1]
			if hi-lo >= 1024 {
				continue
			}
			for r := max(lo, latinLo); r <= hi && r <= latinAddHi; r++ {
				if l, ok := latinBase(r); ok && !classHas(re.Rune, l) && !slices.Contains(add, l) {
					add = append(add, l, l)
				}
			}
		}
		if len(add) == 0 || classHas(re.Rune, 0x10ffff) { // a negated class reaches the last code point
			return changed
		}
		re.Rune = append(re.Rune, add...)
		return true
	}
	return changed
}

// classHas reports whether the character class ranges hold r.
func classHas(ranges []rune, r rune) bool {
	for i := 0; i+1 < len(ranges); i += 2 {
		if ranges[i] <= r && r <= ranges[i+1] {
			return true
		}
	}
	return false
}
