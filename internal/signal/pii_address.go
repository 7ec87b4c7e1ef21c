package signal

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

var (
	// usStreetRE: house number, optional direction, one to four name words
	// (capitalised or ordinals), a street suffix.
	usStreetRE = lazyRE(`\b\d{1,6}[A-Za-z]?\s+(?:(?:N|S|E|W|NE|NW|SE|SW|North|South|East|West)\.?\s+)?(?:(?:\p{Lu}[\p{L}'\-]*|\d+(?:st|nd|rd|th))\.?\s+){1,4}(?:Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Way|Place|Pl|Terrace|Ter|Parkway|Pkwy|Highway|Hwy|Circle|Cir|Square|Sq|Trail|Trl|Crescent|Close|Row|Alley|Loop|Plaza|Mews|Gardens|Grove|Hill|Rise|Walk|Green|Park|Heights|Hts|Ridge|View|Vista|Crest|Hollow|Wharf|Quay|Esplanade|Promenade|Causeway|Bend|Pike|Turnpike|Commons|Crossing|Landing|Glen|Dale|Vale|Chase)\b\.?`)
	poBoxRE    = lazyFoldedRE(`(?i)\b(?:p\.?\s?o\.?\s*box|post office box|postfach|apartado(?: postal)?|bo[iî]te postale)\s*#?\s*\d{1,7}\b`)
	// German-style: the number follows the street ("Hauptstraße 12").
	deStreetRE = lazyFoldedRE(`\b\p{Lu}[\p{L}\-]*(?:straße|strasse|str\.|weg|gasse|platz|allee|ring|damm|ufer|chaussee|stieg|steig|graben|markt|gracht|plein|laan|straat|gade|vej|gatan|vägen|katu|utca)\s+\d{1,4}[a-z]?\b`)
	// French-style: "12 rue de la Paix", "5 bis avenue Victor Hugo".
	frStreetRE = lazyFoldedRE(`\b\d{1,4}(?:\s?(?:bis|ter))?,?\s+(?i:rue|avenue|av\.|boulevard|bd|place|chemin|allée|impasse|quai|route|cours)\s+(?:(?:de|du|des|la|le|l'|d')\s*)*\p{Lu}[\p{L}\-']+(?:\s+\p{Lu}[\p{L}\-']+)*`)
	// Spanish, Portuguese, Italian: "Calle Mayor 5", "Via Roma, 12".
	latStreetRE = lazyRE(`\b(?:Calle|Avenida|Av\.|Plaza|Paseo|Carrer|Rua|Via|Viale|Piazza|Corso)\s+(?:(?:de|del|la|los|las|dos|da|di|della)\s+)*\p{Lu}[\p{L}\-']+(?:\s+\p{Lu}[\p{L}\-']+)*,?\s+(?:n\.?\s?º?\s?)?\d{1,4}\b`)

	// Tails that may follow the street: unit, city, state + ZIP, postcode.
	unitTailRE     = lazyFoldedRE(`^,?\s*(?:[Aa]pt|[Aa]partment|[Ss]uite|[Ss]te|[Uu]nit|[Ff]loor|[Ff]l|[Rr]oom|[Rr]m|[Ff]lat|[Gg]ate|[Ee]ntrance|[Bb]uilding|[Bb]ldg|[Bb]lock|[Tt]ower|[Ll]evel|[Pp]iso|[ÉéEe]tage|[Ww]ohnung|[Ww]hg|APT|#)\.?\s*#?(?:[A-Za-z]{0,2}\d[A-Za-z0-9\-]{0,5}|[A-Z])\b`)
	stateZipTailRE = lazyRE(`^,?\s*[A-Z]{2}\s+\d{5}(?:-\d{4})?\b`)
	ukPostTailRE   = lazyRE(`^,?\s*[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}\b`)
	euPostTailRE   = lazyRE(`^,?\s*(?:\d{4,5}|\d{2}-\d{3}|\d{4}-\d{3})(?:\s+[A-Z]{2})?\s+\p{Lu}[\p{L}\-]+\b`)
	caPostTailRE   = lazyRE(`^,?\s*(?:[A-Z]{2}\s+)?[A-Z]\d[A-Z]\s?\d[A-Z]\d\b`)

	// Streets without a street-type word: a house number and one to three capitalised
	// words ("55 Broadway", "12 The Green", "31 Ocean View"), or the name and then the
	// number ("Keizersgracht 123", "ul. Marszałkowska 84"). They count only with a postal
	// code after them, or after an address cue ("lives at") and followed by a city.
	bareStreetRE  = lazyRE(`\b\d{1,5}[A-Za-z]?\s+(?:The\s+)?\p{Lu}\p{Ll}[\p{L}'\-]*(?:\s+\p{Lu}\p{Ll}[\p{L}'\-]*){0,2}`)
	bareReverseRE = lazyRE(`(?:\b(?:ul|al|ulica)\.?\s+)?\b\p{Lu}\p{Ll}[\p{L}\-]{3,}\s+\d{1,4}[a-z]?\b`)
	addressCueRE  = lazyRE(`(?i)(?:\b(?:live|lives|lived|living|located|is|are|based|meet|moved|venue is|address is|address|deliver|delivered|ship|send|mail|office is|shop is|at)\s*(?:at|to|in)?|address:|:)\s*$`)
	cityTailRE    = lazyRE(`^,\s*\p{Lu}\p{Ll}[\p{L}\-']*(?:\s\p{Lu}\p{Ll}[\p{L}\-']*){0,2}`)
)

