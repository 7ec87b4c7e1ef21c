package signal

import (
	"html"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Normalize returns text as the detectors read it, so that a look-alike spelling matches what
// it imitates:
//
//   - HTML character references are decoded ("&#49;" reads "1", "&amp;" "&");
//   - tag characters (U+E0020-E007E), invisible copies of ASCII, read as the ASCII they
//     encode, as a model reads them (decodeTags); the other tag characters are removed;
//   - invisible characters are removed: format characters (zero-width space, joiner and
//     non-joiner, word joiner, BOM, soft hyphen, bidi embeddings, overrides and isolates),
//     variation selectors, the combining grapheme joiner, Hangul fillers, control characters
//     other than whitespace, and U+FFFD, which invalid bytes become;
//   - Unicode NFKC: full-width and other compatibility forms become their plain letters and
//     digits, ligatures are split, non-breaking spaces become spaces;
//   - the decimal digits of every script become ASCII digits (Arabic-Indic, Devanagari, ...),
//     hyphens, dashes and the minus sign become "-", middle dots and bullets ".";
//   - Latin letters drawn like plain ones (small capitals, IPA letters: ᴀ ɢ ɑ ɡ ȷ ʏ) become
//     the plain letter everywhere; Cyrillic, Greek, Armenian, Cherokee and Lisu letters that
//     look Latin (confusables.go) are replaced by the Latin letter, but only inside a word
//     that also holds Latin letters ("pаypal" with a Cyrillic а, "ignօre" with an Armenian
//     օ), or in a word of look-alikes only whose neighbouring words are Latin and not of
//     another script ("run ехес now" with a Cyrillic "ехес"). Russian, Ukrainian, Greek or
//     Armenian text is left as written;
//   - Latin letters with diacritics become their base letters, whether typed precomposed or
//     as a letter and combining marks, which NFKC composes ("Ígnóre" and "exámple" read
//     "Ignore" and "example"); the combining marks left after a Latin, Greek, Cyrillic or
//     Armenian letter, a digit or ASCII punctuation are removed, as they only split a word or
//     a number ("1̲2̲3̲" reads "123") (foldAccents). Greek and Cyrillic letters written
//     precomposed (έ, й) and the marks of scripts that write with them (Devanagari, Thai,
//     Arabic, Hebrew, ...) are kept. The detectors' lexicons and patterns written with
//     accents match the folded text too (withFolded, mustCompileFolded);
//   - regional indicator symbols, which draw flags in pairs, become the capital letters they
//     stand for (foldRegionalIndicators);
//   - runs of whitespace become one space, or one newline when the run holds a line break,
//     and leading and trailing whitespace is removed.
//
// Case is kept. Plain ASCII text without whitespace runs is returned as is, without
// allocating. Normalize is idempotent and safe for concurrent use.
func Normalize(s string) string {
	// Of every step, only the whitespace's changes printable ASCII without '&'.
	if out, ok := collapsePlainASCII(s); ok {
		return out
	}
	// A character reference can spell another one ("&amp;#49;"), and NFKC can make one
	// ("＆#49;"): passes repeat until the text holds none.
	for range 4 {
		next := normalizeOnce(s)
		if next == s || !strings.Contains(next, "&") {
			return next
		}
		s = next
	}
	return s
}

func normalizeOnce(s string) string {
	if strings.Contains(s, "&") {
		s = html.UnescapeString(s)
	}
	s = dropInvisible(decodeTags(s))
	if !norm.NFKC.IsNormalString(s) {
		// NFKC can expose a character removed above (a compatibility form of a format
		// character), so drop again.
		s = dropInvisible(norm.NFKC.String(s))
	}
	s = foldDigitsAndDashes(s)
	s = foldConfusables(s)
	s = foldAccents(s)
	s = foldRegionalIndicators(s)
	return collapseSpace(s)
}

// foldRegionalIndicators reads the regional indicator symbols (U+1F1E6-1F1FF, two of which
// draw a country's flag) as the capital letters they stand for: "🇮🇬🇳🇴🇷🇪" spells IGNORE to a
// model, and a flag reads as its country's code.
func foldRegionalIndicators(s string) string {
	// Each is F0 9F 87 A6-BF in UTF-8.
	if !strings.Contains(s, "\xf0\x9f\x87") {
		return s
	}
	return strings.Map(func(r rune) rune {
		if r >= 0x1F1E6 && r <= 0x1F1FF {
			return 'A' + r - 0x1F1E6
		}
		return r
	}, s)
}

// isMark reports a non-spacing or enclosing combining mark.
func isMark(r rune) bool {
	return r >= 0x300 && (unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r))
}

