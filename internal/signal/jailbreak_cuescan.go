package signal

import (
	"math"
	"sort"
	"strings"
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
}

// cueHit is one occurrence of a cue: its id and byte offset.
type cueHit struct{ id, pos int }

var jailbreakCues = newRuleCues(jailbreakRules, harmfulCues)

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
	return rc
}

// scan returns the cue occurrences in lower, ordered by position, and
// whether " "+lower contains a harmful cue.
func (rc *ruleCues) scan(lower string, hits []cueHit) ([]cueHit, bool) {
	next := make([]int, len(rc.cues)) // per cue: where the next occurrence may start
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
			if i < next[id] || len(c) > len(rest) || rest[:len(c)] != c {
				continue
			}
			next[id] = i + len(c)
			hits = append(hits, cueHit{id, i})
			harmful = harmful || rc.harmful[id]
		}
	}
	return hits, harmful
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
	return r.matchWindows(lower, windows)
}

// matchWindows merges overlapping windows and runs RE on each.
func (r jailbreakRule) matchWindows(lower string, windows [][2]int) bool {
	if len(windows) == 0 {
		return false
	}
	sort.Slice(windows, func(a, b int) bool { return windows[a][0] < windows[b][0] })
	cur := windows[0]
	for _, w := range windows[1:] {
		if w[0] <= cur[1] {
			cur[1] = max(cur[1], w[1])
			continue
		}
		if r.matchWindow(lower, cur) {
			return true
		}
		cur = w
	}
	return r.matchWindow(lower, cur)
}
