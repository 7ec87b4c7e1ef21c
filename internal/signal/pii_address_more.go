package signal

import (
	"strings"
)

var (
	// cityPostTailRE: a city and then its postcode (", Auckland 1010", ", Pune 411057",
	// ", Tokyo 105-0021"); the submatch is the postcode.
	cityPostTailRE = lazyRE(`^,\s*\p{Lu}\p{Ll}[\p{L}\-]*(?:\s\p{Lu}\p{Ll}[\p{L}\-]*)?\s+(\d{4,6}|\d{3}-\d{4})\b`)
	// flatSuffixRE: a flat number after the house number ("84/92", "12/4").
	flatSuffixRE = lazyRE(`^/\d{1,4}\b`)
	// localityChainAt: a house or plot number, then up to five comma-separated parts
	// (street, area, district, city) ending in a postcode of five or six digits or Japan's
	// 123-4567: Indian, Chinese, Japanese and Nigerian addresses seldom hold a street-type
	// word ("41, 2nd Main, Jayanagar, Bengaluru 560041").
	localityChainAt = lazyRE(`^\d{1,5}(?:[-/]\d{1,5}){0,3}[A-Za-z]?,?(?:\s+[\p{Lu}\d][\p{L}\d'.\-]*){0,3}(?:,\s*[\p{Lu}\d][\p{L}\d'.\-]*(?:\s+[\p{Lu}\d][\p{L}\d'.\-]*){0,3}){1,5}\s+(?:\d{5,6}|\d{3}-\d{4})\b`)
	// lowerStreetAt: a street typed in lower case with its type word ("12 cherry hill rd").
	lowerStreetAt = lazyRE(`^\d{1,6}\s+((?:[a-z][a-z'\-]*\s+){1,3})(?:street|st|avenue|ave|road|rd|lane|ln|drive|dr|boulevard|blvd|court|ct|terrace|crescent|close)\b\.?`)
	// lowerBareAt: a number and one to three lower-case words ("8 brookside"), an address
	// only with a unit or a lower-case city, state and ZIP after it.
	lowerBareAt       = lazyRE(`^\d{1,5}\s+((?:[a-z][a-z'\-]{2,}\s+){0,2}[a-z][a-z'\-]{2,})`)
	lowerStateZipTail = lazyRE(`^,\s*[a-z]+(?:\s[a-z]+)?,?\s+[a-z]{2}\s+\d{5}\b`)

	// coStreetRE: Colombian addresses ("Calle 85 # 11-53", "Carrera 7 No. 32-16").
	coStreetRE    = lazyRE(`\b(?:Calle|Carrera|Cra\.?|Avenida|Av\.|Diagonal|Transversal)\s+\d{1,3}[A-Z]?(?:\s?bis)?\s*(?:#|No\.?|N[°º])\s*\d{1,3}[A-Z]?\s*-\s*\d{1,3}\b`)
	coStreetWords = []string{"Calle", "Carrera", "Cra", "Avenida", "Av.", "Diagonal", "Transversal"}
	// gulfStreetRE: a villa or building number, then a numbered street ("Villa 5, Street 22").
	gulfStreetRE    = lazyRE(`\b(?:Villa|House|Building|Bldg|Plot|Flat|Apartment|Apt|Unit|Shop|Office)\s+(?:No\.?\s*)?\d{1,5}[A-Z]?,\s*(?:Street|St|Road|Rd|Lane|Block|Sector|Sikka)\s+\d{1,4}\b`)
	gulfStreetWords = []string{"Villa", "House", "Building", "Bldg", "Plot", "Flat", "Apartment", "Apt", "Unit", "Shop", "Office"}
	// frBoxRE: a French boîte postale with its postcode ("BP 12, 31000 Toulouse").
	frBoxRE = lazyRE(`\bB\.?P\.?\s*\d{1,5},?\s+\d{5}\s+\p{Lu}\p{L}+`)
)

