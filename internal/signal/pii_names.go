package signal

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// capitalisedRuns finds runs of one to four capitalised words, allowing inner hyphens and
// apostrophes (Mei-Lin, O'Brien, Marchetti-Rossi), as the regexp
// \p{Lu}[\p{Ll}\p{Lu}'’\-]*\p{Ll}(?:\s+\p{Lu}[\p{Ll}\p{Lu}'’\-]*\p{Ll}){0,3} finds them (its
// FindAllStringIndex), in one pass instead of a regexp attempt at every position.
func capitalisedRuns(text string) [][2]int {
	var out [][2]int
	for p := 0; p < len(text); {
		if c := text[p]; c < utf8.RuneSelf && (c < 'A' || c > 'Z') {
			p++ // most bytes: no capital starts here
			continue
		}
		e, stop := capWordScan(text, p)
		if e < 0 {
			// No word ends before stop, from p or from any capital after it: each would read
			// the same letters, without a lower-case one. Trying each in turn would make
			// a long run of capitals ("AAAA…") cost its length squared.
			if _, size := utf8.DecodeRuneInString(text[p:]); stop < p+size {
				stop = p + size
			}
			p = stop
			continue
		}
		for range 3 {
			j := e
			for j < len(text) && strings.IndexByte(reSpace, text[j]) >= 0 {
				j++
			}
			if j == e {
				break
			}
			next := capWordEnd(text, j)
			if next < 0 {
				break
			}
			e = next
		}
		out = append(out, [2]int{p, e})
		p = e
	}
	return out
}

// capWordEnd is the end of the capitalised word at p: an upper-case letter, then letters,
// apostrophes and hyphens up to the last lower-case letter among them; -1 if none.
func capWordEnd(text string, p int) int {
	end, _ := capWordScan(text, p)
	return end
}

// capWordScan is capWordEnd, and where the letters, apostrophes and hyphens it read end
// (p when text[p] is no capital).
func capWordScan(text string, p int) (end, stop int) {
	r, size := utf8.DecodeRuneInString(text[p:])
	if !isUpperLetter(r) {
		return -1, p
	}
	end = -1
	for i := p + size; i < len(text); i += size {
		if c := text[i]; c < utf8.RuneSelf {
			size = 1
			switch {
			case 'a' <= c && c <= 'z':
				end = i + 1
			case 'A' <= c && c <= 'Z' || c == '\'' || c == '-':
			default:
				return end, i
			}
			continue
		}
		r, size = utf8.DecodeRuneInString(text[i:])
		switch {
		case isLowerLetter(r):
			end = i + size
		case isUpperLetter(r) || r == '\'' || r == '’' || r == '-':
		default:
			return end, i
		}
	}
	return end, len(text)
}

// isUpperLetter is \p{Lu}, isLowerLetter \p{Ll}.
func isUpperLetter(r rune) bool {
	if r < utf8.RuneSelf {
		return 'A' <= r && r <= 'Z'
	}
	return unicode.Is(unicode.Lu, r)
}

func isLowerLetter(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z'
	}
	return unicode.Is(unicode.Ll, r)
}

// The cues right before a capitalised run that make it a name. Each is checked on the
// text before the run by hand: the equivalent regexps, anchored at the end, were tried by
// Go at every position of that text and were most of the detector's cost.
var (
	// strongCues make any capitalised word a name (in any case, no word boundary needed).
	// "name :" and "full name:" are handled by strongCue.
	strongCues = withFolded([]string{"my name is", "my name's", "named", "me llamo", "mi nombre es", "je m'appelle", "je suis",
		"ich heiße", "ich bin", "mein name ist", "mi chiamo", "meu nome é", "sincerely,", "regards,", "signed,", "dear",
		"hi", "hello", "attn", "attn:", "c/o"})
	// titleAbbrevs are honorifics that may take a dot; titleWordList's words take none.
	titleAbbrevs = strings.Split("Mr|Mrs|Ms|Mx|Dr|Dra|Prof|Sr|Sra|Srta|Mme|Mlle|Herr|Frau|Capt|Sgt|Lt|Rev|Fr", "|")
	titleSpelled = withFolded(strings.Split(titleWordList, "|"))
	// iamCues only mark a name when the word is a known first name ("I'm John", not
	// "I'm Hungry").
	iamCues = []string{"i'm", "i am", "this is", "it's", "soy", "sono"}
)

