package signal

import (
	"encoding/hex"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// minEncodedRun is the shortest run of base64 or hex characters read decoded for personal
// data: 12 characters of base64 hold 9 bytes, an SSN's digits or a short e-mail address
// ("am9AZXguY29t" is jo@ex.com; an SSN with its dashes, unpadded, takes 15). Long words and
// identifiers are read too, and decode to bytes that are not text, which ends it.
const minEncodedRun = 12

// encodedFindings reports the personal data written in base64 or hex (bytes together or
// one apart, "31 32 33 2d"; see spacedHexRuns) inside text, which a
// model decodes as readily as it reads plain text. A run whose decoded text is printable is
// scanned as text (runs encoded again inside it too: each level is shorter); each type found
// there gives a finding that spans the whole encoded run, so masking replaces the run. Runs
// that overlap a finding of the plain text are left to it.
func (d *PIIDetector) encodedFindings(text string, plain []PIIFinding, gate bool) []PIIFinding {
	var out []PIIFinding
	runs := append(encodedRuns(text), spacedHexRuns(text)...)
	slices.SortStableFunc(runs, func(a, b [2]int) int { return a[0] - b[0] })
	for _, run := range runs {
		// plain is sorted, and so is out, run after run: a text of many runs costs no more
		// than their number times its log.
		if overlapsLastSpan(out, findingSpan, run[0]) || overlapsSorted(plain, findingSpan, run[0], run[1]) {
			continue
		}
		decoded, ok := decodeRun(text[run[0]:run[1]])
		if !ok {
			continue
		}
		inner := d.detect(decoded, gate, maxEscapeLevels) // each level is a quarter shorter
		for _, t := range inner.Types() {
			out = append(out, PIIFinding{Type: t, Start: run[0], End: run[1], Text: text[run[0]:run[1]]})
		}
	}
	return out
}

// maxEscapeLevels bounds how many times escapes are decoded in a row, and so the cost: each
// level of "%2525…" is only two bytes shorter than the last, and a request could ask for a
// million of them.
const maxEscapeLevels = 3

// escapedFindings reports the personal data that text shows once its character escapes are
// decoded and what it spells is written out (see rewritten): "123%2D45%2D6789",
// "jane\u0040example.com", "one two three four five six seven eight nine", "jane (at)
// example (dot) com". Each finding spans the text it came from, so masking replaces it;
// findings that overlap one of the plain text are left to it. levels more levels are
// decoded in the result ("%2540" is "%40" and then "@").
func (d *PIIDetector) escapedFindings(text string, plain []PIIFinding, gate bool, levels int) []PIIFinding {
	decoded, at, ok := rewritten(text)
	if !ok {
		return nil
	}
	var out []PIIFinding
	for _, f := range d.detect(decoded, gate, levels).Findings {
		s := [2]int{at[f.Start], at[f.End]}
		// The decoded text's findings come sorted, and so do their spans here: one that
		// overlaps out overlaps its last finding, unless it is the same span (another type
		// of one encoded run).
		last := len(out) - 1
		sameAsLast := last >= 0 && out[last].Start == s[0] && out[last].End == s[1]
		if overlapsLastSpan(out, findingSpan, s[0]) && !sameAsLast || overlapsSorted(plain, findingSpan, s[0], s[1]) {
			continue
		}
		out = append(out, PIIFinding{Type: f.Type, Start: s[0], End: s[1], Text: text[s[0]:s[1]]})
	}
	return out
}

// encodedRuns returns the runs of at least minEncodedRun base64 characters (either
// alphabet, with its padding) in text.
func encodedRuns(text string) [][2]int {
	var runs [][2]int
	start := -1
	for i := 0; i <= len(text); i++ {
		if i < len(text) && isBase64Byte(text[i]) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			end := i
			for end < len(text) && text[end] == '=' && end-i < 2 {
				end++
			}
			if end-start >= minEncodedRun {
				runs = append(runs, [2]int{start, end})
			}
			start = -1
		}
	}
	return runs
}

// minSpacedHexPairs is the fewest bytes of hex written one apart that are read decoded: an
// e-mail address takes six ("a@b.io"), an SSN nine.
const minSpacedHexPairs = 6

// spacedHexRuns returns the runs of at least minSpacedHexPairs bytes written as hex digit
// pairs with one space or one colon between each two, the same throughout ("31 32 33 2d
// 34 35", as a hex dump shows them), standing apart from the words around them. It looks
// only where a separator follows a pair, which spares ordinary text a byte-by-byte scan.
func spacedHexRuns(text string) [][2]int {
	var runs [][2]int
	for _, sep := range []byte{' ', ':'} {
		for p := 0; p < len(text); {
			k := strings.IndexByte(text[p:], sep)
			if k < 0 {
				break
			}
			start := p + k - 2
			p += k + 1
			if start < 0 || !isHexDigit(text[start]) || !isHexDigit(text[start+1]) || start > 0 && isWordByte(text[start-1]) {
				continue
			}
			end, pairs := start+2, 1
			for end+3 <= len(text) && text[end] == sep && isHexDigit(text[end+1]) && isHexDigit(text[end+2]) {
				end += 3
				pairs++
			}
			if pairs >= minSpacedHexPairs && (end == len(text) || !isWordByte(text[end])) {
				runs = append(runs, [2]int{start, end})
			}
			p = max(p, end)
		}
	}
	return runs
}

func isBase64Byte(c byte) bool { return base64Bytes[c] }

// base64Bytes holds both base64 alphabets: a table, as encodedRuns asks about every byte of a
// text.
var base64Bytes = byteSet(func(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '-' || c == '_'
})

// decodeRun decodes a run as hex when it is all hex digits or spaced hex (spacedHexRuns),
// else as base64, and reports whether the result is text: valid UTF-8, every rune printable
// or a line break or tab.
func decodeRun(run string) (string, bool) {
	var b []byte
	var err error
	if len(run) > 2 && (run[2] == ' ' || run[2] == ':') {
		digits := make([]byte, 0, len(run)/3*2+2)
		for i := 0; i+2 <= len(run); i += 3 {
			digits = append(digits, run[i], run[i+1])
		}
		b = make([]byte, hex.DecodedLen(len(digits)))
		_, err = hex.Decode(b, digits)
	} else if isHex(run) {
		b, err = hex.DecodeString(run[:len(run)/2*2])
	} else if enc := base64Encoding(run); enc != nil {
		b, err = enc.DecodeString(run)
	} else {
		return "", false
	}
	if err != nil || !utf8.Valid(b) {
		return "", false
	}
	for _, r := range string(b) {
		if !unicode.IsPrint(r) && r != '\n' && r != '\t' && r != '\r' {
			return "", false
		}
	}
	return string(b), true
}
