package signal

import (
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/semantic-router/semantic-router/internal/longtext"
)

// PIIType names a kind of personal or secret data.
type PIIType string

// The PII types the detector knows.
const (
	PIIEmail         PIIType = "email"
	PIIPhone         PIIType = "phone"
	PIICreditCard    PIIType = "credit_card"
	PIISSN           PIIType = "ssn"
	PIIIBAN          PIIType = "iban"
	PIIIPAddress     PIIType = "ip_address"
	PIIAPIKey        PIIType = "api_key"
	PIIPersonName    PIIType = "person_name"
	PIIStreetAddress PIIType = "street_address"
)

// PIITypes returns every type the detector knows, in the order overlaps
// are resolved.
func PIITypes() []PIIType { return append([]PIIType(nil), allPIITypes...) }

// allPIITypes lists every type in the order overlaps are resolved: when two
// findings overlap, the one whose type comes first wins (an email address
// is not also a name, card digits are not also a phone number).
var allPIITypes = []PIIType{
	PIIAPIKey, PIIEmail, PIIIBAN, PIICreditCard, PIISSN, PIIIPAddress,
	PIIPhone, PIIStreetAddress, PIIPersonName,
}

// PIIFinding is one detected span; Start and End are byte offsets into the
// text, Text is text[Start:End].
type PIIFinding struct {
	Type  PIIType
	Start int
	End   int
	Text  string
}

// PIIResult is the outcome of PIIDetector.Detect: findings sorted by Start. They do not
// overlap, except that personal data written in base64 or hex gives one finding per type
// found in it, each spanning the whole encoded run.
type PIIResult struct {
	Findings []PIIFinding
}

// Types returns the distinct types found, sorted.
func (r PIIResult) Types() []PIIType {
	seen := map[PIIType]bool{}
	var out []PIIType
	for _, f := range r.Findings {
		if !seen[f.Type] {
			seen[f.Type] = true
			out = append(out, f.Type)
		}
	}
	slices.Sort(out)
	return out
}

// Has reports whether any finding has type t.
func (r PIIResult) Has(t PIIType) bool {
	for _, f := range r.Findings {
		if f.Type == t {
			return true
		}
	}
	return false
}

// Mask returns text with every finding replaced by "[TYPE]", e.g.
// "mail [EMAIL] now"; an encoded run is replaced by its first type. text must be the text
// that was scanned.
func (r PIIResult) Mask(text string) string {
	var b strings.Builder
	prev := 0
	for _, f := range r.Findings {
		if f.Start < prev || f.End > len(text) {
			continue
		}
		b.WriteString(text[prev:f.Start])
		b.WriteString("[" + strings.ToUpper(string(f.Type)) + "]")
		prev = f.End
	}
	b.WriteString(text[prev:])
	return b.String()
}

// PIIOptions configure a PIIDetector.
type PIIOptions struct {
	// Types limits detection to these types; empty means all.
	Types []PIIType
	// ExtraGivenNames adds first names to the shipped list used by the
	// person_name heuristic.
	ExtraGivenNames []string
}

// PIIDetector finds PII with patterns plus validators (Luhn, mod-97, SSN
// ranges, IP parsing, token shapes) and, for names and street addresses,
// cue-based heuristics. It is safe for concurrent use.
type PIIDetector struct {
	enabled map[PIIType]bool
	// givenNames, surnames and looseGiven are read only: the shipped sets, shared by every
	// detector, with ExtraGivenNames added to givenNames and removed from looseGiven.
	givenNames nameSet
	surnames   nameSet
	// looseGiven are the first names of givenNames that need a known name after them in a run
	// (looseGivenNameSet), less ExtraGivenNames.
	looseGiven nameSet
	// blocks are the types found in the blocks and seams of long texts (TypesIn).
	blocks longtext.Memo[[]PIIType]
}

