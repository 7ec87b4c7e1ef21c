package signal

import (
	"slices"

	"github.com/semantic-router/semantic-router/internal/longtext"
)

// A long text is read by the PII signal in blocks, each read once and kept, so that an
// agent's conversation, which grows at its end turn after turn, costs each turn only its
// new text. Read whole, the conversation's text was read again on every turn: most of what
// an agent's request cost the router.
//
// A block ends at a cut (longtext.Cuts): the first byte after a space or a line break at or
// past a multiple of piiBlockBytes, found from the text around it alone, so that text
// appended at the end leaves the earlier cuts, and the blocks before them, as they were.
// Where no space or line break is near (a long token, a minified document) there is no cut,
// and the block runs on.
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
	readings := piiReadings(text)
	if readings == nil {
		return d.Detect(text).Types()
	}
	var types []PIIType
	for _, r := range readings {
		for _, t := range d.keptTypes(text, r) {
			if !slices.Contains(types, t) {
				types = append(types, t)
			}
		}
	}
	slices.Sort(types)
	return types
}

// piiReading is a part of a long text read on its own: a block, or a seam across a cut.
type piiReading struct {
	from, to int
	// how is the reading's kind: piiSeam, or a block with which of its ends are cuts.
	how uint8
	// at is a seam's cut, from its start.
	at int
}

const (
	piiCutBefore uint8 = 1 << iota
	piiCutAfter
	piiSeam
)

// piiReadings are the blocks and seams text is read in; nil for a text read whole.
func piiReadings(text string) []piiReading {
	cuts := longtext.Cuts(text, piiBlockBytes, piiCutReach)
	if cuts == nil {
		return nil
	}
	// bounds are the blocks' ends: 0, the cuts and len(text).
	bounds := make([]int, 0, len(cuts)+2)
	bounds = append(append(append(bounds, 0), cuts...), len(text))
	out := make([]piiReading, 0, 2*len(cuts)+1)
	for i := 1; i < len(bounds); i++ {
		r := piiReading{from: bounds[i-1], to: bounds[i]}
		if i > 1 {
			r.how |= piiCutBefore
		}
		if i < len(bounds)-1 {
			r.how |= piiCutAfter
		}
		out = append(out, r)
	}
	for i := 1; i < len(bounds)-1; i++ {
		prev, c, next := bounds[i-1], bounds[i], bounds[i+1]
		// piiSeamBytes on each side of c, the start moved back to a word's start and the
		// end on to a word's end, so that the seam divides no word; at most to prev and next.
		from := max(c-piiSeamBytes, prev)
		for from > prev && !longtext.IsSpace(text[from-1]) {
			from--
		}
		to := min(c+piiSeamBytes, next)
		for to < next && !longtext.IsSpace(text[to]) {
			to++
		}
		out = append(out, piiReading{from: from, to: to, how: piiSeam, at: c - from})
	}
	return out
}

// counts reports whether a finding of r's part is r's to count: a block's away from its ends
// that are cuts (by piiEdgeBytes); a seam's within piiEdgeBytes of its cut or across it, the
// findings the blocks on either side leave out.
func (r piiReading) counts(f PIIFinding) bool {
	if r.how&piiSeam != 0 {
		return f.End > r.at-piiEdgeBytes && f.Start < r.at+piiEdgeBytes
	}
	return (r.how&piiCutBefore == 0 || f.Start >= piiEdgeBytes) &&
		(r.how&piiCutAfter == 0 || f.End <= r.to-r.from-piiEdgeBytes)
}

// key is what r's types are kept by: its part of text, how it is read and, for a seam, where
// its cut is.
func (r piiReading) key(text string) longtext.Key {
	k := longtext.KeyOf(text[r.from:r.to], r.how)
	k.At = r.at
	return k
}

// keptTypes returns the types of the findings in r's part of text that r counts, from what
// was kept for it or by reading it and keeping the result.
func (d *PIIDetector) keptTypes(text string, r piiReading) []PIIType {
	// Only long parts are kept: the last block may be short, and new each turn.
	long := r.to-r.from >= longtext.MinKept
	var k longtext.Key
	if long {
		k = r.key(text)
		if types, ok := d.blocks.Get(k); ok {
			return types
		}
	}
	var types []PIIType
	for _, f := range d.Detect(text[r.from:r.to]).Findings {
		if r.counts(f) && !slices.Contains(types, f.Type) {
			types = append(types, f.Type)
		}
	}
	if long {
		d.blocks.Put(k, types)
	}
	return types
}