// reSpace is RE2's \s.
const reSpace = "\t\n\f\r "

// strongCue reports whether tail ends with a strong cue, then optional whitespace.
func strongCue(tail string) bool {
	t := strings.TrimRight(tail, reSpace)
	for _, c := range strongCues {
		if suffixFold(t, c) >= 0 {
			return true
		}
	}
	if strings.HasSuffix(t, ":") && suffixFold(strings.TrimRight(t[:len(t)-1], reSpace), "name") >= 0 {
		return true // "name:", "Full Name :"
	}
	return false
}

// titleCue reports whether tail ends with an honorific (case as written, a whole word), then
// whitespace.
func titleCue(tail string) bool {
	t := strings.TrimRight(tail, reSpace)
	if len(t) == len(tail) {
		return false
	}
	for _, w := range titleSpelled {
		if endsWithWord(t, w) {
			return true
		}
	}
	u, dot := strings.CutSuffix(t, ".")
	if dot && endsWithWord(u, "M") {
		return true // M. Lefèvre; a lone M without the dot is too common
	}
	for _, w := range titleAbbrevs {
		if endsWithWord(t, w) || dot && endsWithWord(u, w) {
			return true
		}
	}
	return false
}

// iamCue reports whether tail ends with "I'm", "this is" and the like (in any case, a whole
// word), then whitespace.
func iamCue(tail string) bool {
	t := strings.TrimRight(tail, reSpace)
	if len(t) == len(tail) {
		return false
	}
	for _, c := range iamCues {
		if i := suffixFold(t, c); i >= 0 && (i > 0 && isREWordByte(t[i-1])) != isREWordByte(t[i]) {
			return true
		}
	}
	return false
}

// endsWithWord reports whether t ends with w (which starts with an ASCII letter) and no
// ASCII word character comes right before it: RE2's \b.
func endsWithWord(t, w string) bool {
	return strings.HasSuffix(t, w) && (len(t) == len(w) || !isREWordByte(t[len(t)-len(w)-1]))
}

// suffixFold is the index where t ends with s under Unicode simple case folding, as (?i)
// matches, or -1.
func suffixFold(t, s string) int {
	// Two ASCII characters fold together only as upper and lower case of one letter (the
	// other forms of k and s are not ASCII): most cues end otherwise than t, and stop here.
	if len(t) > 0 && len(s) > 0 && t[len(t)-1] < utf8.RuneSelf && s[len(s)-1] < utf8.RuneSelf &&
		t[len(t)-1]|0x20 != s[len(s)-1]|0x20 {
		return -1
	}
	i := len(t)
	for range utf8.RuneCountInString(s) {
		if i == 0 {
			return -1
		}
		_, size := utf8.DecodeLastRuneInString(t[:i])
		i -= size
	}
	if strings.EqualFold(t[i:], s) {
		return i
	}
	return -1
}

// titleWordList are spelled-out honorifics and ranks that come before a name.
const titleWordList = `Miss|Sir|Brother|Sister|Herrn|don|doña|señor|señora|señorita|Madam|Doctor|Professor|Señor|Señora|Señorita|Monsieur|Madame|Mademoiselle|Captain|Sergeant|Lieutenant|Officer|Detective|Inspector|Judge|Father|Reverend|Pastor|Rabbi|Imam|Coach|Nurse|Auntie|Uncle|Aunt|Grandma|Grandpa|Signor|Signora|Dottore|Dottoressa|Don|Doña`

// titleWords are the honorifics that may start a run of capitalised words ("Captain
// Morales"), as keys without a trailing dot.
var titleWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range withFolded(strings.Split(titleWordList+"|Mr|Mrs|Ms|Mx|Dr|Dra|Prof|Sr|Sra|Srta|Mme|Mlle|Herr|Frau|Capt|Sgt|Lt|Rev|Fr", "|")) {
		m[w] = true
	}
	return m
}()