// NewPIIDetector returns a detector for the given options.
func NewPIIDetector(opts PIIOptions) (*PIIDetector, error) {
	warmTables()
	d := &PIIDetector{enabled: map[PIIType]bool{}, givenNames: shippedGivenNames(), surnames: shippedSurnames(),
		looseGiven: shippedLooseGivenNames(), blocks: longtext.Memo[[]PIIType]{Limit: piiBlocksKept}}
	known := map[PIIType]bool{}
	for _, t := range allPIITypes {
		known[t] = true
	}
	for _, t := range opts.Types {
		if !known[t] {
			return nil, fmt.Errorf("pii: unknown type %q", t)
		}
		d.enabled[t] = true
	}
	if len(opts.Types) == 0 {
		for _, t := range allPIITypes {
			d.enabled[t] = true
		}
	}
	if len(opts.ExtraGivenNames) > 0 {
		extra := make(map[string]bool, len(opts.ExtraGivenNames))
		for _, n := range opts.ExtraGivenNames {
			extra[strings.ToLower(n)] = true
		}
		d.givenNames.added, d.looseGiven.removed = extra, extra
	}
	return d, nil
}

// Mask is shorthand for d.Detect(text).Mask(text).
func (d *PIIDetector) Mask(text string) string { return d.Detect(text).Mask(text) }

// Detect scans text.
func (d *PIIDetector) Detect(text string) PIIResult { return d.detect(text, true, maxEscapeLevels) }

// detect scans text; gate skips the patterns that facts about the text rule out (see
// textFacts), which never changes the findings. escapes is how many levels of escapes
// are read decoded (see escapedFindings).
func (d *PIIDetector) detect(text string, gate bool, escapes int) PIIResult {
	var all []PIIFinding
	// Every numeric type needs a digit and an e-mail needs "@": most
	// prompts have neither, and skipping those regexps is most of the
	// detector's speed.
	hasDigit := strings.ContainsAny(text, "0123456789")
	hasAt := strings.IndexByte(text, '@') >= 0
	facts := allFacts
	if gate && hasDigit {
		facts = factsOf(text)
	}
	// The runs the numeric patterns read (see findInRuns), found when one of them runs.
	var runs []numericRun
	numeric := func() []numericRun {
		if runs == nil {
			runs = wholeText
			if gate {
				runs = numericRuns(text)
			}
		}
		return runs
	}
	for _, t := range allPIITypes {
		if !d.enabled[t] {
			continue
		}
		switch t {
		case PIIEmail:
			if !hasAt {
				continue
			}
		case PIIIBAN:
			if !hasDigit || !facts.ibanStart {
				continue
			}
		case PIIStreetAddress:
			if !hasDigit {
				continue
			}
		case PIICreditCard:
			if !hasDigit || facts.digitGroup < minCardDigits {
				continue
			}
		case PIISSN:
			if !hasDigit || facts.digitGroup < minSSNDigits {
				continue
			}
		case PIIPhone:
			if !hasDigit || facts.digitGroup < minPhoneDigits {
				continue
			}
		case PIIIPAddress:
			if !hasDigit && !strings.Contains(text, "::") {
				continue
			}
		}
		var spans [][2]int
		switch t {
		case PIIAPIKey:
			spans = findAPIKeys(text, gate)
		case PIIEmail:
			spans = findEmails(text)
		case PIIIBAN:
			spans = findIBANs(text)
		case PIICreditCard:
			spans = findCards(text, numeric())
		case PIISSN:
			spans = findSSNs(text, numeric())
		case PIIIPAddress:
			if !hasDigit && gate {
				facts = factsOf(text) // "::" without digits
			}
			spans = findIPs(text, facts, numeric)
		case PIIPhone:
			spans = findPhones(text, numeric())
		case PIIStreetAddress:
			spans = findAddresses(text, gate)
		case PIIPersonName:
			spans = d.findNames(text)
		}
		all = addSpans(all, t, text, spans)
	}
	if len(text) >= minEncodedRun {
		all = append(all, d.encodedFindings(text, all, gate)...)
	}
	if escapes > 0 {
		all = append(all, d.escapedFindings(text, all, gate, escapes-1)...)
	}
	// Findings do not overlap, but for the types found in one encoded run, which share its
	// span; SortStableFunc keeps those in Types order.
	slices.SortStableFunc(all, func(a, b PIIFinding) int { return a.Start - b.Start })
	return PIIResult{Findings: all}
}

