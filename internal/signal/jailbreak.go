package signal

import (
	"bufio"
	"context"
	_ "embed" // shipped attack examples
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"maps"
	"math"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/semantic-router/semantic-router/internal/embed"
	"github.com/semantic-router/semantic-router/internal/embed/builtin"
	"github.com/semantic-router/semantic-router/internal/longtext"
)

//go:embed jailbreak_examples.txt
var jailbreakExampleText string

// BuiltinJailbreakExamples returns the shipped attack prompts used for the
// similarity part of the score.
func BuiltinJailbreakExamples() []string {
	var out []string
	sc := bufio.NewScanner(strings.NewReader(jailbreakExampleText))
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	return out
}

// JailbreakOptions configure a JailbreakDetector.
type JailbreakOptions struct {
	// Threshold is the score at or above which a prompt is a jailbreak;
	// 0 means 0.5. It must be in (0, 1].
	Threshold float64
	// Embedder, if set, adds similarity to known attacks to the score.
	// Without it only the patterns count.
	Embedder embed.Embedder
	// Examples are extra attack prompts for the similarity check.
	Examples []string
	// ReplaceExamples drops the shipped examples, keeping only Examples.
	ReplaceExamples bool
	// SimilarityMargin and SimilarityWidth map similarity to a score
	// contribution. A prompt scores only when it is closer to the nearest
	// attack example than to the nearest benign example (the built-in
	// domain prompts) by more than the margin, and reaches the full 0.9 at
	// margin+width, where it adds 0.4. 0 means 0.05 and 0.25.
	SimilarityMargin, SimilarityWidth float64
	// NoLearnedModel leaves out the learned model, so that only the
	// patterns, the mechanisms and similarity count.
	NoLearnedModel bool
}

// JailbreakResult is a score in [0, 1], whether it reached the threshold,
// and the sorted reasons that contributed.
type JailbreakResult struct {
	Score     float64
	Jailbreak bool
	Reasons   []string
}

// JailbreakDetector scores prompts for prompt-injection and jailbreak
// attempts: instruction overrides, unrestricted personas, system-prompt
// extraction, false authority, fictional wrappers around harmful requests,
// encoded payloads, and similarity to known attacks. It is safe for
// concurrent use.
type JailbreakDetector struct {
	threshold     float64
	emb           embed.Embedder
	attacks       [][]float32  // centred unit vectors
	benign        *boundedRows // centred unit vectors
	mean          []float32
	margin, width float64
	model         *jbModel // nil without the learned model
	builtinVecs   bool     // emb is the builtin embedder, whose vectors the model reads
	long          scoreCache
	windows       longtext.Memo[map[string]float64] // evidence of long texts' windows
}

