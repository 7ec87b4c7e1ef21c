package signal

import "unicode/utf8"

// The numeric patterns (cards, SSNs, phone numbers, IPv4 addresses) match only digits and
// the separators they allow between them, but for one character the card and SSN patterns
// take after a number. Run on a whole text, each regexp tries every position of it; the
// runs below hold every match, and most texts hold few of them and short.

// numericBytes are the bytes other than digits that a match of a numeric pattern may hold:
// blanks and the separators the patterns allow.
const numericBytes = " \t\n\f\r.-()+/_,:|~*"

// isNumericByte tells the digits and numericBytes.
var isNumericByte = func() (t [256]bool) {
	for _, c := range []byte("0123456789" + numericBytes) {
		t[c] = true
	}
	return t
}()

// numericRun is a run of digits and numericBytes in a text, with how many digits it holds.
type numericRun struct{ start, end, digits int }

// wholeText stands for the runs of a scan that reads the whole text (see detect's gate).
var wholeText = []numericRun{{start: 0, end: -1}}

// minNumericDigits is the fewest digits a match of a numeric pattern holds (an IPv4 address,
// the shortest phone number the patterns match before their digits are counted).
const minNumericDigits = 4

// numericRuns returns the runs of digits and numericBytes in text that hold minNumericDigits
// digits or more.
func numericRuns(text string) []numericRun {
	var runs []numericRun
	start, digits := -1, 0
	for i := 0; i <= len(text); i++ {
		if i < len(text) && isNumericByte[text[i]] {
			if start < 0 {
				start, digits = i, 0
			}
			if isDigit(text[i]) {
				digits++
			}
			continue
		}
		if start >= 0 && digits >= minNumericDigits {
			runs = append(runs, numericRun{start, i, digits})
		}
		start = -1
	}
	return runs
}

// findInRuns returns what find(text, -1) returns, find being the FindAllStringIndex or
// FindAllStringSubmatchIndex of a pattern each of whose matches holds at least minDigits
// digits and is made of digits and numericBytes, but for one character it may take at its
// end. find reads only the runs of runs that hold minDigits digits, each with the byte before
// it and the character after it, which \b and \D read there; no match can start on either,
// so the runs' matches are the text's. runs == wholeText reads the whole text.
func findInRuns(find func(string, int) [][]int, text string, runs []numericRun, minDigits int) [][]int {
	if len(runs) == 1 && runs[0] == wholeText[0] {
		return find(text, -1)
	}
	var out [][]int
	for _, r := range runs {
		if r.digits < minDigits {
			continue
		}
		from, to := max(0, r.start-1), r.end
		if to < len(text) {
			_, size := utf8.DecodeRuneInString(text[to:])
			to += size
		}
		for _, m := range find(text[from:to], -1) {
			for i := range m {
				if m[i] >= 0 {
					m[i] += from
				}
			}
			out = append(out, m)
		}
	}
	return out
}