// precomposedScript reports whether r is ASCII or Latin-1 (letters, digits, punctuation,
// spaces), or a letter of a script whose text carries no combining marks once NFKC has
// composed it: Latin, Greek, Cyrillic, Armenian, and the Cherokee and Lisu letters that
// imitate Latin ones. (Marks on Cyrillic, such as Russian stress marks, are dropped too:
// the detectors read the word without them.)
func precomposedScript(r rune) bool {
	return r < 0x100 || unicode.In(r, unicode.Latin, unicode.Greek, unicode.Cyrillic, unicode.Armenian, unicode.Cherokee, unicode.Lisu)
}

// foldDigitsAndDashes writes the decimal digits of every script as ASCII digits
// ("١٢٣" and "१२३" read "123"), the dashes and minus sign as "-" and the middle dots as ".",
// so that a number is one number however it is written; s itself is returned when it has
// none of them.
func foldDigitsAndDashes(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r < 0x80:
		case isDash(r):
			return '-'
		case isMiddleDot(r):
			return '.'
		case unicode.Is(unicode.Nd, r):
			return '0' + digitValue(r)
		}
		return r
	}, s)
}

// isDash reports whether r is a hyphen, dash or minus sign other than ASCII's.
func isDash(r rune) bool {
	return r >= 0x2010 && r <= 0x2015 || r == 0x2043 || r == 0x2212 || r == 0x2e3a || r == 0x2e3b ||
		r == 0xfe31 || r == 0xfe32 || r == 0xfe58 || r == 0xfe63 || r == 0xff0d
}

// isMiddleDot reports whether r is a dot drawn at mid-height (middle dot, bullet, bullet and
// dot operators, hyphenation point), which separates digit groups as "." does.
func isMiddleDot(r rune) bool {
	return r == 0xb7 || r == 0x2022 || r == 0x2027 || r == 0x2219 || r == 0x22c5
}

// digitValue returns the value of a decimal digit: Unicode encodes the digits of each
// script as ten consecutive characters from zero to nine, so it is the digit's distance
// from the start of its run, modulo ten (runs of several styles follow each other).
func digitValue(r rune) rune {
	n := rune(0)
	for unicode.Is(unicode.Nd, r-n-1) {
		n++
	}
	return n % 10
}

// asciiClass sorts the bytes for collapsePlainASCII: printable ASCII other than '&' (which
// may start a character reference), ASCII whitespace, and every other byte.
var asciiClass = func() (t [256]uint8) {
	for c := range t {
		switch {
		case c < utf8.RuneSelf && asciiSpace[c]:
			t[c] = asciiWhite
		case c < 0x21 || c > 0x7e || c == '&':
			t[c] = asciiOther
		}
	}
	return t
}()

const (
	asciiPlain uint8 = iota
	asciiWhite
	asciiOther
)

