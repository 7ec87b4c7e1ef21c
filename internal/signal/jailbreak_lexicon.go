package signal

import (
	"maps"
	"slices"
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
	edges []lexEdge // the edges of the nodes with more than one, each node's side by side
}

// lexNode is a trie node. Most nodes lie inside a term and have one edge, which the node
// holds itself: a step of the scan then reads one node, not a node and its edge list. The
// scan's steps depend on each other, so on memory the CPU does not hold each one waits for
// the last; nodes are 24 bytes and numbered in insertion order, so a term's nodes are
// neighbours.
type lexNode struct {
	out  cueSet // categories of the terms ending here or at a fail ancestor
	fail int32
	// next is the one edge's target, or, with more edges, the first of them in edges.
	next int32
	b    byte  // the one edge's byte
	n    uint8 // how many edges
}

type lexEdge struct {
	b    byte
	next int32
}

func (lx *lexicon) step(cur int32, b byte) int32 {
	n := &lx.nodes[cur]
	switch n.n {
	case 0:
	case 1:
		if n.b == b {
			return n.next
		}
	default:
		for _, e := range lx.edges[n.next : n.next+int32(n.n)] {
			if e.b == b {
				return e.next
			}
		}
	}
	return -1
}

// trie is the automaton newLexicon builds before packing it into lexNodes. Its edges are
// kept in one list, each node's linked from the node, so that building the trie of a few
// thousand terms makes a few allocations rather than one per node.
type trie struct {
	nodes []trieNode
	edges []trieEdge
	root  [256]int32 // the root's edges, by byte; 0 where it has none
}

type trieNode struct {
	out   cueSet
	fail  int32
	first int32 // the node's first edge in edges, or -1
	n     int32 // how many edges
}

type trieEdge struct {
	lexEdge
	sibling int32 // the node's next edge in edges, or -1
}

func (t *trie) step(cur int32, b byte) int32 {
	if cur == 0 {
		if next := t.root[b]; next != 0 {
			return next
		}
		return -1
	}
	for e := t.nodes[cur].first; e >= 0; e = t.edges[e].sibling {
		if t.edges[e].b == b {
			return t.edges[e].next
		}
	}
	return -1
}

func (t *trie) addEdge(from int32, b byte, to int32) {
	if from == 0 {
		t.root[b] = to
	}
	n := &t.nodes[from]
	t.edges = append(t.edges, trieEdge{lexEdge{b, to}, n.first})
	n.first = int32(len(t.edges) - 1) //nolint:gosec // a few tens of thousands of edges
	n.n++
}

// newLexicon builds the automaton that finds every term of terms, each of its category.
func newLexicon(terms map[cueSet][]string) *lexicon {
	size := 1
	for _, list := range terms {
		for _, t := range list {
			size += len(t)
		}
	}
	// Every node but the root is entered by one edge: size bounds both.
	t := &trie{nodes: make([]trieNode, 1, size), edges: make([]trieEdge, 0, size)}
	t.nodes[0].first = -1
	// Categories in order, so that every process numbers the nodes alike.
	for _, cat := range slices.Sorted(maps.Keys(terms)) {
		for _, term := range terms[cat] {
			cur := int32(0)
			for i := 0; i < len(term); i++ {
				next := t.step(cur, term[i])
				if next < 0 {
					next = int32(len(t.nodes)) //nolint:gosec // a few tens of thousands of nodes
					t.nodes = append(t.nodes, trieNode{first: -1})
					t.addEdge(cur, term[i], next)
				}
				cur = next
			}
			t.nodes[cur].out |= cat
		}
	}
	// Breadth-first failure links; out sets accumulate along them. A node's link depends
	// only on shallower nodes, so the order of siblings does not change the automaton.
	queue := make([]int32, 0, len(t.nodes))
	for e := t.nodes[0].first; e >= 0; e = t.edges[e].sibling {
		queue = append(queue, t.edges[e].next)
	}
	for head := 0; head < len(queue); head++ {
		n := queue[head]
		for e := t.nodes[n].first; e >= 0; e = t.edges[e].sibling {
			edge := t.edges[e].lexEdge
			f := t.nodes[n].fail
			for {
				if next := t.step(f, edge.b); next >= 0 && next != edge.next {
					t.nodes[edge.next].fail = next
					break
				}
				if f == 0 {
					break
				}
				f = t.nodes[f].fail
			}
			t.nodes[edge.next].out |= t.nodes[t.nodes[edge.next].fail].out
			queue = append(queue, edge.next)
		}
	}
	lx := &lexicon{root: t.root, nodes: make([]lexNode, len(t.nodes))}
	for i, n := range t.nodes {
		if n.n > 255 {
			panic("signal: a lexicon node with more than 255 edges")
		}
		p := lexNode{out: n.out, fail: n.fail, n: uint8(n.n)} //nolint:gosec // at most 255, checked above
		switch n.n {
		case 0:
		case 1:
			p.b, p.next = t.edges[n.first].b, t.edges[n.first].next
		default:
			p.next = int32(len(lx.edges)) //nolint:gosec // a few thousand edges
			for e := n.first; e >= 0; e = t.edges[e].sibling {
				lx.edges = append(lx.edges, t.edges[e].lexEdge)
			}
		}
		lx.nodes[i] = p
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
			if next := lx.step(cur, b); next >= 0 {
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
			if next := lx.step(cur, b); next >= 0 {
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
