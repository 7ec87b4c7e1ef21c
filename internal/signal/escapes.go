package signal

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// decodeEscapes returns text with its character escapes decoded, as a model reads them: URL
// percent escapes (%2D, %40) and JavaScript's old %uHHHH, quoted-printable ones (=2D in
// upper-case hex, as the encoding writes them, and its soft line breaks), and the \xHH,
// \uHHHH, \UHHHHHHHH and three-digit octal \OOO escapes of JSON, JavaScript, Python and C
// source. A run of escapes of one kind is decoded only when
// its bytes are printable UTF-8 text; any other run stays as written ("x=10" is not a
// control character). at maps each byte offset of the result, and its end, to the offset in
// text it came from; ok is false when nothing was decoded. Decoding is one pass: an escape
// written inside a decoded one stays escaped.
//
// The result is read beside text, never instead of it: "id=4111…" decoded would lose the
// card number that text shows.
func decodeEscapes(text string) (out string, at []int, ok bool) {
	if !strings.ContainsAny(text, `%=\`) {
		return "", nil, false
	}
	var b strings.Builder
	last := 0
	for i := 0; i < len(text); {
		if c := text[i]; c != '%' && c != '=' && c != '\\' {
			i++ // every escape starts with one of the three
			continue
		}
		kind, n := escapeAt(text, i)
		if n == 0 {
			i++
			continue
		}
		// A run of escapes of one kind, decoded together: a multi-byte character is written
		// as several.
		var raw []byte
		var starts []int
		j := i
		for {
			k, m := escapeAt(text, j)
			if m == 0 || k != kind {
				break
			}
			raw, starts = appendEscape(raw, starts, text[j:j+m], j)
			j += m
		}
		if !printableText(raw) {
			i = j
			continue
		}
		if !ok {
			b.Grow(len(text))
			at = make([]int, 0, len(text)+1)
			ok = true
		}
		b.WriteString(text[last:i])
		for p := last; p < i; p++ {
			at = append(at, p)
		}
		b.Write(raw)
		at = append(at, starts...)
		last, i = j, j
	}
	if !ok {
		return "", nil, false
	}
	b.WriteString(text[last:])
	for p := last; p <= len(text); p++ {
		at = append(at, p)
	}
	return b.String(), at, true
}

// Kinds of escape; a run is of one kind.
const (
	escPercent = iota + 1
	escQuoted
	escBackslash
)

// escapeAt returns the kind and length of the escape at text[i], or 0, 0.
func escapeAt(text string, i int) (kind, n int) {
	rest := text[i:]
	switch {
	case len(rest) >= 3 && rest[0] == '%' && isHexDigit(rest[1]) && isHexDigit(rest[2]):
		return escPercent, 3
	case len(rest) >= 6 && rest[0] == '%' && (rest[1] == 'u' || rest[1] == 'U') && isHex(rest[2:6]):
		return escPercent, 6
	case len(rest) >= 3 && rest[0] == '=' && isUpperHex(rest[1]) && isUpperHex(rest[2]):
		return escQuoted, 3
	case strings.HasPrefix(rest, "=\r\n"):
		return escQuoted, 3
	case strings.HasPrefix(rest, "=\n"):
		return escQuoted, 2
	case len(rest) >= 4 && rest[0] == '\\' && rest[1] == 'x' && isHexDigit(rest[2]) && isHexDigit(rest[3]):
		return escBackslash, 4
	case len(rest) >= 6 && rest[0] == '\\' && rest[1] == 'u' && isHex(rest[2:6]):
		return escBackslash, 6
	case len(rest) >= 10 && rest[0] == '\\' && rest[1] == 'U' && isHex(rest[2:10]):
		return escBackslash, 10
	case len(rest) >= 4 && rest[0] == '\\' && rest[1] >= '0' && rest[1] <= '3' && isOctalDigit(rest[2]) && isOctalDigit(rest[3]):
		return escBackslash, 4
	}
	return 0, 0
}

// appendEscape appends the bytes esc (one escape starting at text offset from) stands for,
// and for each of them the offset it came from.
func appendEscape(raw []byte, starts []int, esc string, from int) ([]byte, []int) {
	var add []byte
	switch {
	case esc[0] == '=' && (esc[1] == '\n' || esc[1] == '\r'):
		// A soft line break joins two lines into one.
	case esc[0] == '\\' && esc[1] >= '0' && esc[1] <= '3': // octal: one byte
		add = []byte{(esc[1]-'0')<<6 | (esc[2]-'0')<<3 | (esc[3] - '0')}
	case esc[0] == '%' && len(esc) == 6: // %uHHHH: a code point
		add = appendCodePoint(nil, esc[2:])
	case esc[0] == '%' || esc[0] == '=' || esc[1] == 'x':
		add = []byte{hexByte(esc[1])<<4 | hexByte(esc[2])}
		if esc[1] == 'x' {
			add = []byte{hexByte(esc[2])<<4 | hexByte(esc[3])}
		}
	default: // \u or \U: a code point
		add = appendCodePoint(nil, esc[2:])
	}
	for range add {
		starts = append(starts, from)
	}
	return append(raw, add...), starts
}

// appendCodePoint appends the UTF-8 of the code point written in hex digits; a surrogate or
// a value past Unicode is no character and appends U+FFFD, so that its run stays as written.
func appendCodePoint(b []byte, digits string) []byte {
	var r rune
	for _, c := range []byte(digits) {
		r = r<<4 | rune(hexByte(c))
	}
	if !utf8.ValidRune(r) {
		r = utf8.RuneError
	}
	return utf8.AppendRune(b, r)
}

func isOctalDigit(c byte) bool { return c >= '0' && c <= '7' }

// printableText reports whether b is valid UTF-8 of printable characters and whitespace,
// without U+FFFD.
func printableText(b []byte) bool {
	if !utf8.Valid(b) {
		return false
	}
	for _, r := range string(b) {
		if r == utf8.RuneError || !unicode.IsPrint(r) && r != '\n' && r != '\t' && r != '\r' {
			return false
		}
	}
	return true
}

func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func isUpperHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'A' && c <= 'F' }

func hexByte(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}
