package signal

import (
	_ "embed" // the folding table
	"strings"
	"unicode/utf8"
)

// The jailbreak detector's lexicon and rules are written in Simplified
// Chinese; the same words in Traditional characters (Taiwan, Hong Kong)
// would pass them unseen. The detector reads Chinese text with every
// Traditional character folded to its Simplified form, by a table derived
// from OpenCC (hant_simplified.txt; see internal/hantfold).
//
//go:generate go run ./internal/hantfold -o hant_simplified.txt
//go:embed hant_simplified.txt
var hantTable string

var hantFolds = table(func() map[rune]rune {
	m := make(map[rune]rune, 4200)
	for line := range strings.SplitSeq(hantTable, "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		from, to, ok := strings.Cut(line, "\t")
		if !ok {
			panic("hant_simplified.txt: a line without a tab: " + line)
		}
		t, _ := utf8.DecodeRuneInString(from)
		s, _ := utf8.DecodeRuneInString(to)
		m[t] = s
	}
	return m
})

// cantonese maps the commonest written Cantonese words to their Mandarin
// equivalents ("冇" no, "唔" not, "係" is, "嘅" of, "點樣" how), so that
// a Hong Kong prompt reads like the Mandarin the lexicon holds. Longer
// keys first: "關係" (a relation) keeps its 係.
var cantonese = strings.NewReplacer(
	"關係", "关系", "點樣", "怎么", "点样", "怎么", "而家", "现在", "乜嘢", "什么",
	"冇", "没有", "唔", "不", "係", "是", "嘅", "的", "喺", "在", "乜", "什么", "佢", "他",
	"咗", "了", "嘢", "东西", "啲", "些", "瞓", "睡", "睇", "看", "攞", "拿", "俾", "给",
)

// cantoneseMarks are characters that written Mandarin does not use.
const cantoneseMarks = "冇唔嘅喺乜佢咗嘢啲瞓睇攞"

// foldHant returns s with its Traditional Chinese characters in their
// Simplified forms and its Cantonese words in Mandarin ones, and whether
// any changed. Text without CJK returns at once, and so does Japanese:
// its kanji are not Traditional Chinese ("無視" is Japanese for "ignore"),
// and the Japanese patterns are written with them.
func foldHant(s string) (string, bool) {
	if !containsHan(s) || containsKana(s) {
		return s, false
	}
	yue := strings.ContainsAny(s, cantoneseMarks)
	if yue {
		s = cantonese.Replace(s)
	}
	m := hantFolds()
	i := strings.IndexFunc(s, func(r rune) bool { _, ok := m[r]; return ok })
	if i < 0 {
		return s, yue
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for _, r := range s[i:] {
		if f, ok := m[r]; ok {
			r = f
		}
		b.WriteRune(r)
	}
	return b.String(), true
}

// containsKana reports whether s holds hiragana or katakana, which Japanese writes and
// Chinese does not.
func containsKana(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return r >= 0x3041 && r <= 0x30FF && r != 0x30FB })
}