// addSpans adds to all, which is sorted by Start and holds no overlap, a finding of type t
// for each span that overlaps none of them nor a span taken before it, and returns it so
// sorted. Spans are taken in order of their starts (the finders give them so), so each is
// checked by a binary search and against the last one taken: a text with n findings costs
// n log n, not n², however many it holds.
func addSpans(all []PIIFinding, t PIIType, text string, spans [][2]int) []PIIFinding {
	if len(spans) == 0 {
		return all
	}
	byStart := func(a, b [2]int) int { return a[0] - b[0] }
	if !slices.IsSortedFunc(spans, byStart) {
		spans = slices.Clone(spans)
		slices.SortStableFunc(spans, byStart)
	}
	var taken []PIIFinding
	for _, s := range spans {
		if overlapsLastSpan(taken, findingSpan, s[0]) || overlapsSorted(all, findingSpan, s[0], s[1]) {
			continue
		}
		taken = append(taken, PIIFinding{Type: t, Start: s[0], End: s[1], Text: text[s[0]:s[1]]})
	}
	return mergeSorted(all, taken, findingSpan)
}

// emailRE takes the ideographic full stops (U+3002, its half-width and the full-width full
// stop U+FF0E) for dots in the domain, as mail clients and IDNA do.
var emailRE = lazyRE(`[A-Za-z0-9][A-Za-z0-9._%+\-]*@[A-Za-z0-9](?:[A-Za-z0-9\-]*[A-Za-z0-9])?(?:[.。｡．][A-Za-z0-9](?:[A-Za-z0-9\-]*[A-Za-z0-9])?)*[.。｡．][A-Za-z]{2,24}\b`)

func findEmails(text string) [][2]int {
	var out [][2]int
	for _, m := range emailRE.FindAllStringIndex(text, -1) {
		local := text[m[0] : strings.IndexByte(text[m[0]:], '@')+m[0]]
		if strings.Contains(local, "..") || strings.HasSuffix(local, ".") {
			continue
		}
		out = append(out, [2]int{m[0], m[1]})
	}
	return out
}

