package signal

import (
	"math"
	"reflect"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// splitWordsReference is splitWords as written before its ASCII fast path.
func splitWordsReference(s string, caseSensitive bool) []string {
	if !caseSensitive {
		s = strings.ToLower(s)
	}
	var out []string
	start := -1
	for i, r := range s {
		switch {
		case unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r):
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
			out = append(out, string(r))
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' && start >= 0:
			if start < 0 {
				start = i
			}
		default:
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
		}
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}

var fastPathTexts = []string{"", "'", "''a'b'", "it's O'Brien's", "Ünïcödé wörds, 東京タワー and ひらがな!", "a\u2e80b ⺀ x",
	"1. first\n2) second\n- third\n* fourth\n• fifth", "e.g. 4521.", "a -b", "x*y", "3.\t", "3)", "•x", "end -",
	"√2 ≤ π, θ ∞ {x;} 12 = 3+4*5/6^7 <8>"}

// TestSplitWordsUnchanged compares splitWords with the version before its ASCII fast path.
func TestSplitWordsUnchanged(t *testing.T) {
	t.Parallel()
	for _, text := range append(gateTexts(t), fastPathTexts...) {
		for _, cs := range []bool{false, true} {
			got, want := splitWords(text, cs), splitWordsReference(text, cs)
			if len(got) != 0 || len(want) != 0 {
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("splitWords(%q, %v) = %q, want %q", text, cs, got, want)
				}
			}
		}
	}
}

// TestListGate checks that listRE finds no list marker where mayHoldListItem says none can be.
func TestListGate(t *testing.T) {
	t.Parallel()
	gated := 0
	for _, text := range append(gateTexts(t), fastPathTexts...) {
		for i := range len(text) {
			s := text[i:]
			if !mayHoldListItem(s) {
				gated++
				if listRE.MatchString(s) {
					t.Fatalf("mayHoldListItem(%q) = false, but listRE matches", s)
				}
			}
		}
	}
	if gated == 0 {
		t.Fatal("no text was gated")
	}
	if mayHoldListItem("e.g. JIRA-4521.") || !mayHoldListItem("Steps:\n1. a") || !mayHoldListItem("• x") {
		t.Fatal("mayHoldListItem misreads a plain example")
	}
}

// estimateTokensReference is EstimateTokens as written before its ASCII fast path.
func estimateTokensReference(text string) int {
	var latin, cjk, other, space int
	for _, r := range text {
		switch {
		case unicode.IsSpace(r):
			space++
		case unicode.Is(unicode.Han, r), unicode.Is(unicode.Hiragana, r), unicode.Is(unicode.Katakana, r), unicode.Is(unicode.Hangul, r):
			cjk++
		case r < 0x250:
			latin++
		default:
			other++
		}
	}
	n := float64(latin+space)/4 + float64(cjk) + float64(other)/2
	if n > 0 && n < 1 {
		return 1
	}
	return int(n + 0.5)
}

func TestEstimateTokensUnchanged(t *testing.T) {
	t.Parallel()
	ascii := make([]byte, 128)
	for i := range ascii {
		ascii[i] = byte(i)
	}
	for _, text := range append(gateTexts(t), append(fastPathTexts, string(ascii), "\u0085\u00a0\u2028 한국어 text")...) {
		if got, want := EstimateTokens(text), estimateTokensReference(text); got != want {
			t.Fatalf("EstimateTokens(%q) = %d, want %d", text, got, want)
		}
	}
}

// TestWordSetUnchanged compares wordSet with the FieldsFunc split it replaced.
func TestWordSetUnchanged(t *testing.T) {
	t.Parallel()
	for _, text := range append(gateTexts(t), append(fastPathTexts, "a\xffb c\x80", "ÄÖÜ-x_y 3.14")...) {
		want := map[string]bool{}
		for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127)
		}) {
			want[w] = true
		}
		if got := wordSet(text); !reflect.DeepEqual(got, want) {
			t.Fatalf("wordSet(%q) = %v, want %v", text, got, want)
		}
	}
}

