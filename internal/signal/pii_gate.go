package signal

import (
	"strings"
	"unicode/utf8"
)

// textFacts are cheap facts about a text, gathered in one pass, that rule out whole PII
// patterns before their regular expressions run. Each gate below is a necessary condition
// of its pattern, so skipping a pattern never changes what Detect finds; most prompts hold
// no long digit groups, no dotted numbers and no colons, and skip most patterns.
type textFacts struct {
	// digitGroup is the most ASCII digits in one group: digits joined by at most four
	// characters of " \n.-/_,:|~*+()", as every numeric pattern (card, SSN, phone) spells
	// its digits.
	digitGroup int
	// digitDots counts a digit, '.', a digit: an IPv4 address has three.
	digitDots int
	// colons counts ':': an IPv6 candidate has at least two.
	colons int
	// ibanStart: two letters then two digits, as every IBAN starts (written in capitals or
	// not).
	ibanStart bool
}

// Digits a numeric type needs in one group (its pattern and validator reject fewer).
const (
	minPhoneDigits = 8  // international numbers; North American 10, national 9
	minSSNDigits   = 9  // 123-45-6789 or nine digits after a cue
	minCardDigits  = 13 // the shortest Visa
)

// allFacts lets every pattern run (the ungated scan the gates are checked against).
var allFacts = textFacts{digitGroup: 1 << 30, digitDots: 1 << 30, colons: 1 << 30, ibanStart: true}

func factsOf(text string) textFacts {
	var f textFacts
	group, gap := 0, 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c >= '0' && c <= '9':
			group++
			gap = 0
			f.digitGroup = max(f.digitGroup, group)
			if i+2 < len(text) && text[i+1] == '.' && text[i+2] >= '0' && text[i+2] <= '9' {
				f.digitDots++
			}
			if i >= 3 && isASCIILetter(text[i-3]) && isASCIILetter(text[i-2]) && isDigit(text[i-1]) {
				f.ibanStart = true
			}
		case group > 0 && gap < 4 && strings.IndexByte(" \n.-/_,:|~*+()", c) >= 0:
			gap++
			if c == ':' {
				f.colons++
			}
		default:
			group, gap = 0, 0
			if c == ':' {
				f.colons++
			}
		}
	}
	return f
}

// isREWordByte is RE2's \w: ASCII letters, digits and '_'.
func isREWordByte(c byte) bool {
	return isWordByte(c) || c == '_'
}

// hasValueRun reports whether s holds 20 runes in a row that secretCueRE's value class
// ([A-Za-z0-9+/_\-] case-folded, which adds U+017F and U+212A) accepts: no match of
// secretCueRE is possible without one.
func hasValueRun(s string) bool {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		size := 1
		ok := valueBytes[c]
		if c >= utf8.RuneSelf {
			var r rune
			r, size = utf8.DecodeRuneInString(s[i:])
			ok = r == 'ſ' || r == 'K'
		}
		if ok {
			n++
			if n >= 20 {
				return true
			}
		} else {
			n = 0
		}
		i += size
	}
	return false
}

// valueBytes holds the ASCII characters of secretCueRE's value class.
var valueBytes = byteSet(func(c byte) bool { return isREWordByte(c) || c == '+' || c == '/' || c == '-' })

// Street-type endings deStreetRE needs right before whitespace and a house number.
var deStreetEndings = withFolded([]string{"straße", "strasse", "str.", "weg", "gasse", "platz", "allee", "ring", "damm", "ufer", "chaussee",
	"stieg", "steig", "graben", "markt", "gracht", "plein", "laan", "straat", "gade", "vej", "gatan", "vägen", "katu", "utca"})

// deStreetLast holds the last byte of each of deStreetEndings.
var deStreetLast = func() (last [256]bool) {
	for _, e := range deStreetEndings {
		last[e[len(e)-1]] = true
	}
	return last
}()