// collapsePlainASCII is Normalize for text of printable ASCII other than '&' and ASCII
// whitespace, which no step changes but collapseSpace: in one pass, copying nothing while
// the text is already collapsed (s itself is returned then). It returns false as soon as it
// meets any other byte.
func collapsePlainASCII(s string) (string, bool) {
	var b strings.Builder
	copying := false
	for i := 0; i < len(s); {
		switch asciiClass[s[i]] {
		case asciiPlain:
			j := i + 1
			for j < len(s) && asciiClass[s[j]] == asciiPlain {
				j++
			}
			if copying {
				b.WriteString(s[i:j])
			}
			i = j
		case asciiWhite:
			j, newline := i, false
			for ; j < len(s) && asciiClass[s[j]] == asciiWhite; j++ {
				newline = newline || s[j] == '\n' || s[j] == '\r'
			}
			// The run becomes nothing at either end, a line break when it holds one, a
			// space otherwise.
			var gap byte
			switch {
			case i == 0 || j == len(s):
			case newline:
				gap = '\n'
			default:
				gap = ' '
			}
			if !copying && (j != i+1 || s[i] != gap) {
				copying = true
				b.Grow(len(s))
				b.WriteString(s[:i])
			}
			if copying && gap != 0 {
				b.WriteByte(gap)
			}
			i = j
		default:
			return "", false
		}
	}
	if !copying {
		return s, true
	}
	return b.String(), true
}

// writeGap writes what a whitespace run between two words collapses to: a newline when the
// run held a line break, a space otherwise, and nothing before the first word.
func writeGap(b *strings.Builder, newline bool) {
	switch {
	case b.Len() == 0:
	case newline:
		b.WriteByte('\n')
	default:
		b.WriteByte(' ')
	}
}

// invisible reports whether r renders as nothing and must not separate or join letters.
func invisible(r rune) bool {
	switch {
	case r == '\t' || r == '\n' || r == '\r' || r == '\v' || r == '\f':
		return false
	case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0): // C0 and C1 controls
		return true
	case r == 0x034f, // combining grapheme joiner
		r == 0x115f || r == 0x1160 || r == 0x3164 || r == 0xffa0, // Hangul fillers
		r == utf8.RuneError,                                      // what invalid bytes were decoded as: they hide nothing
		r >= 0xfe00 && r <= 0xfe0f, r >= 0xe0100 && r <= 0xe01ef: // variation selectors
		return true
	case r < 0xad:
		return false
	}
	// Cf: soft hyphen, zero-width characters, bidi controls, BOM, ... (decodeTags has read
	// or removed the tags.)
	return unicode.Is(unicode.Cf, r)
}

