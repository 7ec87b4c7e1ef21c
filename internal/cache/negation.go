package cache

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Guard reports whether a cached prompt may answer a new one that is close to it in
// embedding space: the two must agree in polarity (NegationGuard), not write a word and its
// opposite (NoOpposites), and name the same numbers
// with the same operators between them (SameNumbers) and the same names (SameNames). Embeddings place "What is 15 times 23?" next to "What is 17 times 29?" and
// "turn on the lights" next to "turn off the lights"; neither may get the other's answer.
func Guard(prompt, cached string) bool {
	return NegationGuard(prompt, cached) && NoOpposites(prompt, cached) && SameNumbers(prompt, cached) && SameNames(prompt, cached)
}

// SameNames reports whether every name either prompt writes (a word with a capital letter
// that does not start a sentence: "Spanish", "Paris", "PostgreSQL") is in the other too,
// whatever its case. An embedding puts "Translate it into Spanish" next to "Translate it
// into German"; "the capital of France" and "the capital of france" name the same place.
func SameNames(prompt, cached string) bool {
	pw, cw := words(prompt), words(cached)
	for n := range names(prompt) {
		if !cw[n] {
			return false
		}
	}
	for n := range names(cached) {
		if !pw[n] {
			return false
		}
	}
	return true
}

// words returns the words of s, lowercased.
func words(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(s, notWordRune) {
		out[strings.ToLower(strings.Trim(w, "'’"))] = true
	}
	return out
}

// names returns the words of s, lowercased, that are written with a capital letter
// and do not start a sentence (the first word, or one after '.', '!', '?', ':' or a line
// break); "I" is no name.
func names(s string) map[string]bool {
	out := map[string]bool{}
	start := true // at the start of a sentence
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if notWordRune(r) {
			if strings.ContainsRune(".!?:\n", r) {
				start = true
			}
			i += size
			continue
		}
		j := i
		for j < len(s) {
			r, n := utf8.DecodeRuneInString(s[j:])
			if notWordRune(r) {
				break
			}
			j += n
		}
		w := strings.Trim(s[i:j], "'’")
		if !start && w != "I" && strings.IndexFunc(w, unicode.IsUpper) >= 0 {
			out[strings.ToLower(w)] = true
		}
		start = false
		i = j
	}
	return out
}

// SameNumbers reports whether two prompts name the same numbers in the same order, with the
// same operators next to them: each run of digits, with the '.', ',' or ':' between two
// digits ("3.14", "1,000", "10:30"), is one number, compared as written, and so is each
// number word ("three", "fourth"); see operators for the signs. "1,000" and "1000" differ: a refused hit costs one model call.
func SameNumbers(prompt, cached string) bool {
	return slices.Equal(numbers(prompt), numbers(cached)) && slices.Equal(numberWords(prompt), numberWords(cached)) &&
		slices.Equal(operators(prompt), operators(cached))
}

// operators returns, in order, the signs written next to a number ("3+5", "7 > 3", "-2",
// "10%", "x^2"): embeddings drop them, so "What is 3+5?" and "What is 3*5?" have the same
// vector and the same numbers. A sign between two words ("e-mail", "and/or") is no
// operator.
func operators(s string) []rune {
	var out []rune
	rs := []rune(s)
	for i, r := range rs {
		if !isOperator(r) {
			continue
		}
		if digitAt(rs, i, -1) || digitAt(rs, i, 1) {
			out = append(out, r)
		}
	}
	return out
}

// isOperator reports whether r is an arithmetic or comparison sign: a Unicode math symbol
// (+ < = > ± × ÷ − ≤ ≥ ≠ ...) or one of the ASCII signs written for them.
func isOperator(r rune) bool {
	return unicode.Is(unicode.Sm, r) || strings.ContainsRune("-*/^%", r)
}

// digitAt reports whether the first rune from rs[i] in direction step (-1 or 1), blanks
// skipped, is a digit.
func digitAt(rs []rune, i, step int) bool {
	for j := i + step; j >= 0 && j < len(rs); j += step {
		if rs[j] != ' ' {
			return unicode.IsDigit(rs[j])
		}
	}
	return false
}

// numberWordSet holds the English words for numbers and ordinals: "the third step" and
// "the fourth step" differ as "3" and "4" do.
var numberWordSet = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`zero one two three four five six seven eight nine ten eleven twelve
		thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty
		seventy eighty ninety hundred thousand million billion trillion half quarter dozen
		first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth
		thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth
		hundredth thousandth millionth once twice`) {
		m[w] = true
	}
	return m
}()

// numberWords returns the number words of s, lowercased, in order.
func numberWords(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(s), notWordRune) {
		if numberWordSet[w] {
			out = append(out, w)
		}
	}
	return out
}

// numbers returns the numbers of s, as written.
func numbers(s string) []string {
	var out []string
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		if !unicode.IsDigit(rs[i]) {
			continue
		}
		j := i + 1
		for j < len(rs) && (unicode.IsDigit(rs[j]) || strings.ContainsRune(".,:", rs[j]) && j+1 < len(rs) && unicode.IsDigit(rs[j+1])) {
			j++
		}
		out = append(out, string(rs[i:j]))
		i = j
	}
	return out
}

// NegationGuard reports whether a cached prompt may answer a new one: false when the two
// differ in polarity (one negates or switches off what the other asks: "turn on X" vs "turn
// off X", "enable" vs "disable", "do" vs "don't", "with" vs "without", "can" vs "cannot").
//
// Each prompt's polarity is the parity of its negations: negators ("not", "no",
// "never", "n't", ...) and words that switch off or reverse their opposite
// ("off", "disable", "without", "cannot", "hide", ...). Two prompts pass when
// their parities agree, so paraphrases ("don't" and "do not", "without sugar"
// and "with no sugar", "turn the lights off" and "switch off the lights") pass
// and a prompt never answers its opposite. It is deliberately conservative:
// a wrong refusal costs one model call, a wrong answer costs the user.
func NegationGuard(prompt, cached string) bool {
	return negations(prompt)%2 == negations(cached)%2
}

// negators are words that negate on their own.
var negators = map[string]bool{
	"not": true, "no": true, "never": true, "none": true, "nothing": true, "nobody": true,
	"nowhere": true, "neither": true, "nor": true, "cannot": true, "without": true, "unable": true,
	"off": true, "disable": true, "disabled": true, "disabling": true, "disables": true,
	"deactivate": true, "deactivated": true, "uninstall": true, "uninstalled": true,
	"unlock": true, "disallow": true, "disallowed": true, "disconnect": true,
	"unsubscribe": true, "unmute": true, "hide": true, "stop": true, "exclude": true,
	"excluding": true, "dislike": true, "disagree": true, "forbid": true, "deny": true,
	// Contractions typed without the apostrophe.
	"dont": true, "doesnt": true, "didnt": true, "isnt": true, "arent": true, "wasnt": true,
	"werent": true, "cant": true, "wont": true, "wouldnt": true, "shouldnt": true,
	"couldnt": true, "hasnt": true, "havent": true, "hadnt": true, "aint": true,
	"neednt": true, "mustnt": true,
}

// negations counts the negations in s.
func negations(s string) int {
	n := 0
	for _, w := range strings.FieldsFunc(strings.ToLower(s), notWordRune) {
		w = strings.Trim(strings.ReplaceAll(w, "’", "'"), "'")
		if negators[w] || strings.HasSuffix(w, "n't") {
			n++
		}
	}
	return n
}

func notWordRune(r rune) bool {
	return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '’'
}
