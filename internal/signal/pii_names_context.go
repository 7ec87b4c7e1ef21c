package signal

import (
	"maps"
	"strings"
	"unicode/utf8"
)

// leadCue reports whether w, the first word of a capitalised run, is a cue rather than part
// of the name: a verb of asking or telling ("Ask Hiroshi", "Let Ahmed know"), a role or a
// relation ("Patient Halima Suleiman"). The cue is then read before the rest of the run.
func leadCue(w string) bool {
	return holdsLower(personCues, w) || holdsLower(relationCues, w)
}

// camelCased reports whether a word of the run has a capital after a lower-case letter
// (GitHub, YouTube, iPhone): product and company names, not people, except for the
// prefixes of surnames (McDonald, MacLeod, DiCaprio, LeBlanc, DeShawn, VanDyke, O'Neill).
func camelCased(words []string) bool {
	for _, w := range words {
		lower := false
		for i, r := range w {
			switch {
			case isLowerLetter(r):
				lower = true
			case r == '-' || r == '\'' || r == '’':
				lower = false // Al-Sayed, O'Neill
			case isUpperLetter(r) && lower && !surnamePrefix(w[:i]):
				return true
			}
		}
	}
	return false
}

func surnamePrefix(p string) bool {
	switch p {
	case "Mc", "Mac", "Di", "De", "Le", "La", "Van", "Von", "Du", "Da":
		return true
	}
	return false
}

// namedThingRE: words after a name that make it the name of a thing (the James Webb
// telescope, the Nobel Prize, Kennedy Airport).
var namedThingRE = lazyRE(`^(?:'s|’s)?\s+(?:telescope|prize|award|medal|foundation|institute|museum|airport|bridge|stadium|library|memorial|center|centre|building|tower|hall|square|park|station|street|avenue|road|boulevard|university|college|school|hospital|trophy|cup|festival|theatre|theater|gallery|collection|trust|fellowship|scholarship|lecture)\b`)

// figureVerbs, after a question word, ask who someone was or is ("Who was Simón Bolívar?",
// "Qui était Victor Hugo ?", "Wer war Goethe?"): a public or historical figure, not someone
// the user knows.
// Each is also read with its accents folded, as Normalize writes it ("Quien fue", "Chi e").
var figureVerbs = func() map[string]string {
	m := map[string]string{"was": "who", "is": "who", "were": "who", "était": "qui", "est": "qui",
		"étaient": "qui", "war": "wer", "ist": "wer", "waren": "wer", "fue": "quién", "era": "quién|chi|quem",
		"es": "quién", "è": "chi", "fu": "chi", "foi": "quem", "é": "quem"}
	for verb, who := range maps.Clone(m) {
		if f := foldAccents(who); f != who {
			who += "|" + f
			m[verb] = who
		}
		if f := foldAccents(verb); f != verb {
			if m[f] != "" {
				who = m[f] + "|" + who
			}
			m[f] = who
		}
	}
	return m
}()

// notPersonContext reports whether the words around a capitalised run make it something
// other than a private person: a question about a figure, an article before it ("the Mona
// Lisa", "the Geneva Conventions": people are seldom named with one), or a thing named
// after someone after it.
func notPersonContext(tail, after string) bool {
	t := strings.TrimRight(tail, reSpace)
	if len(t) < len(tail) {
		w, rest := lastWord(t)
		if w == "the" {
			return true
		}
		if q, ok := figureVerbs[w]; ok {
			prev, _ := lastWord(strings.TrimRight(rest, reSpace))
			for _, want := range strings.Split(q, "|") {
				if prev == want {
					return true
				}
			}
		}
	}
	return namedThingRE.MatchString(tailWindow(after, tailBytes))
}

// signOffCues close a message with the sender's first name ("Cheers, Nikhil").
var signOffCues = withFolded([]string{"cheers,", "thanks,", "thank you,", "best,", "love,", "warmly,", "cordially,",
	"cordialement,", "amitiés,", "bises,", "saludos,", "un abrazo,", "atentamente,", "grüße,", "gruß,", "lg,"})

