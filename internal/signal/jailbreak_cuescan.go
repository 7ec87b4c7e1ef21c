package signal

import (
	"math"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"unicode/utf8"
)

// ruleCues finds the cues of every jailbreak rule and the harmful cues in
// one pass over the lowercased prompt, instead of one strings.Index per
// cue and rule. It reports the same occurrences as repeated strings.Index:
// per cue, leftmost first and not overlapping the previous one.
type ruleCues struct {
	cues []string
	// byPair[b0<<8|b1]-1 indexes buckets: the ids of the cues that start
	// with the bytes b0 b1 (every cue has at least two bytes).
	byPair  [1 << 16]uint16
	buckets [][]int
	rules   []uint64 // per cue: bit i set if jailbreakRules[i] has it
	harmful []bool   // per cue: it is one of harmfulCues
	// harmfulAtStart are harmful cues that begin with a space, minus the
	// space: they match at the very start of the text.
	harmfulAtStart []string
	// needs are, per rule, the literals its matches must hold (requiredLiterals); starts,
	// per rule, where its matches can start (nil: anywhere).
	needs  [][][]string
	starts []*ruleStart
}

// cueHit is one occurrence of a cue: its id and byte offset.
type cueHit struct{ id, pos int }

var jailbreakCues = table(func() *ruleCues { return newRuleCues(jailbreakRules, harmfulCues) })

func newRuleCues(rules []jailbreakRule, harmful []string) *ruleCues {
	if len(rules) > 64 {
		panic("signal: more than 64 jailbreak rules")
	}
	rc := &ruleCues{}
	ids := map[string]int{}
	id := func(c string) int {
		if c == "" {
			panic("signal: empty jailbreak cue")
		}
		if i, ok := ids[c]; ok {
			return i
		}
		i := len(rc.cues)
		ids[c] = i
		rc.cues = append(rc.cues, c)
		rc.rules = append(rc.rules, 0)
		rc.harmful = append(rc.harmful, false)
		if len(c) < 2 {
			panic("signal: jailbreak cue " + c + " is shorter than two bytes")
		}
		k := int(c[0])<<8 | int(c[1])
		if rc.byPair[k] == 0 {
			rc.buckets = append(rc.buckets, nil)
			n := len(rc.buckets)
			if n > math.MaxUint16 {
				panic("signal: too many jailbreak cue buckets")
			}
			rc.byPair[k] = uint16(n)
		}
		rc.buckets[rc.byPair[k]-1] = append(rc.buckets[rc.byPair[k]-1], i)
		return i
	}
	for ri, r := range rules {
		for _, c := range r.Cues {
			rc.rules[id(c)] |= 1 << ri
		}
	}
	for _, c := range harmful {
		rc.harmful[id(c)] = true
		if strings.HasPrefix(c, " ") {
			rc.harmfulAtStart = append(rc.harmfulAtStart, c[1:])
		}
	}
	rc.needs, rc.starts = make([][][]string, len(rules)), make([]*ruleStart, len(rules))
	for i, r := range rules {
		rc.needs[i], rc.starts[i] = ruleNeedsAndStart(r.RE)
	}
	return rc
}

// scan returns the cue occurrences in lower, ordered by position, and
// whether " "+lower contains a harmful cue.
func (rc *ruleCues) scan(lower string, hits []cueHit) ([]cueHit, bool) {
	first := len(hits) // hits before this belong to the caller
	// next holds, per cue, where its next occurrence may start. Until hits
	// are many, the last hit of the cue says the same, and a short search
	// costs less than clearing a slot per cue for every scan.
	var next []int
	harmful := false
	for _, c := range rc.harmfulAtStart {
		if strings.HasPrefix(lower, c) {
			harmful = true
		}
	}
	for i := 0; i+1 < len(lower); i++ {
		b := rc.byPair[int(lower[i])<<8|int(lower[i+1])]
		if b == 0 {
			continue
		}
		rest := lower[i:]
		for _, id := range rc.buckets[b-1] {
			c := rc.cues[id]
			if len(c) > len(rest) || rest[:len(c)] != c {
				continue
			}
			if next != nil && i < next[id] || next == nil && overlapsLast(hits[first:], id, i, len(c)) {
				continue
			}
			hits = append(hits, cueHit{id, i})
			switch {
			case next != nil:
				next[id] = i + len(c)
			case len(hits)-first > maxHitSearch:
				next = make([]int, len(rc.cues))
				for _, h := range hits[first:] {
					next[h.id] = h.pos + len(rc.cues[h.id])
				}
			}
			harmful = harmful || rc.harmful[id]
		}
	}
	return hits, harmful
}

