package onnx

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Byte-level BPE, as GPT-2, RoBERTa and the sentence-transformers models
// built on them (all-roberta-large-v1, ...) use it: the text is split by
// GPT-2's pattern, every byte is mapped to a printable character, and each
// piece is merged pair by pair in the order of the merges list.

// bpe holds the merge ranks; the vocabulary is the Tokenizer's.
type bpe struct {
	ranks map[string]int // "left right" → rank; lower merges first
	unk   int64
	// hasUnk is false when the model has no unknown token (byte-level
	// vocabularies cover every byte); unknown symbols are then dropped.
	hasUnk bool
}

// parseMerges reads model.merges in either form tokenizers writes:
// ["a b", ...] or [["a", "b"], ...].
func parseMerges(raw json.RawMessage) (map[string]int, error) {
	if len(raw) == 0 {
		return nil, errors.New("model.merges: missing")
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, fmt.Errorf("model.merges: not a list: %w", err)
	}
	ranks := make(map[string]int, len(items))
	for i, it := range items {
		var s string
		var pair []string
		switch {
		case json.Unmarshal(it, &s) == nil:
			if strings.Count(s, " ") != 1 {
				return nil, fmt.Errorf("model.merges[%d]: %q is not two symbols separated by one space", i, s)
			}
		case json.Unmarshal(it, &pair) == nil && len(pair) == 2:
			s = pair[0] + " " + pair[1]
		default:
			return nil, fmt.Errorf("model.merges[%d]: want \"a b\" or [\"a\", \"b\"], got %s", i, it)
		}
		if _, dup := ranks[s]; !dup {
			ranks[s] = i
		}
	}
	return ranks, nil
}

// appendWord adds the ids of one pre-tokenized (byte-mapped) piece.
func (b *bpe) appendWord(vocab map[string]int64, ids []int64, w string) []int64 {
	if id, ok := vocab[w]; ok {
		return append(ids, id)
	}
	syms := make([]string, 0, len(w))
	for _, r := range w {
		syms = append(syms, string(r))
	}
	// Merge the best-ranked adjacent pair everywhere it occurs, until no
	// pair has a rank. Pieces are short, so the quadratic loop is cheap.
	for len(syms) > 1 {
		best, bestRank := "", -1
		for i := 0; i+1 < len(syms); i++ {
			if r, ok := b.ranks[syms[i]+" "+syms[i+1]]; ok && (bestRank < 0 || r < bestRank) {
				best, bestRank = syms[i]+" "+syms[i+1], r
			}
		}
		if bestRank < 0 {
			break
		}
		merged := syms[:0]
		for i := 0; i < len(syms); i++ {
			if i+1 < len(syms) && syms[i]+" "+syms[i+1] == best {
				merged = append(merged, syms[i]+syms[i+1])
				i++
				continue
			}
			merged = append(merged, syms[i])
		}
		syms = merged
	}
	for _, s := range syms {
		if id, ok := vocab[s]; ok {
			ids = append(ids, id)
		} else if b.hasUnk {
			ids = append(ids, b.unk)
		}
	}
	return ids
}

// byteRunes is GPT-2's reversible map from bytes to printable characters:
// printable Latin-1 bytes stand for themselves, the others for 256 upwards.
var byteRunes = func() [256]rune {
	var m [256]rune
	n := rune(256)
	for b := range 256 {
		if b >= '!' && b <= '~' || b >= 0xA1 && b <= 0xAC || b >= 0xAE && b <= 0xFF {
			m[b] = rune(b)
		} else {
			m[b] = n
			n++
		}
	}
	return m
}()

// byteLevelSplitter returns the ByteLevel pre-tokenizer: GPT-2's split
// (unless useRegex is false), then the byte mapping.
func byteLevelSplitter(addPrefixSpace, useRegex bool) func(string) []string {
	return func(s string) []string {
		if addPrefixSpace && !strings.HasPrefix(s, " ") {
			s = " " + s
		}
		pieces := []string{s}
		if useRegex {
			pieces = splitGPT2(s)
		}
		out := pieces[:0]
		for _, p := range pieces {
			var sb strings.Builder
			for i := range len(p) {
				sb.WriteRune(byteRunes[p[i]])
			}
			if sb.Len() > 0 {
				out = append(out, sb.String())
			}
		}
		return out
	}
}

// splitGPT2 splits like GPT-2's pattern
//
//	's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
//
// written out by hand because Go's regexp has no lookahead. Bytes that are
// not UTF-8 count as symbols and are kept, since BPE works on bytes.
func splitGPT2(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		n := gpt2Match(s[i:])
		out = append(out, s[i:i+n])
		i += n
	}
	return out
}

func gpt2Match(s string) int {
	for _, c := range [...]string{"'s", "'t", "'re", "'ve", "'m", "'ll", "'d"} {
		if strings.HasPrefix(s, c) {
			return len(c)
		}
	}
	j := 0
	if s[0] == ' ' {
		j = 1
	}
	for _, class := range [...]func(rune) bool{unicode.IsLetter, unicode.IsNumber, isSymbol} {
		if n := runLen(s[j:], class); n > 0 {
			return j + n
		}
	}
	// A run of whitespace. Followed by more text, it leaves its last
	// character to start the next piece (the lookahead), unless it is a
	// single character.
	n := runLen(s, unicode.IsSpace)
	if n < len(s) {
		if _, last := utf8.DecodeLastRuneInString(s[:n]); last < n {
			return n - last
		}
	}
	return n
}

// isSymbol is [^\s\p{L}\p{N}].
func isSymbol(r rune) bool {
	return !unicode.IsSpace(r) && !unicode.IsLetter(r) && !unicode.IsNumber(r)
}

// runLen is the length in bytes of the run of runes in class at the start of s.
func runLen(s string, class func(rune) bool) int {
	n := 0
	for n < len(s) {
		r, size := utf8.DecodeRuneInString(s[n:])
		if !class(r) {
			break
		}
		n += size
	}
	return n
}