// signOffCue reports whether tail ends with a sign-off, then whitespace.
func signOffCue(tail string) bool {
	t := strings.TrimRight(tail, reSpace)
	if len(t) == len(tail) {
		return false
	}
	for _, c := range signOffCues {
		if i := suffixFold(t, c); i >= 0 && (i == 0 || !isREWordByte(t[i-1])) {
			return true
		}
	}
	return false
}

// vocative reports whether a lone word opens the message, a line or a quotation and a comma
// follows it: someone addressed by name ("Rhys, the slides were due").
func vocative(tail, after string) bool {
	if !strings.HasPrefix(after, ",") {
		return false
	}
	t := strings.TrimRight(tail, reSpace)
	if t == "" {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(t)
	return strings.ContainsRune("\"“'‘«\n:", r) || strings.HasSuffix(strings.TrimRight(tail, " \t"), "\n")
}

// englishGivenNames are shipped first names that are also everyday English words; typed in
// lower case they are read as words.
var englishGivenNames = wordSetOf(`amir bill carol dale dawn frank grace harry heather hector jack jasmine john ken
	lea lei lily maria marina mark martin max maxim peter robin roger roman rose ruby tom tony victor yaw`)

// lowerNameVerbRE: what may follow a first name typed in lower case at the start of a
// clause ("yesterday jessica told me").
var lowerNameVerbRE = lazyRE(`^\s+(?:said|says|told|tells|asked|asks|wants|wanted|called|texted|emailed|thinks|thought|is|was|has|had|will|needs|hates|loves|likes)\b`)

// findLowerNames finds known first names typed in lower case, when a cue makes them names:
// a verb of asking or telling or a relation before them ("tell suresh", "my son omar"), or a
// verb of saying after them ("brandon said"). Capitalised words are left to findNames.
func (d *PIIDetector) findLowerNames(text string) [][2]int {
	var out [][2]int
	for i := 0; i < len(text); {
		if c := text[i]; c < utf8.RuneSelf && (c < 'a' || c > 'z') {
			i++ // most bytes of a text, decided without decoding them
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if !isLowerLetter(r) || i > 0 && isNameByte(text[i-1]) {
			i += size
			continue
		}
		j := lowerWordEnd(text, i+size)
		w := text[i:j]
		if j-i >= 3 && d.givenNames.has(w) && !englishGivenNames[w] && !notNameWords[w] && !bayesStop[w] {
			tail := text[max(0, i-40):i]
			if cueBefore(tail, lowerNameCues, nil) || cueBefore(tail, relationCues, nil) ||
				lowerNameVerbRE.MatchString(tailWindow(text[j:], tailBytes)) && clauseStart(tail) {
				out = append(out, [2]int{i, j})
			}
		}
		i = j
	}
	return out
}

// lowerWordEnd is where the lower-case letters and hyphens from j end.
func lowerWordEnd(text string, j int) int {
	for j < len(text) {
		if c := text[j]; c < utf8.RuneSelf {
			if (c < 'a' || c > 'z') && c != '-' {
				break
			}
			j++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[j:])
		if !isLowerLetter(r) {
			break
		}
		j += size
	}
	return j
}

// lowerNameCues are the verbs after which a lower-case first name is a name.
var lowerNameCues = wordSetOf(`tell ask call text ping remind email message invite thank meet cc let`)

// isNameByte reports whether b may be inside a word (so a match must not start after it).
func isNameByte(b byte) bool {
	return b >= utf8.RuneSelf || isREWordByte(b) || b == '\'' || b == '-'
}

// clauseStart reports whether tail, the text before a word, ends a clause or is a short
// time phrase at the start of the message ("last night", "yesterday").
func clauseStart(tail string) bool {
	t := strings.TrimRight(tail, reSpace)
	if t == "" || strings.ContainsAny(t[len(t)-1:], ".!?;,:\n") {
		return true
	}
	w, _ := lastWord(t)
	switch w {
	case "yesterday", "today", "tonight", "night", "morning", "and", "but", "so", "then":
		return true
	}
	return false
}