// indexFoldASCIIReference is indexFoldASCII as written before it jumped between first letters.
func indexFoldASCIIReference(text, sub string) int {
	for i := 0; i+len(sub) <= len(text); i++ {
		j := 0
		for ; j < len(sub); j++ {
			c := text[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != sub[j] {
				break
			}
		}
		if j == len(sub) {
			return i
		}
	}
	return -1
}

func TestIndexFoldASCIIUnchanged(t *testing.T) {
	t.Parallel()
	subs := []string{"name", "key", "secret", "token", "passw", "auth", "bearer", "credential", "box", "fach", "apartado",
		"tale", "k", "kk", "-x", "1a"}
	for _, text := range append(gateTexts(t), append(fastPathTexts, "KkKkKKey", "kEY", "NaMe", "kkkkkkkkkkkkK", "K")...) {
		for _, sub := range subs {
			for _, s := range []string{text, strings.ToUpper(text)} {
				if got, want := indexFoldASCII(s, sub), indexFoldASCIIReference(s, sub); got != want {
					t.Fatalf("indexFoldASCII(%q, %q) = %d, want %d", s, sub, got, want)
				}
			}
		}
	}
}

// scoreReference is ComplexityScorer.Score as written before its fast paths.
func scoreReference(c *ComplexityScorer, text string) ComplexityResult {
	tokens := float64(estimateTokensReference(text))
	r := ComplexityResult{Length: math.Min(1, math.Log1p(tokens/8)/math.Log1p(500.0/8))}
	lower := strings.ToLower(text)
	var steps float64
	for _, p := range stepPhrases {
		steps += float64(strings.Count(lower, p))
	}
	words := strings.FieldsFunc(lower, func(r rune) bool { return !unicode.IsLetter(r) && r != '#' })
	var hard float64
	for _, w := range words {
		if stepWords[w] {
			steps++
		}
		hard += hardWords[w]
	}
	if hasNonASCII(lower) {
		for p, wt := range hardPhrases {
			hard += wt * float64(strings.Count(lower, p))
		}
	}
	r.Hard = 1 - math.Exp(-hard)
	steps += 0.5 * float64(len(listRE.FindAllStringIndex(text, -1)))
	if q := strings.Count(text, "?"); q > 1 {
		steps += float64(q - 1)
	}
	r.Steps = 1 - math.Exp(-steps/1.5)
	chars := math.Max(1, float64(len([]rune(text))))
	var mathN, codeN int
	for _, r := range text {
		switch {
		case r >= '0' && r <= '9', strings.ContainsRune("=+*/^<>≤≥≠∑∫√∂πθλσ∞", r):
			mathN++
		case r == '{' || r == '}' || r == ';':
			codeN++
		}
	}
	for _, t := range codeTokens {
		codeN += strings.Count(text, t)
	}
	for _, w := range words {
		if mathWords[w] {
			mathN++
		}
		if codeWords[w] {
			codeN++
		}
	}
	r.Math = math.Min(1, float64(mathN)/chars*8)
	r.Code = math.Min(1, float64(codeN)/chars*25)
	r.Score = math.Min(1, 0.3*r.Length+0.5*r.Steps+0.25*math.Max(r.Math, r.Code)+0.1*r.Length*r.Steps+0.5*r.Hard)
	switch {
	case r.Score >= c.high:
		r.Level = ComplexityHigh
	case r.Score >= c.medium:
		r.Level = ComplexityMedium
	default:
		r.Level = ComplexityLow
	}
	return r
}

func TestComplexityScoreUnchanged(t *testing.T) {
	t.Parallel()
	c, err := NewComplexityScorer(ComplexityOptions{})
	if err != nil {
		t.Fatal(err)
	}
	extra := []string{"Prove the lemma, then derive it step by step.\n1. a\n2) b\n- c", "func main() { return x; } => :: ()",
		"sin(x) + cos(y) = sqrt(z)", "证明费马大定理。", "Докажите теорему Ферма.", "#include <stdio.h>\nint x;"}
	for _, text := range append(gateTexts(t), append(fastPathTexts, extra...)...) {
		if got, want := c.Score(text), scoreReference(c, text); got != want {
			t.Fatalf("Score(%q) = %+v, want %+v", text, got, want)
		}
	}
}

// FuzzIndexFoldASCII checks indexFoldASCII against the plain loop it replaced.
func FuzzIndexFoldASCII(f *testing.F) {
	f.Add("AAAAAuth", "auth")
	f.Add("xx KEY kEy", "key")
	f.Add("aaaa", "a1")
	f.Fuzz(func(t *testing.T, text, sub string) {
		sub = strings.ToLower(sub)
		for i := 0; i < len(sub); i++ {
			if sub[i] >= utf8.RuneSelf {
				return // sub is lower-case ASCII
			}
		}
		if got, want := indexFoldASCII(text, sub), indexFoldASCIIReference(text, sub); got != want {
			t.Fatalf("indexFoldASCII(%q, %q) = %d, want %d", text, sub, got, want)
		}
	})
}

// digitOfReference is digitOf as written before its first-byte check.
func digitOfReference(w string) (byte, bool) {
	if len(w) < 3 || len(w) > 5 {
		return 0, false
	}
	for d, name := range digitWords {
		if strings.EqualFold(w, name) {
			return "0123456789"[d], true
		}
	}
	return 0, false
}

func TestDigitOfUnchanged(t *testing.T) {
	t.Parallel()
	words := []string{"zero", "One", "TWO", "thRee", "four", "five", "ſix", "SEVEN", "eight", "Nine", "nine1",
		"six", "sixes", "one-", "on", "zeros", "tree", "Kelvin", "ſeven", "@ne", "`ne", "\u212aey"}
	for _, text := range append(gateTexts(t), fastPathTexts...) {
		words = append(words, strings.Fields(text)...)
	}
	for _, w := range words {
		gd, gok := digitOf(w)
		wd, wok := digitOfReference(w)
		if gd != wd || gok != wok {
			t.Errorf("digitOf(%q) = %q, %v; want %q, %v", w, gd, gok, wd, wok)
		}
	}
}

// TestDigitRunsAnswerAsHasDigitRun asks digitRuns what findAddresses asks, from every
// number of each text in turn, and at random too, and compares it with hasDigitRun.
func TestDigitRunsAnswerAsHasDigitRun(t *testing.T) {
	t.Parallel()
	texts := append(gateTexts(t), fastPathTexts...)
	texts = append(texts, "12 34 567", "1234", "12,3 45, 678", "a1b22c333", "999", "", "1", "12345 x 12 1 123")
	for _, text := range texts {
		d := newDigitRuns(text)
		for _, n := range numberStarts(text) {
			to := min(len(text), n.start+addressWindow)
			from := min(n.end, to)
			if got, want := d.within(from, to), hasDigitRun(text[from:to], 3); got != want {
				t.Fatalf("in %q, within(%d, %d) = %v, hasDigitRun says %v", text, from, to, got, want)
			}
		}
		r := newDigitRuns(text)
		for from := range len(text) + 1 {
			for _, to := range []int{from, min(len(text), from+3), min(len(text), from+7), len(text)} {
				if got, want := r.within(from, to), hasDigitRun(text[from:to], 3); got != want {
					t.Fatalf("in %q, within(%d, %d) = %v, hasDigitRun says %v", text, from, to, got, want)
				}
			}
		}
		// Going back reads again.
		if len(text) > 0 {
			if got, want := r.within(0, len(text)), hasDigitRun(text, 3); got != want {
				t.Fatalf("in %q, within(0, %d) after the end = %v, hasDigitRun says %v", text, len(text), got, want)
			}
		}
	}
}

// hasDigitRun, the reference of digitRuns, reports whether s holds n ASCII digits in a row.
func hasDigitRun(s string, n int) bool {
	run := 0
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			run = 0
			continue
		}
		if run++; run >= n {
			return true
		}
	}
	return false
}