// findAddresses finds street addresses; gate skips the whole-text patterns whose fixed
// words the text does not hold.
func findAddresses(text string, gate bool) [][2]int {
	var out [][2]int
	add := func(s, e int) {
		for _, o := range out {
			if s < o[1] && o[0] < e {
				return
			}
		}
		out = append(out, [2]int{s, e})
	}
	// The patterns that start with a house number are tried only where a number starts,
	// which keeps the cost linear in the digits of the text rather than its length.
	nums := numberStarts(text)
	postcodes := newDigitRuns(text)
	for _, n := range nums {
		may := uint8(1<<len(streetPatterns) - 1)
		if gate {
			may = streetsAfter(text, n.end)
		}
		for i, re := range streetPatterns {
			if may&(1<<i) == 0 || gate && re == bareStreetAt && !bareStreetMayAdd(text, n) {
				continue
			}
			loc := re.FindStringIndex(text[n.start:min(len(text), n.start+addressWindow)])
			if loc == nil {
				continue
			}
			s, e := n.start, n.start+loc[1]
			if re == usStreetAt || re == frStreetAt {
				if re == frStreetAt || plausibleUSStreet(text[s:e]) {
					add(s, extendAddress(text, e))
					break
				}
				continue
			}
			if !plausibleUSStreet(strings.Replace(text[s:e], " The ", " ", 1) + " x") {
				continue
			}
			end, postal := extendAddressPostal(text, e)
			if postal || end > e && addressCueRE.MatchString(text[max(0, s-30):s]) {
				add(s, end)
			}
		}
		if s, e := findMoreAddressesAt(text, n, postcodes); e > s {
			add(s, e)
		}
		// The name before the number ("Keizersgracht 123"), with a postal code after it.
		numEnd := n.end
		if numEnd < len(text) && text[numEnd] == '/' { // every flatSuffixRE match starts so
			if loc := flatSuffixRE.FindStringIndex(tailWindow(text[numEnd:], tailBytes)); loc != nil {
				numEnd += loc[1] // Marszałkowska 84/92
			}
		}
		if end, postal := extendAddressPostal(text, numEnd); postal {
			base := max(0, n.start-48)
			if loc := bareReverseAt.FindStringIndex(text[base:n.end]); loc != nil && !overlapsSpan(out, base+loc[0], end) {
				add(base+loc[0], end)
			}
		}
	}
	for _, re := range []*lazyRegexp{deStreetRE, latStreetRE, poBoxRE, coStreetRE, gulfStreetRE, frBoxRE} {
		if gate && (re == deStreetRE && !mayHoldDEStreet(text, nums) ||
			re == coStreetRE && !containsAnyOf(text, coStreetWords) ||
			re == gulfStreetRE && !mayHoldGulfStreet(text) ||
			re == frBoxRE && !containsAnyOf(text, []string{"BP", "B.P"}) ||
			re == latStreetRE && !containsAnyOf(text, latStreetWords) ||
			re == poBoxRE && !mayHoldPOBox(text)) {
			continue
		}
		for _, m := range re.FindAllStringIndex(text, -1) {
			add(m[0], extendAddress(text, m[1]))
		}
	}
	return out
}

// addressWindow bounds the text a pattern anchored at a house number may span.
const addressWindow = 160

var (
	usStreetAt    = lazyWrappedRE(`^(?:`, usStreetRE, `)`)
	frStreetAt    = lazyWrappedRE(`^(?:`, frStreetRE, `)`)
	bareStreetAt  = lazyWrappedRE(`^(?:`, bareStreetRE, `)`)
	bareReverseAt = lazyWrappedRE(`(?:`, bareReverseRE, `)$`)
)

type numberRun struct{ start, end int }