// notNameWords are capitalised words that start sentences or name places,
// organisations, days and months rather than people.
var notNameWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`the a an and or but if when what why how who which where this that these those is are
	was were do does did can could should would will i i'm i’m i've i'd i'll we you he she it they my our your his her their please
	hi hello dear thanks thank yes no ok okay sir madam madame colleagues everyone friends customer customers all explain describe write draft compare give list tell find show help
	monday tuesday wednesday thursday friday saturday sunday january february march april may june july august
	september october november december street st avenue ave road rd lane drive court way place terrace boulevard
	university college school hospital clinic bank company inc corp ltd llc group park lake river mountain island
	bay hotel museum church center centre airport station hall bridge tower city county state republic kingdom
	north south east west new old great saint san santa los las el la le de von van der sql python java api aws
	google microsoft apple amazon linux windows docker kubernetes excel word team department office ministry
	english spanish french german chinese japanese russian italian portuguese arabic korean european american
	british african asian indian christmas easter ramadan war empire revolution act law theory theorem effect
	principle equation law's laws`) {
		notNameWords[w] = true
	}
}

// famousSurnames are people so often named in ordinary questions (laws,
// theorems, history) that naming them is not personal data.
var famousSurnames = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`newton einstein darwin curie freud marx lincoln washington shakespeare napoleon
	mozart beethoven bach turing gauss euler pascal fermat pythagoras plato aristotle socrates kant hegel nietzsche
	descartes locke hobbes rousseau keynes smith hayek friedman jung pavlov skinner piaget maslow galileo copernicus
	kepler bohr heisenberg schrodinger maxwell faraday tesla edison hawking feynman mendel pasteur lavoisier
	dalton avogadro boyle hooke ohm kirchhoff fourier laplace lagrange bayes markov nash pareto churchill
	roosevelt kennedy gandhi mandela caesar cleopatra columbus luther bonaparte hitler stalin lenin mao`) {
		famousSurnames[w] = true
	}
}

// lowerNameRE catches names typed in lower case right after an explicit
// cue ("my name is john smith"); without the cue lower-case words are
// never names.
var lowerNameRE = lazyRE(`(?i)\b` + lowerNamePattern)

// lowerNameAt is lowerNameRE anchored at the start of the text, less its \b.
var lowerNameAt = lazyRE(`(?i)^` + lowerNamePattern)

const lowerNamePattern = `(?:my name is|my name's|name\s*:)\s+(\p{Ll}[\p{L}'\-]+(?:\s\p{Ll}[\p{L}'\-]+)?)`

// lowerNameMatches returns lowerNameRE.FindAllStringSubmatchIndex(text, -1). Every match starts
// at a "name", or at the "my " before it, where a word starts: the anchored pattern is tried
// there, on the text up to where a match can end (the cue, blanks, two words and a blank
// between them). Text that says "name" often, as code does, is not read whole for each.
func lowerNameMatches(text string) [][]int {
	var out [][]int
	next := 0 // the end of the last match: the next one starts there or later
	for from := 0; ; {
		i := indexFoldASCII(text[from:], "name")
		if i < 0 {
			return out
		}
		i += from
		from = i + len("name")
		for _, s := range []int{i - len("my "), i} {
			if s < next || s < 0 || s > 0 && isREWordByte(text[s-1]) ||
				s < i && (text[s+2] != ' ' || !strings.EqualFold(text[s:s+2], "my")) {
				continue
			}
			m := lowerNameAt.FindStringSubmatchIndex(text[s:lowerNameEnd(text, i+len("name"))])
			if m == nil {
				continue
			}
			for k := range m {
				if m[k] >= 0 {
					m[k] += s
				}
			}
			out = append(out, m)
			next = m[1]
			break
		}
	}
}

// lowerNameEnd is where a lowerNameRE match whose "name" ends at p ends at the latest: past
// the rest of its cue (blanks and ":", or " is" or "'s", whose "s" may be written "ſ"),
// blanks, a word, a blank and a word.
func lowerNameEnd(text string, p int) int {
	rest := trimBlanks(text[p:])
	if strings.HasPrefix(rest, ":") {
		p = len(text) - len(rest) + 1
	} else {
		p = min(len(text), p+len(" iſ"))
	}
	p = len(text) - len(trimBlanks(text[p:]))
	for range 2 {
		if k := strings.IndexAny(text[p:], reSpace); k >= 0 {
			p += k + 1
		} else {
			p = len(text)
		}
	}
	return p
}