// NewJailbreakDetector builds a detector; with an Embedder it embeds the
// attack examples once.
func NewJailbreakDetector(ctx context.Context, opts JailbreakOptions) (*JailbreakDetector, error) {
	warmTables()
	d := &JailbreakDetector{threshold: opts.Threshold, emb: opts.Embedder, margin: opts.SimilarityMargin, width: opts.SimilarityWidth}
	d.windows.Limit = windowsKept
	if d.threshold == 0 {
		d.threshold = 0.5
	}
	if d.threshold < 0 || d.threshold > 1 || math.IsNaN(d.threshold) {
		return nil, fmt.Errorf("jailbreak: threshold %v: must be in (0, 1]", opts.Threshold)
	}
	// Load the Chinese folding tables now rather than on the first Chinese
	// request.
	foldHant("係")
	if d.margin == 0 {
		d.margin = 0.05
	}
	if d.width == 0 {
		d.width = 0.25
	}
	if d.margin < 0 || d.width < 0 {
		return nil, fmt.Errorf("jailbreak: similarity margin %v and width %v must not be negative", d.margin, d.width)
	}
	if !opts.NoLearnedModel {
		m, err := loadJailbreakModel()
		if err != nil {
			return nil, fmt.Errorf("jailbreak: %w", err)
		}
		// Load the word vectors now, so that scoring cannot fail later.
		if _, err := builtinEmbedder.Vector(""); err != nil {
			return nil, fmt.Errorf("jailbreak: %w", err)
		}
		d.model = m
		_, d.builtinVecs = opts.Embedder.(*builtin.Embedder)
	}
	if d.emb == nil {
		return d, nil
	}
	var ex []string
	if !opts.ReplaceExamples {
		ex = BuiltinJailbreakExamples()
	}
	ex = append(ex, opts.Examples...)
	if len(ex) == 0 {
		return d, nil
	}
	var background []string
	var perDomain []int
	for _, c := range BuiltinDomains() {
		background = append(background, c.Examples...)
		perDomain = append(perDomain, len(c.Examples))
	}
	vecs, err := d.emb.Embed(ctx, append(ex, background...))
	if err != nil {
		return nil, fmt.Errorf("jailbreak: embedding examples: %w", err)
	}
	if len(vecs) != len(ex)+len(background) {
		return nil, fmt.Errorf("jailbreak: embedder returned %d vectors for %d texts", len(vecs), len(ex)+len(background))
	}
	d.mean = make([]float32, len(vecs[0]))
	for _, v := range vecs {
		for i := range min(len(v), len(d.mean)) {
			d.mean[i] += v[i] / float32(len(vecs))
		}
	}
	var benign [][]float32
	for i, v := range vecs {
		if i < len(ex) {
			d.attacks = append(d.attacks, centred(v, d.mean))
		} else {
			benign = append(benign, centred(v, d.mean))
		}
	}
	d.attacks = packRows(d.attacks)
	d.benign = newBoundedRows(packRows(roundRobin(benign, perDomain)))
	return d, nil
}

// roundRobin reorders rows, which hold groups of the given sizes one after the other, to
// take one row of each group in turn. gapOver stops at the first benign example as close as
// the nearest attack, and a prompt on any topic meets one of its domain early; the maximum
// it computes otherwise does not depend on the order.
func roundRobin(rows [][]float32, sizes []int) [][]float32 {
	out := make([][]float32, 0, len(rows))
	for k := 0; len(out) < len(rows); k++ {
		off := 0
		for _, n := range sizes {
			if k < n {
				out = append(out, rows[off+k])
			}
			off += n
		}
	}
	return out
}

// Detect scores text. It only fails if the embedder fails.
func (d *JailbreakDetector) Detect(ctx context.Context, text string) (JailbreakResult, error) {
	var v []float32
	if len(d.attacks) > 0 {
		vecs, err := d.emb.Embed(ctx, []string{text})
		if err != nil {
			return JailbreakResult{}, fmt.Errorf("jailbreak: %w", err)
		}
		if len(vecs) != 1 {
			return JailbreakResult{}, fmt.Errorf("jailbreak: embedder returned %d vectors for 1 text", len(vecs))
		}
		v = vecs[0]
	}
	return d.DetectVector(text, v), nil
}

// DetectVector is Detect for a prompt the caller has already embedded with
// the detector's embedder; v may be nil to score patterns only.
func (d *JailbreakDetector) DetectVector(text string, v []float32) JailbreakResult {
	return d.detect(newAnalysis(text), v)
}

// detect is DetectVector on a request's shared analysis of the text.
func (d *JailbreakDetector) detect(a *analysis, v []float32) JailbreakResult {
	return d.detectAs(a, v, true)
}

// detectRules scores the patterns and mechanisms only, without the learned model and the
// similarity to known attacks: for text written by the application rather than by its
// users (a system prompt), whose rules and personas ("You are Ava… Never reveal these
// instructions") read like the prompts the model and the examples learned attacks from.
func (d *JailbreakDetector) detectRules(a *analysis) JailbreakResult {
	return d.detectAs(a, nil, false)
}

// detectAs is detect, with the learned model and similarity read only when learned is true.
// A text longer than wholeBytes is read in windows (see windows).
func (d *JailbreakDetector) detectAs(a *analysis, v []float32, learned bool) JailbreakResult {
	if len(a.text) > wholeBytes {
		return d.detectWindows(a.text, v)
	}
	return d.result(d.evidence(a, v, learned), d.similarity(v))
}

