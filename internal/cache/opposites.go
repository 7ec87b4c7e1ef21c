package cache

import "strings"

// NoOpposites reports whether a cached prompt may answer a new one as far as opposites go:
// false when one writes a word and the other its opposite instead ("maximum" and "minimum",
// "encrypt" and "decrypt", "buy" and "sell", "valid" and "invalid"). Embeddings put a word
// next to its opposite, both being about the same thing, so "What is the minimum dose of
// paracetamol?" is as close to "What is the maximum dose of paracetamol?" as a paraphrase.
// A prompt that writes both words of a pair agrees with either. Like the rest of Guard it is
// lexical and conservative: a refused hit costs one model call.
func NoOpposites(prompt, cached string) bool {
	pw, cw := senseWords(prompt), senseWords(cached)
	for w := range pw {
		for _, o := range opposites(w) {
			if cw[o] && !pw[o] && !cw[w] {
				return false
			}
		}
	}
	return true
}

// senseWords returns the words of s, lowercased, each also as the base form that
// oppositePairs lists ("increases", "increased", "increasing" also as "increase").
func senseWords(s string) map[string]bool {
	out := map[string]bool{}
	for w := range words(s) {
		out[w] = true
		for _, suffix := range []string{"s", "es", "ed", "d", "ing"} {
			if base, ok := strings.CutSuffix(w, suffix); ok && len(base) > 2 {
				out[base] = true
				if suffix == "ing" || suffix == "ed" {
					out[base+"e"] = true // "increasing", "decreased"
				}
			}
		}
	}
	return out
}

// opposites returns the words that are opposites of w: those oppositePairs pairs it with,
// and the word with a negating prefix ("valid" and "invalid", "safe" and "unsafe",
// "compress" and "decompress"), or without it.
func opposites(w string) []string {
	out := oppositeOf[w]
	for _, p := range negatingPrefixes {
		out = append(out, p+w)
		if base, ok := strings.CutPrefix(w, p); ok && len(base) > 2 {
			out = append(out, base)
		}
	}
	return out
}

// negatingPrefixes turn a word into its opposite.
var negatingPrefixes = []string{"un", "in", "im", "il", "ir", "dis", "non", "de"}

// oppositePairs are English words and their opposites, in their base forms.
var oppositePairs = [][2]string{
	{"maximum", "minimum"}, {"max", "min"}, {"maximize", "minimize"}, {"most", "least"}, {"more", "less"},
	{"largest", "smallest"}, {"biggest", "smallest"}, {"larger", "smaller"}, {"bigger", "smaller"},
	{"highest", "lowest"}, {"higher", "lower"}, {"high", "low"}, {"longest", "shortest"}, {"longer", "shorter"},
	{"long", "short"}, {"fastest", "slowest"}, {"faster", "slower"}, {"fast", "slow"}, {"best", "worst"},
	{"better", "worse"}, {"oldest", "newest"}, {"older", "newer"}, {"earliest", "latest"}, {"cheapest", "expensive"},
	{"cheap", "expensive"}, {"easiest", "hardest"}, {"hot", "cold"}, {"heavy", "light"}, {"strong", "weak"},
	{"increase", "decrease"}, {"raise", "lower"}, {"grow", "shrink"}, {"expand", "collapse"}, {"gain", "lose"},
	{"win", "lose"}, {"before", "after"}, {"above", "below"}, {"over", "under"}, {"up", "down"},
	{"upload", "download"}, {"import", "export"}, {"input", "output"}, {"inbound", "outbound"}, {"incoming", "outgoing"},
	{"encrypt", "decrypt"}, {"encode", "decode"}, {"zip", "unzip"}, {"buy", "sell"}, {"send", "receive"},
	{"push", "pull"}, {"add", "remove"}, {"add", "delete"}, {"create", "delete"}, {"insert", "delete"},
	{"open", "close"}, {"attach", "detach"}, {"mount", "unmount"}, {"accept", "reject"}, {"allow", "block"},
	{"approve", "reject"}, {"true", "false"}, {"positive", "negative"}, {"love", "hate"}, {"pros", "cons"},
	{"advantage", "disadvantage"}, {"left", "right"}, {"north", "south"}, {"east", "west"}, {"inner", "outer"},
	{"internal", "external"}, {"public", "private"}, {"horizontal", "vertical"}, {"ascending", "descending"},
	{"asc", "desc"}, {"uppercase", "lowercase"}, {"upper", "lower"}, {"sync", "async"}, {"synchronous", "asynchronous"},
	{"client", "server"}, {"male", "female"}, {"man", "woman"}, {"men", "women"}, {"boy", "girl"},
	{"father", "mother"}, {"husband", "wife"}, {"dark", "light"}, {"start", "end"}, {"begin", "end"},
	{"first", "last"}, {"success", "failure"}, {"pass", "fail"}, {"valid", "invalid"}, {"legal", "illegal"},
}

// oppositeOf maps each word of oppositePairs to its opposites.
var oppositeOf = func() map[string][]string {
	m := map[string][]string{}
	for _, p := range oppositePairs {
		m[p[0]] = append(m[p[0]], p[1])
		m[p[1]] = append(m[p[1]], p[0])
	}
	return m
}()