// dropInvisible removes the invisible characters; s itself is returned when it has none.
func dropInvisible(s string) string {
	i := strings.IndexFunc(s, invisible)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for _, r := range s[i:] {
		if !invisible(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// wordScript classifies a word by its letters.
type wordScript uint8

const (
	scriptNone      wordScript = iota // no letters (digits, punctuation)
	scriptLatin                       // Latin letters only
	scriptMixed                       // Latin letters and look-alikes, nothing else
	scriptLookalike                   // look-alikes only
	scriptOther                       // any other letter: real Cyrillic, Greek, CJK, ...
)

type wordSpan struct {
	start, end int
	script     wordScript
}

// foldConfusables replaces look-alike letters as Normalize describes.
func foldConfusables(s string) string {
	if !hasLookalike(s) {
		return s
	}
	s = foldLatinLookalikes(s)
	words := scriptWords(s)
	fold := make([]bool, len(words))
	folded := false
	for i, w := range words {
		switch w.script {
		case scriptMixed:
			fold[i] = true
		case scriptLookalike:
			// Folded between Latin words: the nearest words on each side that are not
			// look-alikes themselves decide; at least one must be Latin and none other.
			left, right := neighbourScript(words, i, -1), neighbourScript(words, i, 1)
			latin := left == scriptLatin || left == scriptMixed || right == scriptLatin || right == scriptMixed
			fold[i] = latin && left != scriptOther && right != scriptOther
		}
		folded = folded || fold[i]
	}
	if !folded {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	last := 0
	for i, w := range words {
		if !fold[i] {
			continue
		}
		b.WriteString(s[last:w.start])
		for _, r := range s[w.start:w.end] {
			if l, ok := confusable[r]; ok {
				r = l
			}
			b.WriteRune(r)
		}
		last = w.end
	}
	b.WriteString(s[last:])
	return b.String()
}

// scriptWords splits s into words (runs of letters, marks and digits) with their script.
func scriptWords(s string) []wordSpan {
	var out []wordSpan
	start := -1
	var latin, look, other bool
	flush := func(end int) {
		if start < 0 {
			return
		}
		sc := scriptNone
		switch {
		case other:
			sc = scriptOther
		case latin && look:
			sc = scriptMixed
		case latin:
			sc = scriptLatin
		case look:
			sc = scriptLookalike
		}
		out = append(out, wordSpan{start, end, sc})
		start, latin, look, other = -1, false, false, false
	}
	for i, r := range s {
		switch {
		case unicode.IsLetter(r):
			if start < 0 {
				start = i
			}
			if _, ok := confusable[r]; ok {
				look = true
			} else if r < utf8.RuneSelf || unicode.Is(unicode.Latin, r) {
				latin = true
			} else {
				other = true
			}
		case unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || r == '\'':
			if start < 0 {
				start = i
			}
		default:
			flush(i)
		}
	}
	flush(len(s))
	return out
}

// neighbourScript is the script of the nearest word in direction dir from words[i] that has
// letters and is not made of look-alikes only; scriptNone when there is none.
func neighbourScript(words []wordSpan, i, dir int) wordScript {
	for j := i + dir; j >= 0 && j < len(words); j += dir {
		if sc := words[j].script; sc != scriptNone && sc != scriptLookalike {
			return sc
		}
	}
	return scriptNone
}

// collapseSpace turns each whitespace run into one space (one newline when the run holds a
// line break) and trims both ends.
func collapseSpace(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	inRun, newline := false, false
	for _, r := range s {
		if unicode.IsSpace(r) {
			inRun = true
			newline = newline || r == '\n' || r == '\r' || r == 0x2028 || r == 0x2029
			continue
		}
		if inRun {
			writeGap(&b, newline)
		}
		inRun, newline = false, false
		b.WriteRune(r)
	}
	return b.String()
}

// Tag characters (U+E0000-E007F) are invisible copies of ASCII: U+E0020-E007E stand for
// U+0020-007E, U+E0001 begins a language tag and U+E007F cancels.
const (
	tagFirst, tagLast = 0xe0000, 0xe007f
	tagBlackFlag      = 0x1f3f4 // 🏴, which tags make a subdivision flag
)

// decodeTags writes the tag characters as the ASCII they encode, since a model reads them
// so and they hide text from anyone who reads the prompt ("ASCII smuggling"), and drops the
// others (language tag, cancel tag, unassigned). The tags of an emoji subdivision flag
// (🏴 and 2 to 7 lower-case letters or digits ended by the cancel tag: England's, Scotland's)
// are dropped as well, leaving the flag. s itself is returned when it has no tag.
func decodeTags(s string) string {
	// Every tag character is F3 A0 80 xx or F3 A0 81 xx in UTF-8.
	if !strings.Contains(s, "\xf3\xa0\x80") && !strings.Contains(s, "\xf3\xa0\x81") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	flag := false // in the tags after a black flag
	for i, r := range s {
		switch {
		case r < tagFirst || r > tagLast:
			b.WriteRune(r)
			flag = r == tagBlackFlag && flagTags(s[i+utf8.RuneLen(r):])
		case flag:
			flag = r != tagLast
		case r >= tagFirst+0x20 && r < tagLast:
			b.WriteByte(byte(r - tagFirst))
		}
	}
	return b.String()
}

// flagTags reports whether s starts with the tags of a subdivision flag: 2 to 7 tag
// letters or digits, then the cancel tag.
func flagTags(s string) bool {
	n := 0
	for _, r := range s {
		switch {
		case r == tagLast:
			return n >= 2
		case n < 7 && (r >= tagFirst+'a' && r <= tagFirst+'z' || r >= tagFirst+'0' && r <= tagFirst+'9'):
			n++
		default:
			return false
		}
	}
	return false
}