func (d *PIIDetector) findNames(text string) [][2]int {
	var out [][2]int
	for _, m := range lowerNameMatches(text) {
		s, e := m[2], m[3]
		words := strings.Fields(text[s:e])
		// Keep only words that are not sentence words ("my name is john and").
		if notNameWords[words[0]] || bayesStop[words[0]] {
			continue
		}
		if len(words) == 2 && (notNameWords[words[1]] || bayesStop[words[1]]) {
			e = s + len(words[0])
		}
		out = append(out, [2]int{s, e})
	}
	// out is checked by a binary search in taken, its spans sorted, and against the last
	// span this pass took: each pass finds its names in order, so a text of many names
	// costs no more than their number times its log.
	taken := slices.Clone(out) // lowerNameRE's matches, in order
	var lower [][2]int
	lowerNames := d.findLowerNames(text)
	slices.SortStableFunc(lowerNames, func(a, b [2]int) int { return a[0] - b[0] }) // in order already
	for _, m := range lowerNames {
		if !overlapsLastSpan(lower, pairSpan, m[0]) && !overlapsSorted(taken, pairSpan, m[0], m[1]) {
			lower = append(lower, m)
		}
	}
	out = append(out, lower...)
	taken = mergeSorted(taken, lower, pairSpan)
	var capitalised [][2]int
	for _, m := range capitalisedRuns(text) {
		s, e := m[0], m[1]
		if s > 0 {
			if r, _ := utf8.DecodeLastRuneInString(text[:s]); unicode.IsLetter(r) || unicode.IsDigit(r) {
				continue
			}
		}
		// A run holds at most four words, joined by ASCII whitespace.
		var wordBuf [4]string
		words := appendFields(wordBuf[:0], text[s:e])
		// Drop leading sentence words ("Send Ingrid ..." keeps "Ingrid",
		// "Remind Aiko Varga" keeps "Aiko Varga").
		for len(words) > 0 && (holdsLower(notNameWords, words[0]) || len(words) > 1 && leadCue(words[0]) ||
			!d.givenNames.holdsLower(words[0]) && d.laterGivenName(words[1:])) {
			s += strings.Index(text[s:], words[0]) + len(words[0])
			s += len(text[s:]) - len(strings.TrimLeft(text[s:], " \t\n"))
			words = words[1:]
		}
		// A title in the run ("Captain Morales", "Ask Father O'Connell"): the name follows it, and
		// the title is its cue.
		for i := 0; i+1 < len(words); i++ {
			if titleWords[strings.TrimSuffix(words[i], ".")] {
				s += strings.Index(text[s:], words[i+1])
				words = words[i+1:]
				break
			}
		}
		// Cut trailing non-name words ("Ingrid Halvorsen Street").
		for len(words) > 0 && holdsLower(notNameWords, trimPossessive(words[len(words)-1])) {
			words = words[:len(words)-1]
		}
		if len(words) == 0 {
			continue
		}
		e = s + len(words) - 1
		for _, w := range words {
			e += len(w)
		}
		if !joinedBySpaces(text[s:e], words) { // words were separated by newlines etc.
			e = s + len(words[0])
			words = words[:1]
		}
		if camelCased(words) || !d.isName(text[:s], words, text[e:]) {
			continue
		}
		if overlapsLastSpan(capitalised, pairSpan, s) || overlapsSorted(taken, pairSpan, s, e) {
			continue
		}
		if strings.HasSuffix(text[s:e], "'s") || strings.HasSuffix(text[s:e], "’s") {
			e -= len("'s")
			if strings.HasSuffix(text[s:e+2], "’s") {
				e -= len("’s") - len("'s")
			}
		}
		capitalised = append(capitalised, [2]int{s, e})
		out = append(out, [2]int{s, e})
	}
	return out
}