func TestTrimBlanksAsTrimLeft(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", " ", " \t\n\f\r x", ",, \n,x ,", "\v x", "\u00a0x", "x ", ", 1", "\r\n,"} {
		if got, want := trimBlanks(s), strings.TrimLeft(s, reSpace); got != want {
			t.Errorf("trimBlanks(%q) = %q, want %q", s, got, want)
		}
		if got, want := trimCommasAndBlanks(s), strings.TrimLeft(s, ","+reSpace); got != want {
			t.Errorf("trimCommasAndBlanks(%q) = %q, want %q", s, got, want)
		}
	}
	for c := range 256 {
		if got, want := isREBlank(byte(c)), strings.IndexByte(reSpace, byte(c)) >= 0; got != want {
			t.Errorf("isREBlank(%q) = %v, want %v", byte(c), got, want)
		}
	}
}

// findLowerNamesReference is findLowerNames as written before its ASCII fast path.
func (d *PIIDetector) findLowerNamesReference(text string) [][2]int {
	var out [][2]int
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !isLowerLetter(r) || i > 0 && isNameByte(text[i-1]) {
			i += size
			continue
		}
		j := i
		for j < len(text) {
			r, size := utf8.DecodeRuneInString(text[j:])
			if !isLowerLetter(r) && r != '-' {
				break
			}
			j += size
		}
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

var lowerNameTexts = []string{"tell suresh the build is green", "my son omar-ali starts monday", "yesterday brandon said no",
	"ask josé about it", "ping zoë, then ángel", "écrire à élodie", "x-omar", "é-omar", "\xffomar said", "call\u00a0priya",
	"remind ñandú", "ask аня", "my daughter ſophia"}

func TestFindLowerNamesUnchanged(t *testing.T) {
	t.Parallel()
	d, err := NewPIIDetector(PIIOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range append(append(gateTexts(t), fastPathTexts...), lowerNameTexts...) {
		if got, want := d.findLowerNames(text), d.findLowerNamesReference(text); !reflect.DeepEqual(got, want) {
			t.Fatalf("findLowerNames(%q) = %v, want %v", text, got, want)
		}
	}
}

func FuzzFindLowerNames(f *testing.F) {
	for _, s := range lowerNameTexts {
		f.Add(s)
	}
	d, err := NewPIIDetector(PIIOptions{})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if got, want := d.findLowerNames(text), d.findLowerNamesReference(text); !reflect.DeepEqual(got, want) {
			t.Fatalf("findLowerNames(%q) = %v, want %v", text, got, want)
		}
	})
}