// isWordByte reports ASCII letters and digits, used for hand-made word
// boundaries where RE2's \b is not precise enough.
func isWordByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func digitsOf(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// cardRE allows the usual groupings (4-4-4-4, 4-6-5, runs of digits)
// separated by a space or line break (normalised text has no longer runs), or
// by one of the separators the SSN pattern takes (- . / _ , : | ~ * +) with a
// blank on either side or none. It
// ends before a character that is not a digit (which the match takes, and the
// finding leaves out), and its start is checked by hand (digitBounded), so that
// a letter glued to the number does not hide it.
var cardRE = lazyRE(`\d(?:(?:\s?[\-./_,:|~*+]\s?|\s)?\d){12,18}(?:\D|$)`)

func findCards(text string, runs []numericRun) [][2]int {
	var out [][2]int
	for _, m := range findInRuns(cardRE.FindAllStringIndex, text, runs, minCardDigits) {
		if !isDigit(text[m[1]-1]) {
			_, size := utf8.DecodeLastRuneInString(text[:m[1]])
			m[1] -= size // the character after the number, one byte or more ("4111…1111é")
		}
		if !digitBounded(text, m[0], m[1]) {
			continue
		}
		ds := digitsOf(text[m[0]:m[1]])
		if len(ds) < 13 || len(ds) > 19 || !luhn(ds) || !cardPrefix(ds) {
			continue
		}
		out = append(out, [2]int{m[0], m[1]})
	}
	return out
}

// cardPrefix accepts the issuer prefixes in wide use (Visa, Mastercard
// incl. 2-series, Amex, Discover, JCB, Diners, UnionPay, Maestro), which
// keeps Luhn-valid tracking and order numbers out.
func cardPrefix(ds string) bool {
	n := len(ds)
	p2 := atoi(ds[:2])
	p3 := atoi(ds[:3])
	p4 := atoi(ds[:4])
	switch {
	case ds[0] == '4':
		return n == 13 || n == 16 || n == 19
	case p2 >= 51 && p2 <= 55, p4 >= 2221 && p4 <= 2720:
		return n == 16
	case p2 == 34 || p2 == 37:
		return n == 15
	case p4 == 6011 || p2 == 65 || p3 >= 644 && p3 <= 649:
		return n >= 16
	case p4 >= 3528 && p4 <= 3589:
		return n >= 16
	case p2 == 36 || p2 == 38 || p3 >= 300 && p3 <= 305:
		return n >= 14
	case p2 == 62:
		return n >= 16
	case p2 == 50 || p2 >= 56 && p2 <= 69:
		return n >= 12
	}
	return false
}

func atoi(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}

func luhn(ds string) bool {
	sum := 0
	double := false
	for i := len(ds) - 1; i >= 0; i-- {
		d := int(ds[i] - '0')
		if double {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
		double = !double
	}
	return sum%10 == 0
}

var (
	// Groups are separated by one or two of - . / _ , : | ~ * + (with a blank
	// on either side or none) or a blank alone: a space or a line break, as
	// normalised text has them. The number ends before a character that is not
	// a digit (which the match takes, and the finding leaves out), and its start
	// is checked by hand (digitBounded): a letter glued to it
	// ("ssnX123-45-6789") hides nothing.
	ssnRE = lazyRE(`(\d{3})(\s?[-./_,:|~*+]{1,2}\s?|\s)(\d{2})(\s?[-./_,:|~*+]{1,2}\s?|\s)(\d{4})(?:\D|$)`)
	// An SSN written otherwise (undashed, grouped another way, one digit at a time: "1 2 3 4
	// 5 6 7 8 9", "12-34-56-789") is only trusted right after an SSN cue.
	ssnCueRE = lazyRE(`(?i)\b(?:ssn|social security(?: number| no\.?)?|ss#)\s*(?:is|:|#|no\.?)?\s*(\d(?: ?[-./_,:|~*+]? ?\d){8})\b`)
)

func findSSNs(text string, runs []numericRun) [][2]int {
	var out [][2]int
	for _, m := range findInRuns(ssnRE.FindAllStringSubmatchIndex, text, runs, minSSNDigits) {
		if strings.TrimSpace(text[m[4]:m[5]]) != strings.TrimSpace(text[m[8]:m[9]]) { // mixed separators
			continue
		}
		start, end := m[2], m[11] // the number, without the character after it
		if digitBounded(text, start, end) && validSSN(text[m[2]:m[3]], text[m[6]:m[7]], text[m[10]:m[11]]) && !dashedNeighbour(text, start, end) {
			out = append(out, [2]int{start, end})
		}
	}
	for _, m := range ssnCueRE.FindAllStringSubmatchIndex(text, -1) {
		if slices.Contains(out, [2]int{m[2], m[3]}) {
			continue // a dashed SSN after its cue, found already
		}
		s := digitsOf(text[m[2]:m[3]])
		if len(s) == 9 && !goesOn(text, m[3]) && validSSN(s[:3], s[3:5], s[5:]) {
			out = append(out, [2]int{m[2], m[3]})
		}
	}
	return out
}

// goesOn reports whether the number that ends at end goes on: a separator the cued SSN
// pattern takes, then a digit. The nine digits it matched are then part of a longer number.
func goesOn(text string, end int) bool {
	i := end
	for i < len(text) && i < end+3 && strings.IndexByte(" -./_,:|~*+", text[i]) >= 0 {
		i++
	}
	return i > end && i < len(text) && isDigit(text[i])
}

// digitBounded reports whether text[start:end] is not glued to another digit on
// either side: a number's digits are all of it.
func digitBounded(text string, start, end int) bool {
	return (start == 0 || !isDigit(text[start-1])) && (end == len(text) || !isDigit(text[end]))
}

// dashedNeighbour rejects matches glued to more digit groups, as in
// 123-45-6789-01 (part numbers, not SSNs).
func dashedNeighbour(text string, start, end int) bool {
	if start >= 2 && (text[start-1] == '-' || text[start-1] == '.') && text[start-2] >= '0' && text[start-2] <= '9' {
		return true
	}
	return end+1 < len(text) && (text[end] == '-' || text[end] == '.') && text[end+1] >= '0' && text[end+1] <= '9'
}

// validSSN applies the SSA's rules: area not 000, 666 or 9xx; group not
// 00; serial not 0000.
func validSSN(area, group, serial string) bool {
	return area != "000" && area != "666" && area[0] != '9' && group != "00" && serial != "0000"
}

var ibanRE = lazyRE(`\b[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]){10,32}`)

// ibanLengths maps country code to IBAN length (the SWIFT registry).
var ibanLengths = map[string]int{
	"AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22, "BR": 29,
	"BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DK": 18, "DO": 28, "EE": 20, "EG": 29,
	"ES": 24, "FI": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23, "GL": 18, "GR": 27, "GT": 28,
	"HR": 21, "HU": 28, "IE": 22, "IL": 23, "IQ": 23, "IS": 26, "IT": 27, "JO": 30, "KW": 30, "KZ": 20,
	"LB": 28, "LC": 32, "LI": 21, "LT": 20, "LU": 20, "LV": 21, "LY": 25, "MC": 27, "MD": 24, "ME": 22,
	"MK": 19, "MR": 27, "MT": 31, "MU": 30, "NL": 18, "NO": 15, "PK": 24, "PL": 28, "PS": 29, "PT": 25,
	"QA": 29, "RO": 24, "RS": 22, "SA": 24, "SC": 31, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "ST": 25,
	"SV": 28, "TL": 23, "TN": 24, "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20,
}

// findIBANs finds IBANs written in capitals or not ("gb82 west 1234 …"): the country's
// length and the mod-97 check decide, on the text with its ASCII letters in capitals, which
// keeps every offset.
func findIBANs(text string) [][2]int {
	var out [][2]int
	text = asciiUpper(text)
	for _, m := range ibanRE.FindAllStringIndex(text, -1) {
		want, ok := ibanLengths[text[m[0]:m[0]+2]]
		if !ok {
			continue
		}
		// Take exactly the country's length of characters, so a following
		// capitalised word is not swallowed.
		var compact []byte
		end := m[0]
		for end < m[1] && len(compact) < want {
			if text[end] != ' ' {
				compact = append(compact, text[end])
			}
			end++
		}
		if len(compact) != want || (end < len(text) && isWordByte(text[end])) || !mod97(string(compact)) {
			continue
		}
		out = append(out, [2]int{m[0], end})
	}
	return out
}

// mod97 is the ISO 13616 check: move the first four characters to the end,
// turn letters into 10..35, and the number mod 97 must be 1.
func mod97(iban string) bool {
	s := iban[4:] + iban[:4]
	r := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			r = (r*10 + int(c-'0')) % 97
		case c >= 'A' && c <= 'Z':
			r = (r*100 + int(c-'A'+10)) % 97
		default:
			return false
		}
	}
	return r == 1
}

