package signal

import (
	"math"
	"strings"
	"unicode/utf8"
)

// tokenREs match credential formats that are unambiguous by shape. Each runs only if its
// literal prefix occurs in the text and, when gated, if the text holds a run of at least run
// token characters ([A-Za-z0-9_-]) in a row, as each of its matches does: most texts hold
// no run of 20, which rules out all but the shortest formats without looking for prefixes.
var tokenREs = []struct {
	prefixes []string
	run      int
	re       *lazyRegexp
}{
	{[]string{"sk-"}, 23, lazyRE(`\bsk-(?:proj-|ant-(?:api\d\d-)?|live-|svcacct-)?[A-Za-z0-9_\-]{20,}`)},           // OpenAI, Anthropic
	{[]string{"AKIA", "ASIA", "AGPA", "AIDA", "AROA"}, 20, lazyRE(`\b(?:AKIA|ASIA|AGPA|AIDA|AROA)[0-9A-Z]{16}\b`)}, // AWS access key IDs
	{[]string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}, 34, lazyRE(`\bgh[pousr]_[A-Za-z0-9]{30,}\b`)},               // GitHub
	{[]string{"github_pat_"}, 51, lazyRE(`\bgithub_pat_[A-Za-z0-9_]{40,}\b`)},
	{[]string{"glpat-"}, 26, lazyRE(`\bglpat-[A-Za-z0-9_\-]{20,}\b`)},                                   // GitLab
	{[]string{"xox"}, 15, lazyRE(`\bxox[abprse]-[A-Za-z0-9\-]{10,}`)},                                   // Slack
	{[]string{"AIza"}, 39, lazyRE(`\bAIza[0-9A-Za-z_\-]{35}\b`)},                                        // Google
	{[]string{"_live_", "_test_"}, 24, lazyRE(`\b[rsp]k_(?:live|test)_[A-Za-z0-9]{16,}\b`)},             // Stripe
	{[]string{"hf_"}, 33, lazyRE(`\bhf_[A-Za-z0-9]{30,}\b`)},                                            // Hugging Face
	{[]string{"npm_"}, 40, lazyRE(`\bnpm_[A-Za-z0-9]{36}\b`)},                                           // npm
	{[]string{"SG."}, 16, lazyRE(`\bSG\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,}\b`)},                   // SendGrid
	{[]string{"eyJ"}, 11, lazyRE(`\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}`)}, // JWT
	{[]string{"PRIVATE KEY"}, 0, lazyRE(`-----BEGIN (?:RSA |EC |OPENSSH |DSA )?PRIVATE KEY-----`)},
}

// secretCues gate secretCueRE (checked on the lowercased text).
var secretCues = []string{"key", "secret", "token", "passw", "auth", "bearer", "credential"}

// secretCueRE finds a long opaque value right after a key-like word
// ("api_key=...", "token: ...", "password is ..."); the value is then
// checked for entropy.
var secretCueRE = lazyRE(`(?i)(?:api[_\-\s]?key|apikey|secret|token|passw(?:or)?d|access[_\-\s]?key|private[_\-\s]?key|auth(?:orization)?|bearer|credential|client[_\-\s]?secret)s?[\w\-]{0,20}["']?\s*(?:[:=]|is|=>)?\s*["']?(?:Bearer\s+)?([A-Za-z0-9+/_\-]{20,}={0,2})`)

// findAPIKeys finds credentials; gate skips the cue windows that hold no run of value
// characters long enough for a key.
func findAPIKeys(text string, gate bool) [][2]int {
	var out [][2]int
	add := func(s, e int) {
		for _, o := range out {
			if s < o[1] && o[0] < e {
				return
			}
		}
		out = append(out, [2]int{s, e})
	}
	longest, values := maxTokenRun, true
	if gate {
		longest, values = longRuns(text)
	}
	for _, tr := range tokenREs {
		if tr.run > longest || !containsAny(text, tr.prefixes) {
			continue
		}
		for _, m := range tr.re.FindAllStringIndex(text, -1) {
			add(m[0], m[1])
		}
	}
	// secretCueRE runs only in windows around the cue words: each match starts at most a
	// few bytes before one ("api_key", "client_secret") and its value is bounded. A window
	// holds a run of value characters only where the text does: without one, no cue needs
	// looking for.
	if !values {
		return out
	}
	for _, cue := range secretCues {
		for from := 0; ; {
			i := indexFoldASCII(text[from:], cue)
			if i < 0 {
				break
			}
			p := from + i
			base := max(0, p-secretCueBefore)
			window := text[base:min(len(text), p+secretCueAfter)]
			from = p + len(cue)
			if gate && !hasValueRun(window) {
				continue
			}
			for _, m := range secretCueRE.FindAllStringSubmatchIndex(window, -1) {
				if v := text[base+m[2] : base+m[3]]; looksRandom(v) {
					add(base+m[2], base+m[3])
				}
			}
		}
	}
	return out
}

