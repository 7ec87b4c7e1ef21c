package onnx

import (
	"bytes"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// The normalizers of tokenizer.json: each becomes a string → string step,
// applied in order before pre-tokenization.

func buildNormalizer(spec *normalizerSpec, path string) ([]func(string) string, error) {
	if spec == nil {
		return nil, nil
	}
	on := func(b *bool, def bool) bool {
		if b == nil {
			return def
		}
		return *b
	}
	switch spec.Type {
	case "BertNormalizer":
		var steps []func(string) string
		if on(spec.CleanText, true) {
			steps = append(steps, cleanText)
		}
		if on(spec.HandleChineseChars, true) {
			steps = append(steps, spaceChinese)
		}
		lower := on(spec.Lowercase, true)
		// As in BERT: accents go with lowercasing unless said otherwise.
		if on(spec.StripAccents, lower) {
			steps = append(steps, stripAccents)
		}
		if lower {
			steps = append(steps, strings.ToLower)
		}
		return steps, nil
	case "Lowercase":
		return []func(string) string{strings.ToLower}, nil
	case "StripAccents":
		return []func(string) string{stripMarks}, nil
	case "NFD":
		return []func(string) string{norm.NFD.String}, nil
	case "NFKD":
		return []func(string) string{norm.NFKD.String}, nil
	case "NFC":
		return []func(string) string{norm.NFC.String}, nil
	case "NFKC":
		return []func(string) string{norm.NFKC.String}, nil
	case "Sequence":
		var steps []func(string) string
		for i := range spec.Normalizers {
			s, err := buildNormalizer(&spec.Normalizers[i], fmt.Sprintf("%s.normalizers[%d]", path, i))
			if err != nil {
				return nil, err
			}
			steps = append(steps, s...)
		}
		return steps, nil
	}
	return nil, fmt.Errorf("%s.type: %q is not supported", path, spec.Type)
}

// cleanText drops NUL, U+FFFD, control, format and private-use characters
// (BERT drops every "C" category) and turns every kind of whitespace into a
// plain space.
func cleanText(s string) string {
	var b bytes.Buffer
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r == 0 || r == utf8.RuneError:
		case r == '\t' || r == '\n' || r == '\r' || unicode.IsSpace(r):
			b.WriteByte(' ')
		case unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Co, r):
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// spaceChinese puts spaces around CJK ideographs so that each becomes a word,
// as BERT does (its vocabularies hold single ideographs).
func spaceChinese(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if isCJK(r) {
			b.WriteByte(' ')
			b.WriteRune(r)
			b.WriteByte(' ')
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isCJK(r rune) bool {
	return r >= 0x4E00 && r <= 0x9FFF || r >= 0x3400 && r <= 0x4DBF ||
		r >= 0x20000 && r <= 0x2A6DF || r >= 0x2A700 && r <= 0x2B73F ||
		r >= 0x2B740 && r <= 0x2B81F || r >= 0x2B820 && r <= 0x2CEAF ||
		r >= 0xF900 && r <= 0xFAFF || r >= 0x2F800 && r <= 0x2FA1F
}

// stripAccents decomposes (NFD) and drops the combining marks: "café" → "cafe".
func stripAccents(s string) string { return stripMarks(norm.NFD.String(s)) }

// stripMarks drops combining marks (category Mn) without decomposing first,
// which is what the StripAccents normalizer does after an explicit NFD.
func stripMarks(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Mn, r) {
			return -1
		}
		return r
	}, s)
}