var (
	ipv4RE = lazyRE(`\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b`)
	// versionBeforeRE marks dotted numbers that are versions ("version
	// 2.14.1.0", "v1.2.3.4").
	versionBeforeRE = lazyRE(`(?i)(?:version|ver\.?|release|build|v)\s*$`)
)

// findIPs finds IPv4 addresses where the text has three dotted digits, and IPv6 addresses
// where it has two colons.
func findIPs(text string, facts textFacts, numeric func() []numericRun) [][2]int {
	var out [][2]int
	var v4 [][]int
	var v6 [][2]int
	if facts.digitDots >= 3 {
		v4 = findInRuns(ipv4RE.FindAllStringIndex, text, numeric(), 4)
	}
	if facts.colons >= 2 {
		v6 = ipv6Candidates(text)
	}
	for _, m := range v4 {
		// 1.2.3.4.5 is a version string, not an address.
		if m[0] > 0 && text[m[0]-1] == '.' || m[1]+1 < len(text) && text[m[1]] == '.' && isWordByte(text[m[1]+1]) {
			continue
		}
		if versionBeforeRE.MatchString(text[max(0, m[0]-16):m[0]]) {
			continue
		}
		if a, err := netip.ParseAddr(text[m[0]:m[1]]); err == nil && a.Is4() && identifiesHost(a) {
			out = append(out, [2]int{m[0], m[1]})
		}
	}
	for _, m := range v6 {
		s, e := m[0], m[1]
		for e > s && (text[e-1] == '.' || text[e-1] == ':' && (e-2 < s || text[e-2] != ':')) {
			e-- // trailing sentence punctuation
		}
		if s > 0 && (isWordByte(text[s-1]) || text[s-1] == '_') || e < len(text) && (isWordByte(text[e]) || text[e] == '_') {
			continue
		}
		cand := text[s:e]
		if strings.Count(cand, ":") < 2 || len(strings.FieldsFunc(cand, func(r rune) bool { return r == ':' })) < 3 {
			continue // too short to tell from C++ scopes or times
		}
		if a, err := netip.ParseAddr(cand); err == nil && a.Is6() && identifiesHost(a) {
			out = append(out, [2]int{s, e})
		}
	}
	return out
}

