package signal

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// digitWords are the English names of the digits, by value.
var digitWords = []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"}

// minSpelledDigits is the shortest run of digit names read as a number: shorter runs are
// ordinary counting ("one or two", "three to five").
const minSpelledDigits = 4

// spelledDigits returns text with each run of minSpelledDigits or more digit names written
// as digits, as a model reads "my ssn is one two three, four five, …": names that only
// spaces separate are joined ("one two three" is 123), other separators stay (", "). at and
// ok are as for decodeEscapes.
func spelledDigits(text string) (out string, at []int, ok bool) {
	type word struct {
		start, end int
		digit      byte
	}
	var run, runs []word
	flush := func() {
		if len(run) >= minSpelledDigits {
			runs = append(runs, run...)
			runs = append(runs, word{start: -1}) // the run's end
		}
		run = run[:0]
	}
	for i := 0; i < len(text); {
		if !isASCIILetter(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isASCIILetter(text[j]) {
			j++
		}
		d, isDigitName := digitOf(text[i:j])
		switch {
		case !isDigitName:
			flush()
		case len(run) > 0 && !spelledSeparator(text[run[len(run)-1].end:i]):
			flush()
			run = append(run, word{i, j, d})
		default:
			run = append(run, word{i, j, d})
		}
		i = j
	}
	flush()
	if len(runs) == 0 {
		return "", nil, false
	}
	var b strings.Builder
	b.Grow(len(text))
	at = make([]int, 0, len(text)+1)
	last := 0
	var prev *word
	for k := range runs {
		w := &runs[k]
		if w.start < 0 {
			prev = nil
			continue
		}
		if prev != nil {
			if sep := text[prev.end:w.start]; strings.TrimSpace(sep) != "" {
				b.WriteString(sep)
				for p := prev.end; p < w.start; p++ {
					at = append(at, p)
				}
			}
		} else {
			b.WriteString(text[last:w.start])
			for p := last; p < w.start; p++ {
				at = append(at, p)
			}
		}
		b.WriteByte(w.digit)
		at = append(at, w.start)
		last, prev = w.end, w
	}
	b.WriteString(text[last:])
	for p := last; p <= len(text); p++ {
		at = append(at, p)
	}
	return b.String(), at, true
}

// spelledSeparator reports whether sep may stand between two digit names of one number:
// spaces, or up to three punctuation characters and spaces ("one-two", "three, four").
func spelledSeparator(sep string) bool {
	if len(sep) > 4 {
		return false
	}
	for i := 0; i < len(sep); i++ {
		if c := sep[i]; c != ' ' && c != '-' && c != ',' && c != '.' && c != '/' {
			return false
		}
	}
	return true
}

// digitOf returns the digit ('0' to '9') that w names, if it names one.
func digitOf(w string) (byte, bool) {
	if len(w) < 3 || len(w) > 5 {
		return 0, false
	}
	for d, name := range digitWords {
		if strings.EqualFold(w, name) {
			return "0123456789"[d], true
		}
	}
	return 0, false
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// spelledSymbolRE finds "(at)" and "[dot]" (in any bracket, any case), as e-mail addresses
// are written to hide them from scrapers and as a model reads them.
var spelledSymbolRE = regexp.MustCompile(`(?i)\s*[(\[{<]\s*(at|dot)\s*[)\]}>]\s*`)

// spelledSymbols returns text with each "(at)" written "@" and each "(dot)" ".". at and ok
// are as for decodeEscapes.
func spelledSymbols(text string) (out string, at []int, ok bool) {
	if !strings.ContainsAny(text, "([{<") {
		return "", nil, false
	}
	ms := spelledSymbolRE.FindAllStringSubmatchIndex(text, -1)
	if len(ms) == 0 {
		return "", nil, false
	}
	var b strings.Builder
	b.Grow(len(text))
	at = make([]int, 0, len(text)+1)
	last := 0
	for _, m := range ms {
		b.WriteString(text[last:m[0]])
		for p := last; p < m[0]; p++ {
			at = append(at, p)
		}
		if strings.EqualFold(text[m[2]:m[3]], "at") {
			b.WriteByte('@')
		} else {
			b.WriteByte('.')
		}
		at = append(at, m[0])
		last = m[1]
	}
	b.WriteString(text[last:])
	for p := last; p <= len(text); p++ {
		at = append(at, p)
	}
	return b.String(), at, true
}

// rewritten returns text as a model reads it once its escapes are decoded (decodeEscapes),
// its spelled digits written as digits (spelledDigits), its spelled "@" and "." written
// as symbols (spelledSymbols) and the odd separators of its numbers as "-" (oddSeparators); at maps the result's offsets to text's. ok is false when
// none of them changed anything.
func rewritten(text string) (out string, at []int, ok bool) {
	out = text
	for _, read := range []func(string) (string, []int, bool){decodeEscapes, spelledDigits, spelledSymbols, oddSeparators} {
		next, nat, changed := read(out)
		if !changed {
			continue
		}
		if at != nil {
			for i, p := range nat {
				nat[i] = at[p]
			}
		}
		out, at, ok = next, nat, true
	}
	return out, at, ok
}

// minSeparatedGroups is how many digit groups one odd separator must join before the groups
// are read as one number: an SSN has three, a card four.
const minSeparatedGroups = 3

// oddSeparators returns text with the separators that join three or more digit groups,
// each the same, written "-", when the detectors would not read them as one: an "x" or a
// symbol or emoji ("4111x1111x1111x1111", "123🙂45🙂6789"), which a model reads past.
// Other letters are left: hexadecimal digests hold digits between letters by chance. at and
// ok are as for decodeEscapes.
func oddSeparators(text string) (out string, at []int, ok bool) {
	type sep struct{ start, end int }
	var chain, all []sep
	flush := func() {
		if len(chain)+1 >= minSeparatedGroups {
			all = append(all, chain...)
		}
		chain = chain[:0]
	}
	i := 0
	for i < len(text) {
		if !isDigit(text[i]) {
			i++
			continue
		}
		for i < len(text) && isDigit(text[i]) {
			i++
		}
		r, n := utf8.DecodeRuneInString(text[i:])
		if n == 0 || !oddSeparator(r) || i+n >= len(text) || !isDigit(text[i+n]) {
			flush()
			continue
		}
		if len(chain) > 0 && text[chain[0].start:chain[0].end] != text[i:i+n] {
			flush()
		}
		chain = append(chain, sep{i, i + n})
		i += n
	}
	flush()
	if len(all) == 0 {
		return "", nil, false
	}
	var b strings.Builder
	b.Grow(len(text))
	at = make([]int, 0, len(text)+1)
	last := 0
	for _, s := range all {
		b.WriteString(text[last:s.start])
		for p := last; p < s.start; p++ {
			at = append(at, p)
		}
		b.WriteByte('-')
		at = append(at, s.start)
		last = s.end
	}
	b.WriteString(text[last:])
	for p := last; p <= len(text); p++ {
		at = append(at, p)
	}
	return b.String(), at, true
}

func oddSeparator(r rune) bool {
	if r == 'x' || r == 'X' {
		return true
	}
	return r >= utf8.RuneSelf && r != utf8.RuneError && (unicode.IsSymbol(r) || unicode.IsPunct(r))
}