// maxHitSearch is how many hits scan searches before it keeps a slot per cue.
const maxHitSearch = 32

// overlapsLast reports whether the last occurrence of cue id in hits, which
// has length n, ends after i.
func overlapsLast(hits []cueHit, id, i, n int) bool {
	for k := len(hits) - 1; k >= 0; k-- {
		if hits[k].id == id {
			return hits[k].pos+n > i
		}
	}
	return false
}

// matchHits is match with the cue occurrences already found: rule is the
// rule's index in jailbreakRules.
func (r jailbreakRule) matchHits(lower string, rule int, rc *ruleCues, hits []cueHit) bool {
	var buf [8][2]int
	windows := buf[:0]
	bit := uint64(1) << rule
	for _, h := range hits {
		if rc.rules[h.id]&bit != 0 {
			i := h.pos
			windows = append(windows, [2]int{max(0, i-ruleWindowBefore), min(len(lower), i+len(rc.cues[h.id])+ruleWindowAfter)})
		}
	}
	return r.matchWindows(lower, windows, rc.needs[rule], rc.starts[rule])
}

// matchWindows merges overlapping windows and runs RE on each that holds
// a string of every set in need (which every match of RE holds), from the places st says a
// match can start (anywhere when st is nil).
func (r jailbreakRule) matchWindows(lower string, windows [][2]int, need [][]string, st *ruleStart) bool {
	if len(windows) == 0 {
		return false
	}
	// slices.SortFunc, unlike sort.Slice, leaves windows on the caller's stack.
	slices.SortFunc(windows, func(a, b [2]int) int { return a[0] - b[0] })
	cur := windows[0]
	for _, w := range windows[1:] {
		if w[0] <= cur[1] {
			cur[1] = max(cur[1], w[1])
			continue
		}
		if r.matchWindow(lower, cur, need, st) {
			return true
		}
		cur = w
	}
	return r.matchWindow(lower, cur, need, st)
}

func (r jailbreakRule) matchWindow(lower string, w [2]int, need [][]string, st *ruleStart) bool {
	lo, hi := w[0], w[1]
	for lo > 0 && !utf8.RuneStart(lower[lo]) {
		lo--
	}
	for hi < len(lower) && !utf8.RuneStart(lower[hi]) {
		hi++
	}
	return holdsAll(lower[lo:hi], need) && matchFromStarts(r.RE, st, lower[lo:hi])
}

// ruleStart is what a rule's regexp needs where a match starts: a word boundary and one of
// lits. at is the regexp anchored at the start of its input.
type ruleStart struct {
	lits []string
	at   *regexp.Regexp
}

// ruleNeedsAndStart returns the literals every match of re holds (requiredLiterals) and,
// when every match starts with \b and a literal, those literals and re anchored, so that a
// window is searched from those places only.
func ruleNeedsAndStart(re *lazyRegexp) ([][]string, *ruleStart) {
	parsed, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		panic(err) // a shipped rule: the tests compile every one
	}
	var st *ruleStart
	if lits, ok := boundaryStart(parsed); ok && !hasTextAnchor(parsed) {
		st = &ruleStart{lits: lits, at: regexp.MustCompile(`^(?:` + re.String() + `)`)}
	}
	return requiredLiterals(parsed), st
}

