package signal

import (
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/semantic-router/semantic-router/internal/wordindex"
)

// shippedSurnames is surnameSet, built once (some 43,000 names) and shared read-only by every
// detector.
var shippedSurnames = sync.OnceValue(surnameSet)

// surnameSet is familyNames as a set, less the words that start sentences or name things
// (notNameWords) and the surnames of figures so often asked about that naming them is not
// personal data (famousSurnames).
func surnameSet() nameSet {
	x := wordindex.New(len(familyNames)/6, 6)
	for n := range strings.FieldsSeq(familyNames) {
		if !notNameWords[n] && !famousSurnames[n] {
			x.AddString(n)
		}
	}
	return nameSet{shipped: x}
}

// knownName reports whether w, a capitalised word, possibly possessive, is a shipped first or
// family name.
func (d *PIIDetector) knownName(w string) bool {
	w = trimPossessive(w)
	return d.givenNames.holdsLower(w) || d.surnames.holdsLower(w)
}

// strongGivenName reports whether w, possibly possessive, is a shipped first name of four
// letters or more that is not one of the loose ones: after a family name a short or loose one
// is too often a syllable of a place ("Chiang Mai").
func (d *PIIDetector) strongGivenName(w string) bool {
	w = trimPossessive(w)
	return utf8.RuneCountInString(w) >= 4 && d.givenNames.holdsLower(w) && !d.looseGiven.holdsLower(w)
}

// roleCues are the role nouns among personCues, which may come right before a lone family
// name ("patient Nguyen", "young Kabir"); ofCues take "of" after them.
var roleCues = wordSetOf(`customer client patient employee tenant colleague manager candidate applicant student user
	resident young little guest visitor member`)

// isSurname reports whether w, a capitalised word, possibly possessive, is a shipped family
// name.
func (d *PIIDetector) isSurname(w string) bool {
	return d.surnames.holdsLower(trimPossessive(w))
}

// surnameEvidence reports whether a known family name makes a run a person's name where the
// cues of isName alone do not: known first names before it ("Ajay Kulkarni", where Ajay is a
// loose first name), a known first name after it ("Sharma Priya"), a role noun before a lone
// family name ("patient Nguyen") or a comma and a known first name after it ("Kowalski,
// Anna"). tail is the text before the run, after the text after it; context that makes the run
// something other than a person has already been ruled out.
func (d *PIIDetector) surnameEvidence(tail string, words []string, after string) bool {
	last := words[len(words)-1]
	if len(words) == 2 && d.isSurname(words[0]) && d.strongGivenName(last) {
		return true // the family name first, as in Hungarian or a list: "Sharma Priya"
	}
	if !d.isSurname(last) {
		return false
	}
	if len(words) >= 2 {
		// Every word before the family name must be a known first name: any capitalised word
		// would take "Apache Kafka", "Chicken Tikka Masala" and a German noun before a name,
		// and two family names "Yin Yang".
		for _, w := range words[:len(words)-1] {
			if !d.givenNames.holdsLower(w) {
				return false
			}
		}
		return true
	}
	// Only a role noun: firms named after their founders are called, asked and emailed too
	// ("Contact Bosch", "Ask Roche"), and say and do things ("Bosch said").
	if cueBefore(tail, roleCues, ofCues) {
		return true
	}
	// "Okeke, Chidi": a family name, a comma, then a known first name.
	rest, ok := strings.CutPrefix(after, ", ")
	if !ok {
		return false
	}
	end := capWordEnd(rest, 0)
	if end < 0 || end < len(rest) && isNameRune(rest[end:]) {
		return false
	}
	return d.givenNames.holdsLower(rest[:end])
}

// isNameRune reports whether s starts with a letter or digit (so the word before it goes on).
func isNameRune(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return isUpperLetter(r) || isLowerLetter(r) || '0' <= r && r <= '9'
}