// longRunsReference is longRuns read in two passes, byte by byte and with hasValueRun.
func longRunsReference(text string) (int, bool) {
	longest, n := 0, 0
	for i := 0; i < len(text); i++ {
		if c := text[i]; isREWordByte(c) || c == '-' {
			n++
			longest = max(longest, n)
		} else {
			n = 0
		}
	}
	return min(longest, maxTokenRun), hasValueRun(text)
}

var longRunTexts = []string{"", "sk-" + strings.Repeat("a", 60), "a+b/c" + strings.Repeat("x", 18), strings.Repeat("ſ", 19) + "K",
	strings.Repeat("ab", 10), strings.Repeat("ab+", 9), "key: " + strings.Repeat("Z", 19) + "é", "\xff" + strings.Repeat("9", 25)}

func TestLongRunsUnchanged(t *testing.T) {
	t.Parallel()
	for _, text := range append(append(gateTexts(t), fastPathTexts...), longRunTexts...) {
		gt, gv := longRuns(text)
		wt, wv := longRunsReference(text)
		if gt != wt || gv != wv {
			t.Fatalf("longRuns(%q) = %d, %v; want %d, %v", text, gt, gv, wt, wv)
		}
	}
}

func FuzzLongRuns(f *testing.F) {
	for _, s := range longRunTexts {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		gt, gv := longRuns(text)
		wt, wv := longRunsReference(text)
		if gt != wt || gv != wv {
			t.Fatalf("longRuns(%q) = %d, %v; want %d, %v", text, gt, gv, wt, wv)
		}
	})
}
