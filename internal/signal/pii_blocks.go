package signal

import "slices"

// A long text is read by the PII signal in blocks, each read once and kept, so that an
// agent's conversation, which grows at its end turn after turn, costs each turn only its
// new text. Read whole, the conversation's text was read again on every turn: most of what
// an agent's request cost the router.
//
// A block ends at a cut: the first byte after a space or a line break at or past a multiple
// of piiBlockBytes, found from the text around it alone, so that text appended at the end
// leaves the earlier cuts, and the blocks before them, as they were. Where no space or line
// break is near (a long token, a minified document) there is no cut, and the block runs on.
// Each cut is also read across, in a seam of about piiSeamBytes on each side of it, widened
// to whole words: a value that a cut divides ("John" / "Smith", a card number in groups) is
// read whole there, with the words around it. A block counts its findings but those near a
// cut, where what the cut removes before or after them may be what made them; the seam
// counts those, and only those: the blocks read the rest with more of the text around it.
//
// A text up to piiWholeBytes is read whole, as Detect reads it. The types found in a long
// text are those Detect finds in the whole text, held by TestTypesInFindsEveryValueAtEveryCut
// for a value of each type at each place around a cut; what reading in blocks cannot see
// is a value whose cue (an address's "I live at") stands more than a seam away from it
// across a cut.
const (
	piiWholeBytes = 2 * piiBlockBytes
	piiBlockBytes = 4096
	// piiCutReach is how far past a multiple of piiBlockBytes a cut is looked for.
	piiCutReach = piiBlockBytes / 4
	// piiSeamBytes is how far a seam reaches on each side of its cut before it is widened to
	// whole words.
	piiSeamBytes = 512
	// piiEdgeBytes is how near a cut a finding is counted by the cut's seam rather than by
	// the block.
	piiEdgeBytes = 32
	// piiBlocksKept is how many blocks' and seams' types the detector keeps: the texts of
	// about 140 agents' conversations of 85 KB (56 each: the messages joined and the user's turns).
	piiBlocksKept = 8192
)

// TypesIn returns the distinct types of personal data in text, sorted: Detect(text).Types()
// for a text up to piiWholeBytes; a longer one is read in blocks and seams (see above),
// each kept for the next text that holds it. The result is the caller's.
func (d *PIIDetector) TypesIn(text string) []PIIType {
	cuts := piiCuts(text)
	if len(cuts) == 0 {
		return d.Detect(text).Types()
	}
	var types []PIIType
	add := func(found []PIIType) {
		for _, t := range found {
			if !slices.Contains(types, t) {
				types = append(types, t)
			}
		}
	}
	// bounds are the blocks' ends: 0, the cuts and len(text).
	bounds := make([]int, 0, len(cuts)+2)
	bounds = append(append(append(bounds, 0), cuts...), len(text))
	for i := 1; i < len(bounds); i++ {
		add(d.blockTypes(text, bounds[i-1], bounds[i]))
	}
	for i := 1; i < len(bounds)-1; i++ {
		from, to := seamBounds(text, bounds[i-1], bounds[i], bounds[i+1])
		add(d.seamTypes(text, from, bounds[i], to))
	}
	slices.Sort(types)
	return types
}

// piiCuts are the places where text's blocks end; none for a text read whole.
func piiCuts(text string) []int {
	if len(text) <= piiWholeBytes {
		return nil
	}
	var cuts []int
	for p := piiBlockBytes; p < len(text); p += piiBlockBytes {
		c, ok := cutAt(text, p)
		if ok && (len(cuts) == 0 || c > cuts[len(cuts)-1]) {
			cuts = append(cuts, c)
		}
	}
	return cuts
}

// cutAt is the first byte after a space or a line break in text[p:p+piiCutReach], if there
// is one before the end of text.
func cutAt(text string, p int) (int, bool) {
	for q := p; q < len(text) && q < p+piiCutReach; q++ {
		if isCutSpace(text[q-1]) {
			return q, true
		}
	}
	return 0, false
}

func isCutSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' }

// seamBounds is the seam read across the cut c, between the cuts (or the text's ends) prev
// and next: piiSeamBytes on each side of c, the start moved back to a word's start and the
// end on to a word's end, so that the seam divides no word; at most to prev and next.
func seamBounds(text string, prev, c, next int) (from, to int) {
	from = max(c-piiSeamBytes, prev)
	for from > prev && !isCutSpace(text[from-1]) {
		from--
	}
	to = min(c+piiSeamBytes, next)
	for to < next && !isCutSpace(text[to]) {
		to++
	}
	return from, to
}

// What a kept reading is: a block, with which of its ends are cuts, or a seam.
const (
	piiCutBefore uint8 = 1 << iota
	piiCutAfter
	piiSeam
)

// blockTypes returns the types found in the block text[from:to] away from the ends that are
// cuts (by piiEdgeBytes), from what was kept for it or by reading it.
func (d *PIIDetector) blockTypes(text string, from, to int) []PIIType {
	var how uint8
	if from > 0 {
		how |= piiCutBefore
	}
	if to < len(text) {
		how |= piiCutAfter
	}
	part := text[from:to]
	return d.keptTypes(part, how, 0, func(f PIIFinding) bool {
		return (how&piiCutBefore == 0 || f.Start >= piiEdgeBytes) && (how&piiCutAfter == 0 || f.End <= len(part)-piiEdgeBytes)
	})
}

// seamTypes returns the types found in the seam text[from:to] at its cut c: the findings
// that the blocks on either side leave out (blockTypes), those within piiEdgeBytes of c or
// across it.
func (d *PIIDetector) seamTypes(text string, from, c, to int) []PIIType {
	at := c - from
	return d.keptTypes(text[from:to], piiSeam, at, func(f PIIFinding) bool {
		return f.End > at-piiEdgeBytes && f.Start < at+piiEdgeBytes
	})
}

// keptTypes returns the types of part's findings that keep takes, from what was kept for
// part read as how, at at, or by reading it and keeping the result.
func (d *PIIDetector) keptTypes(part string, how uint8, at int, keep func(PIIFinding) bool) []PIIType {
	// Only long parts are kept: the last block may be short, and new each turn.
	long := len(part) >= memoTextMin
	var k memoKey
	if long {
		k = memoKeyOf(part, how)
		k.at = at
		if types, ok := d.blocks.get(k); ok {
			return types
		}
	}
	var types []PIIType
	for _, f := range d.Detect(part).Findings {
		if keep(f) && !slices.Contains(types, f.Type) {
			types = append(types, f.Type)
		}
	}
	if long {
		d.blocks.put(k, types)
	}
	return types
}