// ipv6Candidates returns the runs of hex digits and colons that hold two colons or more,
// each with the hex digits, colons and dots that follow it: what the regexp
// `[0-9A-Fa-f:]*:[0-9A-Fa-f:]*:[0-9A-Fa-f:.]*` finds, in one pass. The regexp, which may
// start at any hex digit, was tried at nearly every position of a text.
func ipv6Candidates(text string) [][2]int {
	var out [][2]int
	for i := 0; i < len(text); {
		if !isHexOrColon(text[i]) {
			i++
			continue
		}
		start, colons := i, 0
		for ; i < len(text) && isHexOrColon(text[i]); i++ {
			if text[i] == ':' {
				colons++
			}
		}
		if colons < 2 {
			continue
		}
		for i < len(text) && (isHexOrColon(text[i]) || text[i] == '.') {
			i++
		}
		out = append(out, [2]int{start, i})
	}
	return out
}

func isHexOrColon(c byte) bool { return hexOrColonBytes[c] }

// hexOrColonBytes holds the bytes of an IPv6 address's hex groups and their colons: a table,
// as ipv6Candidates asks about every byte of a text.
var hexOrColonBytes = byteSet(func(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' || c == ':'
})

// byteSet returns the table of the bytes in.
func byteSet(in func(byte) bool) (set [256]bool) {
	for c := range 256 {
		set[c] = in(byte(c))
	}
	return set
}

// identifiesHost drops addresses that name no particular machine:
// loopback, unspecified, broadcast and netmasks (255.255.255.0).
func identifiesHost(a netip.Addr) bool {
	if a.IsLoopback() || a.IsUnspecified() {
		return false
	}
	return !a.Is4() || a.As4()[0] != 255
}

var (
	// International: +CC then 6 to 14 more digits in groups.
	phoneIntlRE = lazyRE(`\+\d{1,3}[ .\-]?(?:\(\d{1,4}\)[ .\-]?)?\d{1,5}(?:[ .\-]?\d{2,5}){1,4}\b`)
	// North American: optional 1, (area) or area, exchange, line.
	phoneUSRE = lazyRE(`(?:\b1[ .\-]?)?(?:\(\d{3}\)[ .\-]?|\b\d{3}[ .\-])\d{3}[ .\-]\d{4}\b`)
	// National trunk-prefixed numbers (UK 0161 496 0733, FR 01 23 45 67 89,
	// DE 030 1234567) are only trusted next to a phone cue.
	phoneNationalRE = lazyRE(`\b0\d{1,4}(?:[ .\-]\d{2,8}){1,4}\b`)
	// Numbers without a trunk prefix (ES 612 345 678, IT 347 123 4567), or written without
	// separators (4155550132), are trusted only right after a word that names a phone
	// (phoneCloseCueRE: not "text", "ring" or "cell" alone).
	// After such a word, the area code may stand in parentheses without a space after them
	// ("(415)5550132") and the groups may be cut by slashes or underscores ("415/555/0132").
	phoneNoTrunkRE  = lazyRE(`(?:\(\s*)?\b[1-9]\d{1,4}\)?(?:[ .\-/_]?\d{2,8}){1,4}\b`)
	phoneCueRE      = lazyFoldedRE(`(?i)` + phoneCues)
	phoneCloseCueRE = lazyFoldedRE(`(?i)\b(?:phone|tel|mobile|cell ?phone|whatsapp|fax|call (?:me|us)(?: at| on)?|(?:my|your|his|her|our|their) number|` +
		`t[ée]l[ée]phone|telefon|tel[ée]fono|telefone|numéro|n[uú]mero|nummer|handy|m[óo]vil|celular|cellulare|portable)[^0-9]{0,16}$`)
)