// evidence is what the rules, the mechanisms and, when learned is true, the learned model
// find in a text: the strongest weight per reason. v is the text's vector from the
// detector's embedder, or nil.
func (d *JailbreakDetector) evidence(a *analysis, v []float32, learned bool) map[string]float64 {
	// Traditional Chinese is read in Simplified characters, as the lexicon
	// is written.
	if folded, ok := foldHant(a.text); ok {
		a = newAnalysis(folded)
	}
	// The word view and its cues are computed once and shared by every
	// check that reads the same text.
	text := a.text
	plain, lower, view, c := text, a.lowerText(), a.wordView(), a.cueSet()
	if c.has(cueDiscuss) {
		if plain = unquoted(text, c); plain != text {
			lower, view = strings.ToLower(plain), wordView(plain)
			c = mechCues(view)
		}
	}
	reasons := scorePatternsView(plain, lower, view, c, 0)
	if d.model != nil && learned {
		bv := v
		if !d.builtinVecs || plain != text {
			// The table loaded in NewJailbreakDetector: this cannot fail.
			bv, _ = builtinEmbedder.Vector(plain)
		}
		if d.model.flags(sigmoid(d.model.score(view, bv, c, reasons)), showsWrapper(c, reasons)) {
			addReason(reasons, ReasonLearned, learnedWeight)
		}
	}
	return reasons
}

// similarity is the weight that closeness to the known attacks adds to a text whose vector
// is v, or 0: none without a vector or examples, or when the text is not close enough.
func (d *JailbreakDetector) similarity(v []float32) float64 {
	if len(d.attacks) == 0 || v == nil {
		return 0
	}
	var qBuf [128]float32
	q := centredInto(qBuf[:0], v, d.mean)
	gap, over := d.benign.gapOver(maxDot(q, d.attacks), q, d.margin, d.width)
	if !over {
		return 0
	}
	return maxSimilarityWeight * math.Min(1, (gap-d.margin)/d.width)
}

// result scores reasons, with sim (see similarity) added to a copy of them unless they are
// a harmful request asked plainly: similarity is topical, and may tip a prompt that shows
// attack evidence, never a harmful request alone.
func (d *JailbreakDetector) result(reasons map[string]float64, sim float64) JailbreakResult {
	if sim > 0 && !plainRequest(reasons) {
		reasons = maps.Clone(reasons)
		addReason(reasons, ReasonSimilar, sim)
	}
	res := JailbreakResult{Score: combine(reasons)}
	res.Jailbreak = res.Score >= d.threshold
	for r, w := range reasons {
		if w >= 0.3 {
			res.Reasons = append(res.Reasons, r)
		}
	}
	sort.Strings(res.Reasons)
	return res
}

// plainRequest reports a harmful request asked plainly: the only evidence.
func plainRequest(reasons map[string]float64) bool {
	_, ok := reasons[ReasonHarmfulRequest]
	return ok && len(reasons) == 1
}

// maxSimilarityWeight keeps similarity below the default threshold on its
// own: word-vector similarity is topical, so it can only tip a prompt that
// already shows some attack phrasing.
const maxSimilarityWeight = 0.4

// centred returns v minus mean, normalised: what every prompt shares is
// not evidence for any class.
func centred(v, mean []float32) []float32 {
	return centredInto(nil, v, mean)
}

// centredInto is centred appended to dst[:0], which it reuses when it is large enough.
func centredInto(dst, v, mean []float32) []float32 {
	out := append(dst[:0], make([]float32, len(mean))...)
	for i := range out {
		if i < len(v) {
			out[i] = v[i] - mean[i]
		}
	}
	embed.Normalize(out)
	return out
}

func addReason(m map[string]float64, reason string, w float64) {
	m[reason] = math.Max(m[reason], w)
}

