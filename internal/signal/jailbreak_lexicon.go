package signal

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// cueSet is a bit set of lexicon categories found in a text.
type cueSet uint64

func (c cueSet) has(cat cueSet) bool { return c&cat != 0 }

// lexicon finds many short terms in one pass over a text (Aho-Corasick).
// Terms are matched against wordView(text): lowercase, every character that
// is neither a letter nor a digit turned into a space, with a space at each
// end, so " ied " only matches the word and " meth" only a word start.
type lexicon struct {
	root  [256]int32
	nodes []lexNode
}

type lexNode struct {
	edges []lexEdge
	fail  int32
	out   cueSet // categories of the terms ending here or at a fail ancestor
}

type lexEdge struct {
	b    byte
	next int32
}

func (n *lexNode) step(b byte) int32 {
	for _, e := range n.edges {
		if e.b == b {
			return e.next
		}
	}
	return -1
}

func newLexicon(terms map[cueSet][]string) *lexicon {
	lx := &lexicon{nodes: []lexNode{{}}}
	for cat, list := range terms {
		for _, t := range list {
			cur := int32(0)
			for i := 0; i < len(t); i++ {
				next := lx.nodes[cur].step(t[i])
				if next < 0 {
					next = int32(len(lx.nodes)) //nolint:gosec // a few thousand nodes
					lx.nodes = append(lx.nodes, lexNode{})
					lx.nodes[cur].edges = append(lx.nodes[cur].edges, lexEdge{t[i], next})
				}
				cur = next
			}
			lx.nodes[cur].out |= cat
		}
	}
	// Breadth-first failure links; out sets accumulate along them.
	var queue []int32
	for _, e := range lx.nodes[0].edges {
		queue = append(queue, e.next)
	}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, e := range lx.nodes[n].edges {
			f := lx.nodes[n].fail
			for {
				if next := lx.nodes[f].step(e.b); next >= 0 && next != e.next {
					lx.nodes[e.next].fail = next
					break
				}
				if f == 0 {
					break
				}
				f = lx.nodes[f].fail
			}
			lx.nodes[e.next].out |= lx.nodes[lx.nodes[e.next].fail].out
			queue = append(queue, e.next)
		}
	}
	for b := range 256 {
		lx.root[b] = lx.nodes[0].step(byte(b))
		if lx.root[b] < 0 {
			lx.root[b] = 0
		}
	}
	return lx
}

// scan returns the categories of every term that occurs in view.
func (lx *lexicon) scan(view string) cueSet {
	var found cueSet
	cur := int32(0)
	for i := 0; i < len(view); i++ {
		b := view[i]
		for {
			if cur == 0 {
				cur = lx.root[b]
				break
			}
			if next := lx.nodes[cur].step(b); next >= 0 {
				cur = next
				break
			}
			cur = lx.nodes[cur].fail
		}
		found |= lx.nodes[cur].out
	}
	return found
}

// count returns how many term occurrences end in view (overlapping terms
// ending at the same byte count once).
func (lx *lexicon) count(view string) int {
	n := 0
	cur := int32(0)
	for i := 0; i < len(view); i++ {
		b := view[i]
		for {
			if cur == 0 {
				cur = lx.root[b]
				break
			}
			if next := lx.nodes[cur].step(b); next >= 0 {
				cur = next
				break
			}
			cur = lx.nodes[cur].fail
		}
		if lx.nodes[cur].out != 0 {
			n++
		}
	}
	return n
}

// wordView lowercases s and turns everything that is not a letter or a
// digit into a single space, with a space at both ends.
func wordView(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte(' ')
	space := true
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			// ASCII: the same tests as below, without the tables.
			i++
			switch {
			case 'a' <= c && c <= 'z' || '0' <= c && c <= '9':
				b.WriteByte(c)
				space = false
			case 'A' <= c && c <= 'Z':
				b.WriteByte(c + 'a' - 'A')
				space = false
			case !space:
				b.WriteByte(' ')
				space = true
			}
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) {
			b.WriteRune(unicode.ToLower(r))
			space = false
		} else if !space {
			b.WriteByte(' ')
			space = true
		}
	}
	if !space {
		b.WriteByte(' ')
	}
	return b.String()
}

// leetMap undoes the digit and symbol substitutions of leetspeak, in Latin
// and in Cyrillic words.
var (
	leetLatin    = map[rune]rune{'0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', '$': 's'}
	leetCyrillic = map[rune]rune{'0': 'о', '3': 'е', '4': 'ч', '6': 'б', '@': 'а', '$': 'с'}
)

// deLeet rewrites the words of s that mix letters with leetspeak digits or
// symbols; it returns s unchanged, and false, when fewer than two words do.
// In a text with several such words a lone "1" or "4" is read as "i"/"a".
func deLeet(s string) (string, bool) {
	fields := strings.Fields(s)
	mixed := 0
	for _, f := range fields {
		if isLeetWord(f) {
			mixed++
		}
	}
	if mixed < 2 {
		return s, false
	}
	for i, f := range fields {
		switch {
		case f == "1":
			fields[i] = "i"
		case f == "4":
			fields[i] = "a"
		case strings.ContainsFunc(f, unicode.IsLetter) && strings.ContainsAny(f, "013456@$"):
			// Once the text is leetspeak, trailing digits are letters too ("d0").

			table := leetLatin
			for _, r := range f {
				if unicode.Is(unicode.Cyrillic, r) {
					table = leetCyrillic
					break
				}
			}
			fields[i] = strings.Map(func(r rune) rune {
				if m, ok := table[r]; ok {
					return m
				}
				return r
			}, f)
		}
	}
	return strings.Join(fields, " "), true
}

// isLeetWord reports a word with at least one letter and one leetspeak
// digit or symbol inside it ("m4k3", "к@к"); "mp3" and "covid19" do not
// count because their digits only trail.
func isLeetWord(w string) bool {
	w = strings.TrimRight(w, ".,;:!?)\"'")
	letters, leet := 0, 0
	for i, r := range w {
		switch {
		case unicode.IsLetter(r):
			letters++
		case strings.ContainsRune("013456@$", r) && (letters > 0 || i+utf8.RuneLen(r) < len(w)):
			leet++
		}
	}
	return letters > 0 && leet > 0 && !trailingDigits(w) && !ordinal(w)
}

// ordinal reports "1st", "3rd", "4th" and the like.
func ordinal(w string) bool {
	rest := strings.TrimLeftFunc(w, unicode.IsDigit)
	return len(rest) < len(w) && (rest == "st" || rest == "nd" || rest == "rd" || rest == "th")
}

func trailingDigits(w string) bool {
	i := strings.IndexFunc(w, unicode.IsDigit)
	return i > 0 && strings.TrimLeftFunc(w[i:], unicode.IsDigit) == ""
}

// reverseRunes reverses s rune by rune.
func reverseRunes(s string) string {
	r := []rune(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r)
}

// joinHan removes single separators between CJK characters ("炸.药",
// "勒 索") that split a word so that a lexicon would not see it.
func joinHan(s string) (string, bool) {
	r := []rune(s)
	out := make([]rune, 0, len(r))
	changed := false
	for i := 0; i < len(r); i++ {
		if i > 0 && i+1 < len(r) && isHan(r[i-1]) && isHan(r[i+1]) && strings.ContainsRune(".·*-_ /|,、", r[i]) {
			changed = true
			continue
		}
		out = append(out, r[i])
	}
	return string(out), changed
}

func isHan(r rune) bool { return unicode.Is(unicode.Han, r) }