// numberStarts lists the runs of digits (with one letter after, as in 221B) that start a
// word.
func numberStarts(text string) []numberRun {
	var out []numberRun
	for i := 0; i < len(text); i++ {
		if text[i] < '0' || text[i] > '9' || i > 0 && isWordByte(text[i-1]) {
			continue
		}
		j := i
		for j < len(text) && text[j] >= '0' && text[j] <= '9' {
			j++
		}
		if j < len(text) && (text[j] >= 'a' && text[j] <= 'z' || text[j] >= 'A' && text[j] <= 'Z') &&
			(j+1 == len(text) || !isWordByte(text[j+1])) {
			j++
		}
		out = append(out, numberRun{i, j})
		i = j
	}
	return out
}

// streetPatterns are the street patterns anchored at a house number, in the order they are
// tried.
var streetPatterns = [...]*lazyRegexp{usStreetAt, frStreetAt, bareStreetAt}

// streetsAfter returns which of streetPatterns may match at a house number that ends at end
// (see numberStarts), as bits: 1<<i for streetPatterns[i]. It reads what follows the number,
// as the patterns need it: usStreetAt and bareStreetAt a blank; then usStreetAt two words
// that start with a capital or a digit (a direction, name words, an ordinal, the street
// type) and bareStreetAt one that starts with a capital; frStreetAt a street type ("rue",
// "avenue", "place" ...), after blanks, a comma, "bis" or "ter". A byte of a longer
// character counts as a capital: it may start one. Most numbers, in prose as in code ("f(3)", "3 nodes", "x *
// 3\nExplain this"), are followed by none of these.
func streetsAfter(text string, end int) uint8 {
	var may uint8
	if end < len(text) && isREBlank(text[end]) {
		first := trimBlanks(text[end:])
		if first != "" && capitalOrDigit(first[0]) {
			second := ""
			if i := strings.IndexAny(first, reSpace); i >= 0 {
				second = trimBlanks(first[i:])
			}
			if second != "" && capitalOrDigit(second[0]) {
				may |= 1 << 0 // usStreetAt
			}
			if !isDigit(first[0]) {
				may |= 1 << 2 // bareStreetAt
			}
		}
	}
	t := trimCommasAndBlanks(text[end:])
	if strings.HasPrefix(t, "bis") || strings.HasPrefix(t, "ter") {
		t = trimCommasAndBlanks(t[3:])
	}
	if t != "" && strings.IndexByte("rabpciqRABPCIQ", t[0]) >= 0 {
		may |= 1 << 1 // frStreetAt
	}
	return may
}

// bareStreetMayAdd reports whether a bareStreetAt match at the house number n may be taken
// as an address, without running the pattern: findAddresses takes one only with a postal
// code after it, and so a tail that mayStartTail lets through where the match ends, or after
// an address cue ("lives at 3 Elm Grove"). The match is the number, blanks and one
// to four words ("The" and three names) apart by blanks, each to the end of its run of
// letters, apostrophes and hyphens, within addressWindow: so it ends where one of the first
// four such runs after the number ends, or at the window's end. Numbers in prose and code
// ("x * 3\nExplain what") are followed by a capital far more often than by an address.
func bareStreetMayAdd(text string, n numberRun) bool {
	limit := min(len(text), n.start+addressWindow)
	p := n.end
	for range 4 {
		q := p
		for q < limit && isREBlank(text[q]) {
			q++
		}
		if q == p {
			break
		}
		e := q
		for e < limit {
			r, size := utf8.DecodeRuneInString(text[e:limit]) // as the pattern reads the window
			if !unicode.IsLetter(r) && r != '\'' && r != '-' {
				break
			}
			e += size
		}
		if e == q {
			break
		}
		if mayStartTail(text[e:min(len(text), e+addressWindow)]) {
			return true
		}
		p = e
	}
	cue := text[max(0, n.start-30):n.start]
	return mayEndAddressCue(cue) && addressCueRE.MatchString(cue)
}

// mayEndAddressCue reports whether addressCueRE may match tail: each of its matches ends in
// a word or a colon, then blanks. A byte of a longer character may be a letter's ("ſ").
func mayEndAddressCue(tail string) bool {
	i := len(tail) - 1
	for i >= 0 && isREBlank(tail[i]) {
		i--
	}
	return i >= 0 && (tail[i] == ':' || isASCIILetter(tail[i]) || tail[i] >= utf8.RuneSelf)
}

// capitalOrDigit reports whether c is an ASCII capital or digit, or a byte of a longer
// character.
func capitalOrDigit(c byte) bool { return isUpperASCII(c) || isDigit(c) || c >= utf8.RuneSelf }