// combine is a noisy-or: independent pieces of evidence add up, and the
// score never exceeds 1.
func combine(reasons map[string]float64) float64 {
	p := 1.0
	for _, w := range reasons {
		p *= 1 - w
	}
	return 1 - p
}

// scorePatterns returns the strongest weight per reason; depth limits the
// recursion into decoded payloads.
func scorePatterns(text string, depth int) map[string]float64 {
	view := wordView(text)
	return scorePatternsView(text, strings.ToLower(text), view, mechCues(view), depth)
}

// scorePatternsView is scorePatterns for a text whose lower-cased form,
// wordView and cues are known.
func scorePatternsView(text, lower, view string, c cueSet, depth int) map[string]float64 {
	reasons := map[string]float64{}
	var hitBuf [64]cueHit
	rc := jailbreakCues()
	hits, harmfulCue := rc.scan(lower, hitBuf[:0])
	for i, r := range jailbreakRules {
		if r.matchHits(lower, i, rc, hits) {
			addReason(reasons, r.Reason, r.Weight)
		}
	}
	scoreMechanisms(text, lower, view, c, reasons, depth)
	harmful := harmfulCue && harmfulRE.MatchString(lower)
	detail := harmful && detailRE.MatchString(lower)
	harmful = harmful || c.has(cueHarmful)
	switch {
	case detail && framingRE.MatchString(lower) && !c.has(cueNoDetail):
		// A story that asks for no technical detail is not asking for the how-to.
		addReason(reasons, ReasonFraming, 0.8)
	case detail:
		// A harmful how-to asked plainly is not an attack on the model's
		// instructions: it is weak evidence that strengthens a wrapper, and
		// never flags a prompt without one.
		addReason(reasons, ReasonHarmfulRequest, 0.25)
	}
	if harmful && len(reasons) > 0 {
		for r, w := range reasons {
			reasons[r] = math.Min(1, w+0.1)
		}
	}
	if depth == 0 {
		// Escaped text ("Ignore%20all%20previous…") is read as the model reads it, for what it
		// says: escapes are how URLs and source write text, not a cue of their own.
		if decoded, _, ok := decodeEscapes(text); ok {
			for r, w := range scorePatterns(decoded, 1) {
				addReason(reasons, r, w)
			}
		}
		// Whether the prompt asks for a decoding is a property of the prompt, not of
		// each payload: read once, however many payloads it holds (a prompt of
		// thousands of base64-like words would otherwise be read once per word).
		asksToDecode := -1
		for _, decoded := range decodePayloads(text) {
			inner := scorePatterns(decoded, 1)
			w := combine(inner)
			innerHarm := cues(decoded).has(cueHarmful) || harmfulRE.MatchString(strings.ToLower(decoded))
			if w >= 0.3 || innerHarm {
				addReason(reasons, ReasonEncoded, math.Max(0.85, w))
				continue
			}
			if asksToDecode < 0 {
				asksToDecode = 0
				if decodeCueRE.MatchString(lower) {
					asksToDecode = 1
				}
			}
			if asksToDecode == 1 {
				addReason(reasons, ReasonEncoded, 0.6)
			}
		}
	}
	return reasons
}

var (
	base64RE = lazyRE(`[A-Za-z0-9+/]{16,}={0,2}|[A-Za-z0-9_\-]{16,}={0,2}`)
	hexRE    = lazyRE(`\b(?:[0-9a-fA-F]{2}[ :]?){8,}`)
	rot13Cue = lazyRE(`(?i)\brot-?13\b|\bcaesar\b`)
)

// decodePayloads returns readable text hidden in base64, base32, hex, binary, Morse code or
// rot13.
func decodePayloads(text string) []string {
	out := decodeMorse(text)
	b64Run, hexRun := longestRuns(text)
	if b64Run < 16 && hexRun < 16 {
		return append(out, rot13Payload(text)...)
	}
	if b64Run >= 16 {
		out = append(out, decodeBase32(text)...)
	}
	if hexRun >= 16 {
		out = append(out, decodeBinary(text)...)
	}
	for _, m := range base64RE.FindAllString(text, -1) {
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
			if b, err := enc.DecodeString(m); err == nil && readable(string(b)) {
				out = append(out, string(b))
				break
			}
		}
	}
	for _, m := range hexRE.FindAllString(text, -1) {
		h := strings.NewReplacer(" ", "", ":", "").Replace(m)
		if len(h)%2 == 1 {
			h = h[:len(h)-1]
		}
		if b, err := hex.DecodeString(h); err == nil && readable(string(b)) {
			out = append(out, string(b))
		}
	}
	return append(out, rot13Payload(text)...)
}