// appendFields appends the fields of s, as strings.Fields splits them, to dst.
func appendFields(dst []string, s string) []string {
	for f := range strings.FieldsSeq(s) {
		dst = append(dst, f)
	}
	return dst
}

// joinedBySpaces reports whether s is strings.Join(words, " ") (of s's length).
func joinedBySpaces(s string, words []string) bool {
	for i, w := range words {
		if i > 0 {
			if s == "" || s[0] != ' ' {
				return false
			}
			s = s[1:]
		}
		if !strings.HasPrefix(s, w) {
			return false
		}
		s = s[len(w):]
	}
	return s == ""
}

// holdsLower reports whether m holds strings.ToLower(w), without building the lower-case
// string for a short ASCII word.
func holdsLower(m map[string]bool, w string) bool {
	var buf [32]byte
	if b, ok := lowerShortASCII(&buf, w); ok {
		return m[string(b)]
	}
	return m[strings.ToLower(w)]
}

func overlapsSpan(spans [][2]int, s, e int) bool {
	for _, o := range spans {
		if s < o[1] && o[0] < e {
			return true
		}
	}
	return false
}

// laterGivenName reports whether a known first name starts a name of at
// least two words within words.
func (d *PIIDetector) laterGivenName(words []string) bool {
	for i, w := range words {
		if i+1 < len(words) && d.givenNames.holdsLower(w) {
			return true
		}
	}
	return false
}

func trimPossessive(w string) string {
	w = strings.TrimSuffix(w, "'s")
	return strings.TrimSuffix(w, "’s")
}

// isName decides whether a run of capitalised words is a person's name
// from the cue before it, the first name, and what follows.
func (d *PIIDetector) isName(before string, words []string, after string) bool {
	first := strings.ToLower(trimPossessive(words[0]))
	if i := strings.IndexAny(first, "-'’"); i > 0 && !d.givenNames.has(first) {
		first = first[:i] // Mei-Lin -> mei
	}
	if famousSurnames[first] && len(words) == 1 {
		return false
	}
	for _, w := range words[1:] {
		if famousSurnames[strings.ToLower(trimPossessive(w))] {
			return false // Isaac Newton, Martin Luther King
		}
	}
	// "Newton's laws", "Bayes' theorem": possessive of a thing named after
	// someone.
	if possessiveConceptRE.MatchString(tailWindow(after, tailBytes)) && len(words) == 1 {
		return false
	}
	tail := before[max(0, len(before)-40):]
	if nameInNearbyEmail(words, after) {
		return true
	}
	if titleCue(tail) {
		return true
	}
	if notPersonContext(tail, after) {
		return false
	}
	if d.surnameEvidence(tail, words, after) {
		return true
	}
	switch {
	case strongCue(tail):
		return true
	case d.givenNames.has(first) && len(words) == 1 && (signOffCue(tail) || vocative(tail, after)):
		return true
	case cueBefore(tail, relationCues, nil):
		return len(words) >= 2 || looksLikeSurname(words[0]) || d.givenNames.has(first)
	case iamCue(tail):
		return d.givenNames.has(first) || len(words) >= 2 && looksLikeSurname(words[len(words)-1])
	case d.givenNames.has(first) && len(words) >= 2 && (!d.looseGiven.has(first) || d.knownName(words[len(words)-1])):
		return true
	case cueBefore(tail, personCues, ofCues) && len(words) >= 2 && !placeFollowsRE.MatchString(tailWindow(after, tailBytes)):
		// A known first name may come second, after the family name (Zhou Wei, Nagy Anna).
		// A loose first name needs more than a preposition ("for Shen Yun" tickets).
		return d.givenNames.has(first) && (!d.looseGiven.has(first) || !cueBefore(tail, weakCues, nil)) ||
			len(words) == 2 && looksLikeSurname(words[1]) &&
				(!cueBefore(tail, weakCues, nil) || looksLikeSurname(words[0]) && d.givenNames.holdsLower(trimPossessive(words[1])))
	case d.givenNames.has(first) && len(words) == 1:
		// A lone first name needs a person-like verb or address after it; a loose one more than
		// a preposition before it.
		return personVerbRE.MatchString(tailWindow(after, tailBytes)) ||
			cueBefore(tail, personCues, ofCues) && (!d.looseGiven.has(first) || !cueBefore(tail, weakCues, nil))
	}
	return false
}