// phoneCues are the words that say a number is a phone number.
const phoneCues = `(?:phone|tel|mobile|cell|call|ring|text|whatsapp|fax|contact|reach|(?:my|your|his|her|our|their) number|` +
	`t[ée]l[ée]phone|telefon|tel[ée]fono|telefone|numéro|n[uú]mero|nummer|handy|m[óo]vil|celular|cellulare|portable)`

// findPhones reads each pattern in the numeric runs (see findInRuns) that hold as many digits
// as its numbers need: a run with fewer holds no number that is kept.
func findPhones(text string, runs []numericRun) [][2]int {
	var out [][2]int
	add := func(s, e int) {
		for _, o := range out {
			if s < o[1] && o[0] < e {
				return
			}
		}
		out = append(out, [2]int{s, e})
	}
	for _, m := range findInRuns(phoneIntlRE.FindAllStringIndex, text, runs, 8) {
		if n := len(digitsOf(text[m[0]:m[1]])); n >= 8 && n <= 15 {
			add(m[0], m[1])
		}
	}
	for _, m := range findInRuns(phoneUSRE.FindAllStringIndex, text, runs, 10) {
		s := m[0]
		if s > 0 && (text[s-1] == '+' || text[s-1] == '-' || text[s-1] == '.') {
			continue
		}
		ds := digitsOf(text[m[0]:m[1]])
		if len(ds) == 11 {
			ds = ds[1:]
		}
		// NANP: area code and exchange start with 2-9.
		if ds[0] < '2' || ds[3] < '2' {
			continue
		}
		add(m[0], m[1])
	}
	for _, m := range findInRuns(phoneNationalRE.FindAllStringIndex, text, runs, 9) {
		n := len(digitsOf(text[m[0]:m[1]]))
		if n < 9 || n > 12 || !phoneCueRE.MatchString(text[max(0, m[0]-60):m[0]]) && !listedWithContact(text, m[0]) {
			continue
		}
		add(m[0], m[1])
	}
	for _, m := range findInRuns(phoneNoTrunkRE.FindAllStringIndex, text, runs, 9) {
		n := len(digitsOf(text[m[0]:m[1]]))
		if n < 9 || n > 12 || m[0] > 0 && strings.IndexByte("+-./", text[m[0]-1]) >= 0 || !phoneCloseCueRE.MatchString(text[max(0, m[0]-40):m[0]]) {
			continue
		}
		add(m[0], m[1])
	}
	return out
}

// listedWithContact accepts a national number that follows an e-mail
// address in the same list ("billing@x.example, 0161 496 0733").
func listedWithContact(text string, start int) bool {
	before := text[max(0, start-80):start]
	return strings.Contains(before, "@")
}

// asciiUpper is text with its ASCII letters in capitals and every other byte as it is; text
// itself when it has no lower-case ASCII letter.
func asciiUpper(text string) string {
	i := strings.IndexFunc(text, func(r rune) bool { return r >= 'a' && r <= 'z' })
	if i < 0 {
		return text
	}
	b := []byte(text)
	for j := i; j < len(b); j++ {
		if c := b[j]; c >= 'a' && c <= 'z' {
			b[j] = c - 'a' + 'A'
		}
	}
	return string(b)
}
