package signal

import (
	"fmt"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ComplexityLevel buckets the reasoning need of a prompt.
type ComplexityLevel string

// Complexity levels.
const (
	ComplexityLow    ComplexityLevel = "low"
	ComplexityMedium ComplexityLevel = "medium"
	ComplexityHigh   ComplexityLevel = "high"
)

// ComplexityOptions configure a ComplexityScorer. Scores below Medium are
// low, below High medium, the rest high; 0 means 0.3 and 0.6.
type ComplexityOptions struct {
	Medium, High float64
}

// ComplexityResult is the score in [0, 1], its level, and the parts that
// made it up (for explanations and debugging).
type ComplexityResult struct {
	Score  float64
	Level  ComplexityLevel
	Length float64 // 0..1, from the estimated token count
	Steps  float64 // 0..1, multi-step and reasoning cues
	Math   float64 // 0..1, density of formulas and numbers
	Code   float64 // 0..1, density of code
	Hard   float64 // 0..1, words of hard tasks: proofs, theorems, derivations, optimisation
}

// ComplexityScorer estimates how much reasoning a prompt needs, so that
// simple prompts can go to small models. It is safe for concurrent use.
type ComplexityScorer struct {
	medium, high float64
}

// NewComplexityScorer validates the thresholds.
func NewComplexityScorer(opts ComplexityOptions) (*ComplexityScorer, error) {
	warmTables()
	c := &ComplexityScorer{medium: opts.Medium, high: opts.High}
	if c.medium == 0 {
		c.medium = 0.3
	}
	if c.high == 0 {
		c.high = 0.6
	}
	if !(c.medium > 0 && c.medium < c.high && c.high <= 1) {
		return nil, fmt.Errorf("complexity: thresholds medium %v, high %v: need 0 < medium < high <= 1", c.medium, c.high)
	}
	return c, nil
}

var (
	// stepPhrases and stepWords are multi-step and reasoning cues; they are
	// matched on the lowercased text without a regexp to stay fast.
	stepPhrases = withFolded([]string{"step by step", "step-by-step", "show that", "explain why", "pros and cons", "trade-off", "tradeoff",
		"what if", "in detail", "multi-step", "paso a paso", "étape par étape", "schritt für schritt", "пошагово", "逐步", "证明", "推导"})
	stepWords = map[string]bool{}
	listRE    = lazyRE(`(?m)^\s*(?:\d+[.)]|[-*•])\s+`)
)

func init() {
	for _, w := range strings.Fields(`prove proof derive derivation justify analyze analyse analysis compare contrast evaluate
	design architect optimize optimise implement algorithm debug refactor plan strategy calculate compute solve estimate
	critique demonstrate reason reasoning then
	demostrar demuestra demuestre derivar démontrer démontrez prouver prouvez dériver beweisen beweise beweist herleiten
	dimostrare dimostra provar докажите доказать докажи вывести выведите`) {
		stepWords[w] = true
	}
}

// hardWords name tasks that need deep reasoning however short the prompt ("Prove the
// Riemann hypothesis."), in the languages the router supports; weight 1 for the task or its
// object, 0.5 for words also common in everyday questions. hardPhrases are matched as
// substrings, for scripts without spaces.
var (
	hardWords   = map[string]float64{}
	hardPhrases = map[string]float64{"证明": 1, "推导": 1, "定理": 1, "猜想": 1, "优化": 0.5, "形式化": 1, "証明": 1, "導出": 1, "最適化": 0.5}
)

func init() {
	for _, w := range strings.Fields(`prove proof proofs derive derivation theorem theorems lemma lemmas conjecture hypothesis
	axiom axioms rigorous rigorously formally formalize formalise asymptotic asymptotically np-hard np-complete undecidable
	invariant induction counterexample
	demostrar demuestra demuestre demostración teorema lema conjetura hipótesis derivar deduce deducir riguroso formalmente
	démontrer démontrez démonstration prouver prouvez théorème lemme conjecture hypothèse dériver rigoureux rigoureusement formellement
	beweisen beweise beweis beweist theorem herleiten herleitung ableitung lemma vermutung hypothese streng formal
	dimostrare dimostra dimostrazione teorema congettura ipotesi derivare rigoroso
	provar prove demonstração teorema conjectura hipótese derivar rigoroso
	докажите доказать докажи доказательство теорема теоремы теорему лемма гипотеза гипотезу вывести выведите строго формально`) {
		hardWords[w] = 1
		hardWords[foldAccents(w)] = 1
	}
	for _, w := range strings.Fields(`optimal optimality optimize optimise optimization optimisation formal complexity minimize maximize
	optimizar óptimo optimiser optimale optimieren optimal ottimizzare ottimale otimizar ótimo оптимизировать оптимальный сложность`) {
		hardWords[w] = 0.5
		hardWords[foldAccents(w)] = 0.5
	}
}

var (
	mathWords = map[string]bool{"sin": true, "cos": true, "tan": true, "log": true, "ln": true, "lim": true, "dx": true, "dy": true,
		"frac": true, "sqrt": true, "sum": true, "int": true}
	codeWords = map[string]bool{"func": true, "def": true, "class": true, "return": true, "import": true, "var": true, "const": true,
		"let": true, "public": true, "static": true, "void": true, "select": true, "from": true, "where": true, "#include": true}
	codeTokens = []string{"```", "=>", "->", "::", "()"}
)

// mathAndCodeChars counts formula characters (digits, operators, Greek and math symbols)
// and code tokens (braces, semicolons, arrows) in one pass instead of regexps; Score adds
// the function names and keywords among the words.
func mathAndCodeChars(text string) (mathN, codeN int) {
	for _, r := range text {
		switch {
		case r >= '0' && r <= '9', r == '=' || r == '+' || r == '*' || r == '/' || r == '^' || r == '<' || r == '>':
			mathN++
		case r == '{' || r == '}' || r == ';':
			codeN++
		case r >= utf8.RuneSelf && strings.ContainsRune("≤≥≠∑∫√∂πθλσ∞", r):
			mathN++
		}
	}
	for _, t := range codeTokens {
		codeN += strings.Count(text, t)
	}
	return mathN, codeN
}

// wordCue is what one word tells the complexity score: the union of stepWords, hardWords,
// mathWords and codeWords, so that each word of a prompt is looked up once.
type wordCue struct {
	step, math, code bool
	hard             float64
}

var wordCues = map[string]wordCue{}

// The word lists are filled by the init functions above, which run before this one.
func init() {
	m := wordCues
	for w := range stepWords {
		c := m[w]
		c.step = true
		m[w] = c
	}
	for w, h := range hardWords {
		c := m[w]
		c.hard = h
		m[w] = c
	}
	for w := range mathWords {
		c := m[w]
		c.math = true
		m[w] = c
	}
	for w := range codeWords {
		c := m[w]
		c.code = true
		m[w] = c
	}
}

// Score rates text.
func (c *ComplexityScorer) Score(text string) ComplexityResult {
	return c.score(newAnalysis(text))
}

// score is Score on a request's shared analysis of the text.
func (c *ComplexityScorer) score(a *analysis) ComplexityResult {
	text := a.text
	tokens := float64(EstimateTokens(text))
	r := ComplexityResult{
		// log scale: 10 tokens ≈ 0.2, 60 ≈ 0.5, 500 and more = 1.
		Length: math.Min(1, math.Log1p(tokens/8)/math.Log1p(500.0/8)),
	}
	lower := a.lowerText()
	var steps float64
	for _, p := range stepPhrases {
		steps += float64(strings.Count(lower, p))
	}
	var hard float64
	var mathWordN, codeWordN int
	for w := range strings.FieldsFuncSeq(lower, func(r rune) bool { return !unicode.IsLetter(r) && r != '#' }) {
		c, ok := wordCues[w]
		if !ok {
			continue
		}
		if c.step {
			steps++
		}
		hard += c.hard
		if c.math {
			mathWordN++
		}
		if c.code {
			codeWordN++
		}
	}
	if hasNonASCII(lower) {
		for p, wt := range hardPhrases {
			hard += wt * float64(strings.Count(lower, p))
		}
	}
	r.Hard = 1 - math.Exp(-hard)
	if mayHoldListItem(text) {
		steps += 0.5 * float64(len(listRE.FindAllStringIndex(text, -1)))
	}
	if q := strings.Count(text, "?"); q > 1 {
		steps += float64(q - 1)
	}
	r.Steps = 1 - math.Exp(-steps/1.5)
	chars := math.Max(1, float64(utf8.RuneCountInString(text)))
	mathN, codeN := mathAndCodeChars(text)
	mathN, codeN = mathN+mathWordN, codeN+codeWordN
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

// mayHoldListItem reports whether text has a list marker that listRE needs: digits then '.'
// or ')', or '-', '*' or '•', followed by whitespace. Most prompts have none.
func mayHoldListItem(text string) bool {
	for i := 0; i < len(text); i++ {
		var rest string
		switch c := text[i]; {
		case c == '-' || c == '*':
			rest = text[i+1:]
		case (c == '.' || c == ')') && i > 0 && text[i-1] >= '0' && text[i-1] <= '9':
			rest = text[i+1:]
		case strings.HasPrefix(text[i:], "•"):
			rest = text[i+len("•"):]
		default:
			continue
		}
		if rest != "" && strings.IndexByte("\t\n\f\r ", rest[0]) >= 0 {
			return true
		}
	}
	return false
}

func hasNonASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return true
		}
	}
	return false
}