// findMoreAddressesAt tries the patterns anchored at the house number n that
// findAddresses's older patterns do not cover; it returns the span found, or e <= s.
// postcodes tells where the next three digits in a row are (see digitRuns).
func findMoreAddressesAt(text string, n numberRun, postcodes *digitRuns) (int, int) {
	window := text[n.start:min(len(text), n.start+addressWindow)]
	if strings.IndexByte(window, ',') >= 0 && postcodes.within(min(n.end, n.start+len(window)), n.start+len(window)) {
		if loc := localityChainAt.FindStringIndex(window); loc != nil {
			return n.start, extendAddress(text, n.start+loc[1])
		}
	}
	// The lower-case patterns need a space and a lower-case letter after the number.
	if rest := text[n.end:]; len(rest) < 2 || rest[0] != ' ' || rest[1] < 'a' || rest[1] > 'z' {
		return 0, 0
	}
	if m := lowerStreetAt.FindStringSubmatchIndex(window); m != nil && plainWords(window[m[2]:m[3]]) {
		e := n.start + m[1]
		end := extendAddress(text, e)
		if end > e || addressCueRE.MatchString(text[max(0, n.start-30):n.start]) {
			return n.start, end
		}
	}
	if m := lowerBareAt.FindStringSubmatchIndex(window); m != nil && plainWords(window[m[2]:m[3]]) {
		e := n.start + m[1]
		if loc := lowerStateZipTail.FindStringIndex(tailWindow(text[e:], tailBytes)); loc != nil {
			return n.start, extendAddress(text, e+loc[1])
		}
		if loc := unitTailRE.FindStringIndex(tailWindow(text[e:], tailBytes)); loc != nil && text[e] == ',' {
			return n.start, extendAddress(text, e+loc[1])
		}
	}
	return 0, 0
}

// digitRuns finds, in a text read from start to end, where three ASCII digits in a row are
// next: within(from, to) reports whether text[from:to] holds three in a row, as every
// localityChainAt match does after its house number (its postcode). Asked with a from that
// never goes back, as findAddresses asks at each number in turn, it reads the text once,
// not the 160 bytes after each number with a comma near it.
type digitRuns struct {
	text string
	// next is the start of the first run of three at or after scanned, or len(text); -1
	// before the first question.
	next, scanned int
}

func newDigitRuns(text string) *digitRuns { return &digitRuns{text: text, next: -1} }

func (d *digitRuns) within(from, to int) bool {
	if from < d.scanned || d.next < from {
		d.next, d.scanned = len(d.text), from
		run := 0
		for i := from; i < len(d.text); i++ {
			if !isDigit(d.text[i]) {
				run = 0
				continue
			}
			if run++; run == 3 {
				d.next = i - 2
				break
			}
		}
	}
	return d.next+3 <= to
}

// plainWords reports whether the lower-case words of a street name hold no sentence words
// ("3 apples in the way" is not a street) and no street-type word before the last.
func plainWords(s string) bool {
	for _, w := range strings.Fields(s) {
		if bayesStop[w] || notStreetWords[w] {
			return false
		}
	}
	return true
}

// notStreetWords are lower-case words that, after a number, count things rather than name a
// street ("2 lane road", "5 more minutes").
var notStreetWords = wordSetOf(`lane road street way more less times years months weeks days hours minutes
	seconds people kids children items things eggs cups pieces pages points percent dollars euros pounds
	miles km apples steps ways reasons tips ideas`)

// cityPostEnd is the length of the city and postcode (not a year) that rest starts with, as
// cityPostTailRE matches them, or 0.
func cityPostEnd(rest string) int {
	if rest == "" || rest[0] != ',' {
		return 0
	}
	loc := cityPostTailRE.FindStringSubmatchIndex(rest)
	if loc == nil || yearLike(rest[loc[2]:loc[3]]) {
		return 0
	}
	return loc[1]
}

// yearLike reports whether a four-digit postcode candidate reads as a year (1900-2099).
func yearLike(code string) bool {
	return len(code) == 4 && (strings.HasPrefix(code, "19") || strings.HasPrefix(code, "20"))
}
