package signal

import (
	"unicode/utf8"

	"github.com/semantic-router/semantic-router/internal/longtext"
)

// A text longer than wholeBytes is read in overlapping windows of windowBytes, by the rules
// and the mechanisms, and scores as its highest window. They read prompts: what they weigh
// together (a persona and a frame without rules, "verbatim" and "instructions", a harmful
// topic and a request for steps) is evidence within a prompt's few sentences, not across a
// document. Read whole, a licence, a specification, a story or a long conversation gathers
// such words from pages apart and scores as an attack, and the user who pastes it is
// refused. In windows of a prompt's size, an attack written into a document (an instruction
// to the model in a pasted web page) is read with the few sentences around it, as it would
// be on its own. The learned model is not read on windows: it learned from prompts, and on
// windows of ordinary documents (emails, leaflets, essays) it is as sure as on attacks.
// Similarity to the known attacks is the whole text's, and tips a window that shows
// evidence of its own. A prompt up to wholeBytes, more than twice the longest the detector
// was tuned and measured on, is read whole, by everything.
//
// Windows start every windowStep bytes and run to the start after next, so that any passage
// of up to windowStep-windowSnap bytes lies whole in one of them. Each start moves forward
// to the next word (at most windowSnap bytes) and is found from the text around it alone,
// so that a text that grows at its end (an agent's conversation, turn after turn) keeps its
// earlier windows, and what was read of them (JailbreakDetector.windows) serves the next
// turn; only the last windows are new.
const (
	wholeBytes  = 2 * windowBytes
	windowBytes = 768
	windowStep  = windowBytes / 2
	windowSnap  = 64
	// windowsKept is how many windows' evidence the detector keeps: the user turns of about
	// ninety agents' conversations of 32 KB.
	windowsKept = 8192
)

// windows returns the windows text is read in: text itself when it is at most windowBytes
// long.
func windows(text string) []string {
	bounds := windowBounds(text)
	out := make([]string, len(bounds))
	for i, b := range bounds {
		out[i] = text[b[0]:b[1]]
	}
	return out
}

// windowBounds is the start and end of each of text's windows.
func windowBounds(text string) [][2]int {
	if len(text) <= windowBytes {
		return [][2]int{{0, len(text)}}
	}
	var out [][2]int
	start := 0
	for k := 1; ; k++ {
		// A window runs from its start to the start after next.
		end := wordStart(text, (k+1)*windowStep)
		out = append(out, [2]int{start, end})
		if end == len(text) {
			return out
		}
		start = wordStart(text, k*windowStep)
	}
}

// wordStart is the first byte at or after p that follows a space or a line break, if one
// is within windowSnap bytes; otherwise the first rune start at or after p (p itself in
// text that is not UTF-8 there). It is len(text) past the end.
func wordStart(text string, p int) int {
	if p >= len(text) {
		return len(text)
	}
	for q := p; q < len(text) && q < p+windowSnap; q++ {
		if q > 0 && (text[q-1] == ' ' || text[q-1] == '\n') {
			return q
		}
	}
	for q := p; q < p+utf8.UTFMax; q++ {
		if q == len(text) || utf8.RuneStart(text[q]) {
			return q
		}
	}
	return p
}

// detectWindows is detectAs for a text longer than wholeBytes: the highest of its windows'
// scores, each window's evidence with the similarity of the whole text (v) to the known
// attacks.
func (d *JailbreakDetector) detectWindows(text string, v []float32) JailbreakResult {
	sim := d.similarity(v)
	var best JailbreakResult
	for i, w := range windows(text) {
		if r := d.result(d.windowEvidence(w), sim); i == 0 || r.Score > best.Score {
			best = r
		}
	}
	return best
}

// windowEvidence is the rules' and the mechanisms' evidence in one window, kept for the
// next request that holds it. The map is shared: callers read it only.
func (d *JailbreakDetector) windowEvidence(w string) map[string]float64 {
	k := longtext.KeyOf(w, uint8(scoredByRules))
	if r, ok := d.windows.Get(k); ok {
		return r
	}
	r := d.evidence(newAnalysis(w), nil, false)
	d.windows.Put(k, r)
	return r
}