// mayHoldDEStreet reports whether some house number follows whitespace after one of the
// German street-type endings, which every deStreetRE match needs.
func mayHoldDEStreet(text string, nums []numberRun) bool {
	for _, n := range nums {
		before := text[:n.start]
		t := strings.TrimRight(before, "\t\n\f\r ")
		if len(t) == len(before) || t == "" || !deStreetLast[t[len(t)-1]] {
			continue
		}
		for _, e := range deStreetEndings {
			if strings.HasSuffix(t, e) {
				return true
			}
		}
	}
	return false
}

// latStreetWords are the words every latStreetRE match starts with (case-sensitive).
var latStreetWords = []string{"Calle", "Avenida", "Av.", "Plaza", "Paseo", "Carrer", "Rua", "Via", "Piazza", "Corso"}

// mayHoldGulfStreet reports whether one of gulfStreetWords is followed by blanks, an optional
// "No" or "No.", optional blanks and a digit, as in every gulfStreetRE match ("Villa 5",
// "House No. 12"): prose holds "House" and "Office" often, and a number after them seldom.
func mayHoldGulfStreet(text string) bool {
	for _, w := range gulfStreetWords {
		for from := 0; ; {
			i := strings.Index(text[from:], w)
			if i < 0 {
				break
			}
			from += i + len(w)
			rest := text[from:]
			r := trimBlanks(rest)
			if len(r) == len(rest) {
				continue
			}
			if strings.HasPrefix(r, "No") {
				r = trimBlanks(strings.TrimPrefix(r[2:], "."))
			}
			if r != "" && isDigit(r[0]) {
				return true
			}
		}
	}
	return false
}

// poBoxEnds are the words every poBoxRE alternative ends with, less an "e" ("postal" and
// "postale" end in "tal"), none of them holding 'k' or 's', whose case-folded forms include
// non-ASCII letters (U+212A, U+017F); and what each alternative holds right before it.
var poBoxEnds = []struct {
	word   string
	before func(string) bool
}{
	{"box", func(t string) bool { // "p.o. box", "PO Box", "post office box"
		t = strings.TrimRight(t, reSpace)
		if hasSuffixFoldASCII(t, "office") {
			return true
		}
		t = strings.TrimSuffix(t, ".")
		if !hasSuffixFoldASCII(t, "o") {
			return false
		}
		t = t[:len(t)-1]
		if t != "" && isREBlank(t[len(t)-1]) {
			t = t[:len(t)-1]
		}
		return hasSuffixFoldASCII(strings.TrimSuffix(t, "."), "p")
	}},
	{"fach", func(t string) bool { return hasSuffixFoldASCII(t, "t") }}, // "postfach"
	{"apartado", func(string) bool { return true }},
	{"tal", func(t string) bool { // "apartado postal", "boîte postale"
		return hasSuffixFoldASCII(t, "s") || strings.HasSuffix(t, "ſ")
	}},
}

// mayHoldPOBox reports whether some number follows optional blanks, an optional "#" and
// optional blanks after one of poBoxEnds, in any case and after what its alternative holds
// before it, as in every poBoxRE match ("PO Box 4411", "Postfach 12 34", "boîte postale
// 12"): "a 10 kg box 2 meters" and "a total 5" are not. It looks back from each number.
func mayHoldPOBox(text string) bool {
	for i := 0; i < len(text); i++ {
		if !isDigit(text[i]) || i > 0 && isDigit(text[i-1]) {
			continue
		}
		t := strings.TrimRight(strings.TrimSuffix(strings.TrimRight(text[:i], reSpace), "#"), reSpace)
		for _, end := range poBoxEnds {
			u := t
			if end.word == "tal" && (strings.HasSuffix(u, "e") || strings.HasSuffix(u, "E")) {
				u = u[:len(u)-1] // "postale"
			}
			if hasSuffixFoldASCII(u, end.word) && end.before(u[:len(u)-len(end.word)]) {
				return true
			}
		}
	}
	return false
}

// hasSuffixFoldASCII reports whether s ends with suffix (lower-case ASCII) in any case.
func hasSuffixFoldASCII(s, suffix string) bool {
	return len(s) >= len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix)
}

func containsAnyOf(text string, subs []string) bool {
	for _, s := range subs {
		if strings.Contains(text, s) {
			return true
		}
	}
	return false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