// matchFromStarts is re.MatchString(s), tried only where st says a match can start. The
// anchored regexp reads s[j:], whose start is a word boundary as s[j] is in s: every
// literal of st starts with an ASCII word character and the character before j is none.
func matchFromStarts(re *lazyRegexp, st *ruleStart, s string) bool {
	if st == nil {
		return re.MatchString(s)
	}
	for _, lit := range st.lits {
		for from := 0; ; {
			i := strings.Index(s[from:], lit)
			if i < 0 {
				break
			}
			j := from + i
			if (j == 0 || !isREWordByte(s[j-1])) && st.at.MatchString(s[j:]) {
				return true
			}
			from = j + 1
		}
	}
	return false
}

// boundaryStart returns literals one of which starts every match of re, when every match
// starts with \b and then such a literal, whose first byte is an ASCII word character.
func boundaryStart(re *syntax.Regexp) ([]string, bool) {
	switch re.Op {
	case syntax.OpCapture:
		return boundaryStart(re.Sub[0])
	case syntax.OpAlternate:
		var out []string
		for _, sub := range re.Sub {
			lits, ok := boundaryStart(sub)
			if !ok {
				return nil, false
			}
			out = append(out, lits...)
		}
		return out, true
	case syntax.OpConcat:
		if len(re.Sub) < 2 || re.Sub[0].Op != syntax.OpWordBoundary {
			return nil, false
		}
		lits, ok := prefixLiterals(re.Sub[1])
		if !ok {
			return nil, false
		}
		for _, l := range lits {
			if l == "" || !isREWordByte(l[0]) {
				return nil, false
			}
		}
		return lits, true
	}
	return nil, false
}

// prefixLiterals returns literals one of which starts every match of re.
func prefixLiterals(re *syntax.Regexp) ([]string, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 || len(re.Rune) == 0 {
			return nil, false
		}
		return []string{string(re.Rune)}, true
	case syntax.OpCapture:
		return prefixLiterals(re.Sub[0])
	case syntax.OpConcat:
		return prefixLiterals(re.Sub[0])
	case syntax.OpAlternate:
		var out []string
		for _, sub := range re.Sub {
			lits, ok := prefixLiterals(sub)
			if !ok {
				return nil, false
			}
			out = append(out, lits...)
		}
		return out, true
	}
	return nil, false
}

// hasTextAnchor reports whether re holds ^, $, \A or \z, which read where its input starts
// or ends.
func hasTextAnchor(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText:
		return true
	}
	for _, sub := range re.Sub {
		if hasTextAnchor(sub) {
			return true
		}
	}
	return false
}

// holdsAll reports whether s contains a string of every set.
func holdsAll(s string, sets [][]string) bool {
	for _, set := range sets {
		if !containsAny(s, set) {
			return false
		}
	}
	return true
}

// requiredLiterals returns sets of literals such that every match of re
// contains a string of each set; none if it cannot tell.
func requiredLiterals(re *syntax.Regexp) [][]string {
	switch re.Op {
	case syntax.OpCapture:
		return requiredLiterals(re.Sub[0])
	case syntax.OpConcat:
		var out [][]string
		for _, sub := range re.Sub {
			if set, ok := anyLiteral(sub); ok {
				out = append(out, set)
			}
		}
		return out
	}
	if set, ok := anyLiteral(re); ok {
		return [][]string{set}
	}
	return nil
}

// anyLiteral returns literals one of which every match of re contains.
func anyLiteral(re *syntax.Regexp) ([]string, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 || len(re.Rune) == 0 {
			return nil, false
		}
		return []string{string(re.Rune)}, true
	case syntax.OpCapture, syntax.OpPlus:
		return anyLiteral(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return anyLiteral(re.Sub[0])
		}
	case syntax.OpConcat:
		// The set whose shortest literal is longest filters best.
		var best []string
		bestLen := 0
		for _, sub := range re.Sub {
			if set, ok := anyLiteral(sub); ok {
				if l := shortest(set); l > bestLen {
					best, bestLen = set, l
				}
			}
		}
		return best, best != nil
	case syntax.OpAlternate:
		var out []string
		for _, sub := range re.Sub {
			set, ok := anyLiteral(sub)
			if !ok {
				return nil, false
			}
			out = append(out, set...)
		}
		return out, true
	}
	return nil, false
}

func shortest(set []string) int {
	n := math.MaxInt
	for _, s := range set {
		n = min(n, len(s))
	}
	return n
}