var (
	possessiveConceptRE = lazyRE(`^(?:'s|’s|')?\s+(?:law|laws|theorem|theory|principle|equation|rule|method|constant|effect|paradox|conjecture|hypothesis|number|formula|test|algorithm|disease|syndrome)\b`)
	personVerbRE        = lazyRE(`^(?:,|\s)+(?:says|said|asked|wants|wrote|told|called|emailed|is|was|has|will|needs|thinks|who|from)\b`)
	placeFollowsRE      = lazyRE(`^\s*(?:University|College|Street|Avenue|Road|City|County|Hospital|Inc|Ltd|Corp)\b`)
)

// nameInNearbyEmail accepts capitalised words that reappear in the local
// part of an e-mail address right after them ("Alejandra Ruiz,
// alejandra.ruiz@example.org").
func nameInNearbyEmail(words []string, after string) bool {
	if len(words) < 2 {
		return false
	}
	after = after[:min(len(after), 80)]
	at := strings.IndexByte(after, '@')
	if at < 0 {
		return false
	}
	start := strings.LastIndexAny(after[:at], " \t\n,;:(<") + 1
	local := strings.ToLower(after[start:at])
	for _, w := range words {
		w = strings.ToLower(trimPossessive(w))
		if len(w) >= 3 && strings.Contains(local, w) {
			return true
		}
	}
	return false
}

// looksLikeSurname accepts capitalised words that are not common English
// words, judged crudely by length and letters.
func looksLikeSurname(w string) bool {
	w = trimPossessive(w)
	return utf8.RuneCountInString(w) >= 3 && !notNameWords[strings.ToLower(w)]
}

var (
	// personCues: role words that introduce a person; they need a two-word name or a
	// known first name after them. ofCues take "of" after them ("the family of").
	personCues = wordSetOf(`to for from with customer client patient employee tenant contact colleague manager candidate
	applicant student user cc by per ask tell email call invite remind named let ping text message answer reply
	thank notify inform congratulate resident young little guest visitor member`)
	// weakCues are prepositions among personCues: after them two capitalised words are a name
	// only when the first is a known first name ("for Adidas Ultraboost" is not).
	weakCues = wordSetOf(`to for from with by per`)
	ofCues   = wordSetOf(`family wife husband son daughter mother father parents widow friend`)
	// relationCues: a relative or someone close, right before a name: "my nephew Mateo",
	// "our coworker Ingrid"; the name may be a single word.
	relationCues = wordSetOf(`nephew niece son daughter wife husband mom mum mother dad father grandma grandpa granny
	grandmother grandfather grandson granddaughter aunt uncle cousin friend coworker co-worker colleague boss brother
	sister partner neighbour neighbor landlord landlady intern teacher tutor roommate flatmate fiancé fiancée fiance
	girlfriend boyfriend classmate stepson stepdaughter baby buddy pal mate bestie housemate`)
)

// cueBefore reports whether the text before a name ends with one of cues (in any case),
// optionally followed by a comma or colon, then whitespace; or with "of" after one of
// ofCues. It replaces an alternation regexp anchored at the end, which Go would try at
// every position.
func cueBefore(tail string, cues, ofCues map[string]bool) bool {
	t := strings.TrimRight(tail, " \t\n")
	if len(t) == len(tail) {
		return false // no whitespace before the name
	}
	t = strings.TrimSuffix(strings.TrimSuffix(t, ","), ":")
	w, rest := lastWord(t)
	if cues[w] {
		return true
	}
	if w != "of" || ofCues == nil {
		return false
	}
	rest = strings.TrimRight(rest, " \t\n")
	w, _ = lastWord(rest)
	return ofCues[w]
}

// lastWord returns the last word of t (letters and hyphens), lower-cased, and the text
// before it.
func lastWord(t string) (string, string) {
	i := strings.LastIndexFunc(t, func(r rune) bool { return !unicode.IsLetter(r) && r != '-' })
	return strings.ToLower(t[i+1:]), t[:i+1]
}

func wordSetOf(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}