// maxTokenRun is the longest run of token characters any of tokenREs needs.
const maxTokenRun = 51

// longRuns reads text once for the runs the credential patterns need: the length of its
// longest run of token characters ([A-Za-z0-9_-]), or maxTokenRun if it is longer, and
// whether it holds a run of 20 value characters, as hasValueRun reports.
func longRuns(text string) (token int, values bool) {
	t, v := 0, 0         // the current runs' lengths; a token character is a value character too
	end := func() bool { // a run ends: whether both answers are known
		token, values = max(token, t), values || v >= 20
		return token >= maxTokenRun && values
	}
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case tokenBytes[c]:
				t++
				v++
				continue
			case valueBytes[c]:
				v++
				if end() {
					return maxTokenRun, true
				}
				t = 0
				continue
			}
		} else {
			r, size := utf8.DecodeRuneInString(text[i:])
			i += size
			if r == 'ſ' || r == 'K' { // the value class is case-folded
				v++
				if end() {
					return maxTokenRun, true
				}
				t = 0
				continue
			}
		}
		if end() {
			return maxTokenRun, true
		}
		t, v = 0, 0
	}
	end()
	return min(token, maxTokenRun), values
}

// tokenBytes holds the token characters of tokenREs.
var tokenBytes = byteSet(func(c byte) bool { return isREWordByte(c) || c == '-' })

// The window around a secret cue word that secretCueRE reads: the longest prefix before the
// cue ("client_" of "client_secret", "authorization" holding "auth"), and the cue, separator
// and value after it (a key of up to 512 characters).
const (
	secretCueBefore = 16
	secretCueAfter  = 600
)

// indexFoldASCII is the index of sub (lower-case ASCII) in text in any case, or -1. It jumps
// between occurrences of sub's first letter in either case, each case's next one looked up
// once: a text full of one case of it and none of the other ("AAAA…" for "auth") is read
// once, not once per letter.
func indexFoldASCII(text, sub string) int {
	if sub == "" {
		return 0
	}
	lo, up := sub[0], sub[0]
	if 'a' <= lo && lo <= 'z' {
		up = lo - ('a' - 'A')
	}
	// next returns the next occurrence of c at or after i (len(text) if none), looking it up
	// again only once i has passed the one found before.
	next := func(c byte, found *int, i int) int {
		if *found < i {
			*found = len(text)
			if k := strings.IndexByte(text[i:], c); k >= 0 {
				*found = i + k
			}
		}
		return *found
	}
	nextLo, nextUp := -1, -1
	for i := 0; i+len(sub) <= len(text); i++ {
		j := next(lo, &nextLo, i)
		if up != lo {
			j = min(j, next(up, &nextUp, i))
		}
		if j+len(sub) > len(text) {
			return -1
		}
		i = j
		if equalFoldLowerASCII(text[i+1:i+len(sub)], sub[1:]) {
			return i
		}
	}
	return -1
}

// equalFoldLowerASCII reports whether s equals lower (lower-case ASCII) in any ASCII case.
func equalFoldLowerASCII(s, lower string) bool {
	for j := 0; j < len(lower); j++ {
		c := s[j]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[j] {
			return false
		}
	}
	return true
}

// looksRandom accepts long hex strings and base64-like strings that mix
// character classes with high per-character entropy, and rejects words,
// identifiers such as "my_api_key_variable_name" and repeated characters.
func looksRandom(v string) bool {
	if len(v) < 20 {
		return false
	}
	if isHex(v) {
		return len(v) >= 32 && entropy(v) >= 3.0
	}
	var lower, upper, digit int
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c >= 'a' && c <= 'z':
			lower++
		case c >= 'A' && c <= 'Z':
			upper++
		case c >= '0' && c <= '9':
			digit++
		}
	}
	classes := 0
	for _, n := range []int{lower, upper, digit} {
		if n > 0 {
			classes++
		}
	}
	if classes < 2 || digit == 0 && strings.ContainsAny(v, "_-") {
		return false
	}
	return entropy(v) >= 3.5
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isHexDigit(s[i]) {
			return false
		}
	}
	return true
}

// entropy is the Shannon entropy of s in bits per byte.
func entropy(s string) float64 {
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	var h float64
	n := float64(len(s))
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}
