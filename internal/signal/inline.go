package signal

import (
	"encoding/base64"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxInlineRead bounds the decoded bytes of one inline payload that the detectors read as
// text: 1 MiB. A text payload longer than that is read to that point; the rest is read as a
// binary payload is (words between its separators). Decoding costs about a millisecond per
// MiB, and a request body (10 MiB by default) holds at most a few such payloads.
const MaxInlineRead = 1 << 20

// minBase64Run is the length from which a JSON string of base64 alone is inline data
// (input_audio's data, a file's file_data) rather than text: shorter strings are read as
// they are.
const minBase64Run = 1024

// Inline is base64 data carried in a JSON string: a data URL whose payload is base64, or a
// long run of base64 alone.
type Inline struct {
	// Prefix is the data URL up to and including its comma ("data:image/png;base64,"), or ""
	// for a bare run.
	Prefix string
	// Payload is the base64 as sent.
	Payload string
	// Binary reports a payload that does not decode to text (UTF-8, mostly printable): media
	// (an image, audio, a file), whose bytes the detectors do not read.
	Binary bool

	enc  *base64.Encoding
	text string // the decoded text, at most MaxInlineRead bytes; "" when Binary
}

// ParseInline reports whether s is inline data, and what it holds. s is inline data only
// when its payload really is base64: the standard or the URL alphabet (not both), with or
// without padding, of a length that decodes, with no whitespace and no stray bits in the
// last character. Anything else ("data:;base64,My SSN is …", a long run that does not
// decode) is text, read as it is.
func ParseInline(s string) (Inline, bool) {
	var in Inline
	switch {
	case strings.HasPrefix(s, "data:"):
		head, payload, ok := strings.Cut(s, ",")
		if !ok || !strings.HasSuffix(head, ";base64") {
			return Inline{}, false
		}
		in.Prefix, in.Payload = s[:len(head)+1], payload
	case len(s) >= minBase64Run:
		in.Payload = s
	default:
		return Inline{}, false
	}
	if in.enc = base64Encoding(in.Payload); in.enc == nil {
		return Inline{}, false
	}
	// Decode whole 4-character groups up to the bound; a longer payload has its last group
	// decoded too, so that its padding and last bits are checked.
	head := in.Payload
	if n := MaxInlineRead / 3 * 4; len(head) > n {
		head = head[:n]
		if _, err := in.enc.DecodeString(in.Payload[lastGroup(in.Payload):]); err != nil {
			return Inline{}, false
		}
	}
	b, err := in.enc.DecodeString(head)
	if err != nil {
		return Inline{}, false
	}
	if text, ok := decodedText(b, len(head) < len(in.Payload)); ok {
		in.text = text
	} else {
		in.Binary = true
	}
	return in, true
}

// Read is what the detectors read of the data: the decoded text (its first MaxInlineRead
// bytes, then the words of the rest), or for a binary payload the words it shows between
// separators (binaryWords): media cannot hide "/card/4111/1111/1111/1111/" that way.
func (in Inline) Read() string {
	switch {
	case in.Binary:
		return binaryWords(in.Payload)
	case len(in.Payload) > MaxInlineRead/3*4:
		return joinLines(in.text, binaryWords(in.Payload[MaxInlineRead/3*4:]))
	}
	return in.text
}

// Decode returns the whole payload decoded.
func (in Inline) Decode() ([]byte, error) { return in.enc.DecodeString(in.Payload) }

// Encode returns b as inline data of the same kind: the same prefix and encoding.
func (in Inline) Encode(b []byte) string { return in.Prefix + in.enc.EncodeToString(b) }

// base64Encoding returns the strict encoding that p is written in, or nil when p is not
// base64.
func base64Encoding(p string) *base64.Encoding {
	pad := len(p) - len(strings.TrimRight(p, "="))
	body := p[:len(p)-pad]
	if pad > 2 || pad > 0 && len(p)%4 != 0 || pad == 0 && len(p)%4 == 1 {
		return nil
	}
	var std, url bool
	for i := 0; i < len(body); i++ {
		switch c := body[i]; {
		case c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
		case c == '+' || c == '/':
			std = true
		case c == '-' || c == '_':
			url = true
		default:
			return nil
		}
	}
	switch {
	case std && url:
		return nil
	case url && pad > 0:
		return base64.URLEncoding.Strict()
	case url:
		return base64.RawURLEncoding.Strict()
	case pad > 0:
		return base64.StdEncoding.Strict()
	}
	return base64.RawStdEncoding.Strict()
}

// lastGroup is the start of p's last 4-character group.
func lastGroup(p string) int {
	if len(p)%4 != 0 {
		return len(p) - len(p)%4
	}
	return max(0, len(p)-4)
}

// decodedText returns b as text when it is text: valid UTF-8 (but for a rune cut at the end
// when cut is set) of which at least 95 % of the characters are printable or whitespace.
func decodedText(b []byte, cut bool) (string, bool) {
	if cut {
		// Drop a rune the bound cut in two.
		for i := len(b) - 1; i >= 0 && i >= len(b)-3; i-- {
			if utf8.RuneStart(b[i]) {
				if !utf8.FullRune(b[i:]) {
					b = b[:i]
				}
				break
			}
		}
	}
	if !utf8.Valid(b) {
		return "", false
	}
	s := string(b)
	n, bad := 0, 0
	for _, r := range s {
		n++
		if !unicode.IsPrint(r) && !unicode.IsSpace(r) {
			bad++
		}
	}
	return s, bad*20 <= n
}

// binaryWords returns the words a base64 payload shows as written, one run per line: each
// run of three or more tokens between separators ('/', '+', '-', '_', '=') that are words
// (letters only or digits only, at most 24 characters), with spaces for the separators, and
// each other token that holds nine digits or more in a row. Random base64 shows such a run
// about once in 10 KB, a few short tokens; text hidden between separators shows whole.
func binaryWords(p string) string {
	var b strings.Builder
	newline := func() {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
	}
	line := func(tokens [][2]int) {
		newline()
		for i, t := range tokens {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(p[t[0]:t[1]])
		}
	}
	var chain [][2]int // the word tokens in a row
	flush := func() {
		if len(chain) >= 3 {
			line(chain)
		} else {
			for _, t := range chain {
				if longestDigitRun(p[t[0]:t[1]]) >= 9 {
					newline()
					b.WriteString(p[t[0]:t[1]])
				}
			}
		}
		chain = chain[:0]
	}
	for start := 0; start < len(p); {
		end, letters, digits := start, 0, 0
		for ; end < len(p) && isWordByte(p[end]); end++ {
			if isDigit(p[end]) {
				digits++
			} else {
				letters++
			}
		}
		switch tok := p[start:end]; {
		case tok == "": // separators side by side separate nothing
		case len(tok) <= 24 && (letters == 0 || digits == 0):
			chain = append(chain, [2]int{start, end})
		default:
			flush()
			if longestDigitRun(tok) >= 9 {
				newline()
				b.WriteString(tok)
			}
		}
		start = end + 1
	}
	flush()
	return b.String()
}

// longestDigitRun is the length of the longest run of ASCII digits in s.
func longestDigitRun(s string) int {
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if isDigit(s[i]) {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return longest
}