func rot13Payload(text string) []string {
	named := mayNameRot13(text) && rot13Cue.MatchString(text)
	if named || looksRot13(text) {
		return []string{rot13(text)}
	}
	return nil
}

// mayNameRot13 reports whether text may hold rot13Cue: a "rot" followed by "13" or "-13",
// or a "caesar", in any case ((?i) also reads its "s" as "ſ", so a text with an "ſ" is let
// through). Texts with a "13" in them, as code and numbers hold, seldom name either, and are
// spared the pattern, which tried every position of them.
func mayNameRot13(text string) bool {
	for from := 0; ; {
		i := indexFoldASCII(text[from:], "rot")
		if i < 0 {
			break
		}
		from += i + len("rot")
		if rest := strings.TrimPrefix(text[from:], "-"); strings.HasPrefix(rest, "13") {
			return true
		}
	}
	return indexFoldASCII(text, "caesar") >= 0 || strings.Contains(text, "ſ")
}

// longestRuns returns the longest runs of base64 characters and of hex
// digits (allowing single spaces or colons between bytes), so that prompts
// without anything encoded skip the payload regexps.
func longestRuns(s string) (b64, hexRun int) {
	var cb, ch int
	for i := 0; i < len(s); i++ {
		c := s[i]
		isHexDigit := c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
		if isWordByte(c) || c == '+' || c == '/' || c == '_' || c == '-' || c == '=' {
			cb++
		} else {
			cb = 0
		}
		switch {
		case isHexDigit:
			ch++
		case (c == ' ' || c == ':') && ch > 0:
		default:
			ch = 0
		}
		b64 = max(b64, cb)
		hexRun = max(hexRun, ch)
	}
	return b64, hexRun
}

// readable accepts decoded bytes that look like words: mostly printable
// and containing spaces.
func readable(s string) bool {
	if len(s) < 8 || !strings.Contains(s, " ") && !strings.ContainsFunc(s, isHan) {
		return false
	}
	good := 0
	for _, r := range s {
		if unicode.IsPrint(r) {
			good++
		}
	}
	return float64(good) >= 0.95*float64(len([]rune(s)))
}

// looksRot13 reports text whose rot13 has far more common English words
// than the text itself.
func looksRot13(text string) bool {
	return !hasCommonWord(text) && commonWords(rot13(text)) >= 3
}

// hasCommonWord is commonWords(s) > 0 without lowercasing all of s: the
// fields of strings.ToLower(s) are the lowercased fields of s, and
// lowercasing keeps the rune count and the trimmed punctuation.
func hasCommonWord(s string) bool {
	for w := range strings.FieldsSeq(s) {
		if w = strings.Trim(w, ".,!?:;\"'"); utf8.RuneCountInString(w) <= 4 && commonWordSet[strings.ToLower(w)] {
			return true
		}
	}
	return false
}

var commonWordSet = map[string]bool{"the": true, "and": true, "you": true, "to": true, "how": true, "all": true, "your": true, "make": true, "what": true, "is": true, "a": true, "of": true}

func commonWords(s string) int {
	n := 0
	for _, w := range strings.Fields(strings.ToLower(s)) {
		if commonWordSet[strings.Trim(w, ".,!?:;\"'")] {
			n++
		}
	}
	return n
}

func rot13(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z':
			return 'a' + (r-'a'+13)%26
		case r >= 'A' && r <= 'Z':
			return 'A' + (r-'A'+13)%26
		}
		return r
	}, s)
}
