package signal

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// digitWords are the English names of the digits, by value.
var digitWords = []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"}

// digitInitials holds the first letters of digitWords, in either case.
var digitInitials = func() (set [256]bool) {
	for _, w := range digitWords {
		set[w[0]], set[w[0]-('a'-'A')] = true, true
	}
	return set
}()

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
	// Most words start with a letter that starts no digit's name: decided by their first
	// byte, as EqualFold would decide it (an ASCII byte folds only to itself or its other case).
	if c := w[0]; c < utf8.RuneSelf && !digitInitials[c] {
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
var spelledSymbolRE = lazyRE(`(?i)\s*[(\[{<]\s*(at|dot)\s*[)\]}>]\s*`)

// maySpellSymbol reports whether text holds an "at" or a "dot" in brackets, as every
// spelledSymbolRE match does. Most texts hold brackets but no such word, and are spared the
// regexp, which its leading blanks make try nearly every position.
func maySpellSymbol(text string) bool {
	for i := 0; ; i++ {
		k := strings.IndexAny(text[i:], "([{<")
		if k < 0 {
			return false
		}
		i += k
		w := trimBlanks(text[i+1:])
		for _, word := range []string{"at", "dot"} {
			if len(w) > len(word) && strings.EqualFold(w[:len(word)], word) {
				if r := trimBlanks(w[len(word):]); r != "" && strings.IndexByte(")]}>", r[0]) >= 0 {
					return true
				}
			}
		}
	}
}

// spelledSymbols returns text with each "(at)" written "@" and each "(dot)" ".". at and ok
// are as for decodeEscapes.
func spelledSymbols(text string) (out string, at []int, ok bool) {
	if !maySpellSymbol(text) {
		return "", nil, false
	}
	ms := spelledSymbolRE.FindAllStringSubmatchIndex(text, -1)
	if len(ms) == 0 {
		return "", nil, false
	}
	spans := make([]replacement, len(ms))
	for i, m := range ms {
		spans[i] = replacement{m[0], m[1], '.'}
		if strings.EqualFold(text[m[2]:m[3]], "at") {
			spans[i].symbol = '@'
		}
	}
	out, at = replaceSpans(text, spans)
	return out, at, true
}

// bareAddressRE finds an e-mail address written with its "@" and "." spelled as words, set
// apart by blanks or by hyphens ("jane.doe at example dot com", "jane.doe @ example.com",
// "jane.doe -at- example -dot- com"): a local part, an "at", labels joined by "dot" or ".",
// and a common top-level domain. Whether it is an address at all is bareSymbols' to judge.
var bareAddressRE = lazyRE(`(?i)\b([a-z0-9][a-z0-9._%+\-]*)(\s+at\s+|\s*-at-\s*|\s*@\s*)[a-z0-9][a-z0-9\-]*(?:(?:\s+dot\s+|\s*-dot-\s*|\.)[a-z0-9][a-z0-9\-]*)*(?:\s+dot\s+|\s*-dot-\s*|\.)` +
	`(?:com|org|net|edu|gov|mil|io|info|biz|uk|de|fr|es|it|nl|ca|au|ch|se|dk|fi|pl|pt|ie|jp|cn|br|mx|ru)\b`)

// bareSeparatorRE finds the spelled or spaced separators inside such an address.
var bareSeparatorRE = lazyRE(`(?i)\s+(at|dot)\s+|\s*-(at|dot)-\s*|\s*@\s*`)

// emailCueRE says that what follows is an address: an "at" between plain words needs it.
var emailCueRE = lazyRE(`(?i)\b(?:e-?mail|mail|address|contact|reach|write)\b`)

// bareSymbols returns text with the spelled or spaced "@" and "." of each e-mail address
// found by bareAddressRE written as symbols. An "at" word joins an address only when its
// local part looks like one (it holds a ".", "_", "+" or a digit) or an e-mail cue comes
// shortly before ("take a look at example dot com" stays text); one joined by hyphens
// without blanks, only when its local part looks like one or its "dot" is spelled too
// ("stay-at-home.com" stays text). at and ok are as for decodeEscapes.
func bareSymbols(text string) (out string, at []int, ok bool) {
	if !mayHoldBareAddress(text) {
		return "", nil, false
	}
	var spans []replacement
	for _, m := range bareAddressRE.FindAllStringSubmatchIndex(text, -1) {
		// The separators are read from the "at" on: a local part may hold "-at-" itself.
		rest := text[m[4]:m[1]]
		if !strings.ContainsAny(rest, " \t\n") && rest[0] == '@' && !hasWordFold(rest, "dot", isHyphen) {
			continue // written as an address already
		}
		if sepRaw := text[m[4]:m[5]]; !strings.EqualFold(strings.TrimSpace(sepRaw), "@") && !strings.ContainsAny(text[m[2]:m[3]], "._+0123456789") {
			// An "at" set apart between plain words needs an e-mail cue before it; one
			// joined to them by hyphens needs its "dot" spelled too: "stay-at-home.com" is a
			// site.
			if joined := !strings.ContainsAny(sepRaw, " \t\n"); joined && !hasWordFold(rest, "dot", isHyphen) ||
				!joined && !emailCueRE.MatchString(text[max(0, m[0]-40):m[0]]) {
				continue
			}
		}
		for _, s := range bareSeparatorRE.FindAllStringSubmatchIndex(rest, -1) {
			symbol := byte('@')
			if s[2] >= 0 && strings.EqualFold(rest[s[2]:s[3]], "dot") || s[4] >= 0 && strings.EqualFold(rest[s[4]:s[5]], "dot") {
				symbol = '.'
			}
			spans = append(spans, replacement{m[4] + s[0], m[4] + s[1], symbol})
		}
	}
	if len(spans) == 0 {
		return "", nil, false
	}
	out, at = replaceSpans(text, spans)
	return out, at, true
}

// replacement is text[start:end] written as one symbol.
type replacement struct {
	start, end int
	symbol     byte
}

// replaceSpans returns text with each span (in order, not overlapping) replaced by its
// symbol, and the offset in text of each byte of the result and of its end.
func replaceSpans(text string, spans []replacement) (string, []int) {
	var b strings.Builder
	b.Grow(len(text))
	at := make([]int, 0, len(text)+1)
	last := 0
	for _, s := range spans {
		b.WriteString(text[last:s.start])
		for p := last; p < s.start; p++ {
			at = append(at, p)
		}
		b.WriteByte(s.symbol)
		at = append(at, s.start)
		last = s.end
	}
	b.WriteString(text[last:])
	for p := last; p <= len(text); p++ {
		at = append(at, p)
	}
	return b.String(), at
}

// mayHoldBareAddress is bareSymbols' quick test, which spares most text the regular
// expression: an "at" word (between blanks or hyphens), or an "@" with a blank beside it,
// followed within 100 bytes by a "dot" word (the same) or a "." and a letter; or a plain "@"
// followed so by a "dot" word.
func mayHoldBareAddress(s string) bool {
	for i := 1; i+2 < len(s); i++ {
		at := s[i]|0x20 == 'a' && s[i+1]|0x20 == 't'
		atWord := at && (isBlank(s[i-1]) && isBlank(s[i+2]) || s[i-1] == '-' && s[i+2] == '-')
		if !atWord && s[i] != '@' {
			continue
		}
		after := s[i+1 : min(len(s), i+101)]
		if hasWordFold(after, "dot", isBlank) || hasWordFold(after, "dot", isHyphen) {
			return true
		}
		spaced := atWord || isBlank(s[i-1]) || isBlank(s[i+1])
		if spaced && hasDotLetter(after) {
			return true
		}
	}
	return false
}

// hasWordFold reports whether s holds word (lower-case ASCII), in any case, between two
// bytes for which apart is true: blanks ("at" in "jane at example") or hyphens ("-at-").
func hasWordFold(s, word string, apart func(byte) bool) bool {
	for i := 1; i+len(word) < len(s); i++ {
		if apart(s[i-1]) && apart(s[i+len(word)]) && strings.EqualFold(s[i:i+len(word)], word) {
			return true
		}
	}
	return false
}

func isHyphen(c byte) bool { return c == '-' }

// hasDotLetter reports whether s holds a "." followed by an ASCII letter.
func hasDotLetter(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '.' && isASCIILetter(s[i+1]) {
			return true
		}
	}
	return false
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// rewritten returns text as a model reads it once its escapes are decoded (decodeEscapes),
// its spelled digits written as digits (spelledDigits), its spelled "@" and "." written
// as symbols (spelledSymbols, bareSymbols) and the odd separators of its numbers as "-" (oddSeparators); at maps the result's offsets to text's. ok is false when
// none of them changed anything.
func rewritten(text string) (out string, at []int, ok bool) {
	out = text
	for _, read := range []func(string) (string, []int, bool){decodeEscapes, spelledDigits, spelledSymbols, bareSymbols, oddSeparators} {
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