// isREBlank reports whether c is one of reSpace, the blanks of \s.
func isREBlank(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' }

// trimBlanks is strings.TrimLeft(s, reSpace), without building the set of the blanks on each
// call: findAddresses asks it after every number of a text.
func trimBlanks(s string) string {
	i := 0
	for i < len(s) && isREBlank(s[i]) {
		i++
	}
	return s[i:]
}

// trimCommasAndBlanks is strings.TrimLeft(s, ","+reSpace), as trimBlanks.
func trimCommasAndBlanks(s string) string {
	i := 0
	for i < len(s) && (s[i] == ',' || isREBlank(s[i])) {
		i++
	}
	return s[i:]
}

// mayStartTail reports whether rest may start with a tail extendAddressPostal takes. After
// an optional comma and blanks, each tail pattern needs a unit word or "#" (unitTailRE), a
// digit (euPostTailRE), a capital and then a capital or a digit (stateZipTailRE,
// caPostTailRE, ukPostTailRE), or, after a comma, a capital (cityTailRE, cityPostTailRE); a
// byte of a longer character is let through ("Étage 2", ", Île"). Most words after a number
// are none of these, and are spared the six patterns.
func mayStartTail(rest string) bool {
	t := strings.TrimPrefix(rest, ",")
	comma := len(t) < len(rest)
	t = trimBlanks(t)
	if t == "" {
		return false
	}
	switch c := t[0]; {
	case c == '#' || isDigit(c) || c >= utf8.RuneSelf:
		return true
	case isUpperASCII(c) && (comma || len(t) > 1 && (isUpperASCII(t[1]) || isDigit(t[1]))):
		return true
	}
	// t[0] is ASCII here: it folds only to its other case, and most letters start no unit word.
	for _, w := range unitWordsByInitial[t[0]|0x20] {
		if len(t) >= len(w) && strings.EqualFold(t[:len(w)], w) {
			return true
		}
	}
	return false
}

// unitWordStarts are the starts of the unit words unitTailRE takes, in lower case.
var unitWordStarts = []string{"apt", "apartment", "suite", "ste", "unit", "fl", "room", "rm", "gate", "entrance",
	"etage", "building", "bldg", "block", "tower", "level", "piso", "wohnung", "whg"}

// unitWordsByInitial holds unitWordStarts by their first letter.
var unitWordsByInitial = func() (by [256][]string) {
	for _, w := range unitWordStarts {
		by[w[0]] = append(by[w[0]], w)
	}
	return by
}()

func isUpperASCII(c byte) bool { return c >= 'A' && c <= 'Z' }

// plausibleUSStreet drops matches whose name words are ordinary sentence
// words ("3 The Way"), which the capitalisation rule alone lets through
// at the start of sentences.
func plausibleUSStreet(s string) bool {
	words := strings.Fields(s)
	if len(words) < 3 {
		return false
	}
	for _, w := range words[1 : len(words)-1] {
		switch strings.TrimSuffix(w, ".") {
		case "The", "A", "An", "And", "Or", "Of", "In", "On", "At", "To", "I", "We", "You", "It", "My", "Our":
			return false
		}
	}
	return true
}

// extendAddress grows an address over a unit, a city, a state + ZIP or a
// postcode that follow it, in any order, at most four times.
func extendAddress(text string, end int) int {
	end, _ = extendAddressPostal(text, end)
	return end
}

// extendAddressPostal is extendAddress that also reports whether a postal code (a state
// and ZIP, a UK, Canadian or continental postcode) was among the tails.
func extendAddressPostal(text string, end int) (int, bool) {
	postal := false
	for range 4 {
		// Tails are short; a bounded window keeps the regexps' cost independent of the text's
		// length.
		rest := text[end:min(len(text), end+addressWindow)]
		if !mayStartTail(rest) {
			break
		}
		if n := cityPostEnd(rest); n > 0 {
			end += n
			postal = true
			continue
		}
		grew := false
		for _, re := range []*lazyRegexp{unitTailRE, stateZipTailRE, caPostTailRE, ukPostTailRE, euPostTailRE, cityTailRE} {
			if loc := re.FindStringIndex(rest); loc != nil {
				if re == cityTailRE && !cityFollowedByPostal(text, end+loc[1]) {
					continue
				}
				end += loc[1]
				grew = true
				postal = postal || re != unitTailRE && re != cityTailRE
				break
			}
		}
		if !grew {
			break
		}
	}
	return end, postal
}

// cityFollowedByPostal only lets a ", City" tail in when a state, ZIP or
// postcode follows it, or the sentence ends, so that ", John" after an
// address is not swallowed.
func cityFollowedByPostal(text string, end int) bool {
	rest := text[end:]
	if rest == "" || strings.ContainsAny(rest[:1], ".?!;\n") {
		return true
	}
	return stateZipTailRE.MatchString(rest) || caPostTailRE.MatchString(rest) || ukPostTailRE.MatchString(rest) ||
		euPostTailRE.MatchString(rest) || cityTailRE.MatchString(rest)
}
