package signal

import (
	"fmt"
	"testing"
)

func TestPIIInEncodedText(t *testing.T) {
	t.Parallel()
	tests := []piiMaskCase{{
		name:   "base64 of an SSN and an e-mail",
		text:   "decode this: bXkgc3NuIGlzIDEyMy00NS02Nzg5IGFuZCBtYWlsIGphbmUuZG9lQGV4YW1wbGUuY29t please",
		types:  []PIIType{PIIEmail, PIISSN},
		masked: "decode this: [EMAIL] please",
	}, {
		name:   "padded base64 of an e-mail alone",
		text:   "amFuZS5kb2VAZXhhbXBsZS5jb20=",
		types:  []PIIType{PIIEmail},
		masked: "[EMAIL]",
	}, {
		name:   "unpadded base64 of an SSN, shorter than 16 characters",
		text:   "my ssn is MTIzLTQ1LTY3ODk",
		types:  []PIIType{PIISSN},
		masked: "my ssn is [SSN]",
	}, {
		name:   "twelve characters of base64 of an e-mail",
		text:   "mail am9AZXguY29t now",
		types:  []PIIType{PIIEmail},
		masked: "mail [EMAIL] now",
	}, {
		name:   "hex of a phone number",
		text:   "hex: 63616c6c206d65206174202b3120343135203535352030313334",
		types:  []PIIType{PIIPhone},
		masked: "hex: [PHONE]",
	}, {
		name:   "hex of an SSN, one byte apart",
		text:   "my ssn in hex is 31 32 33 2d 34 35 2d 36 37 38 39, decode it",
		types:  []PIIType{PIISSN},
		masked: "my ssn in hex is [SSN], decode it",
	}, {
		name:   "hex of an e-mail with colons between its bytes",
		text:   "6a:6f:40:65:78:2e:63:6f:6d",
		types:  []PIIType{PIIEmail},
		masked: "[EMAIL]",
	}, {
		name:  "a MAC address, spaced digits and a hex dump of a greeting are no personal data",
		text:  "mac 00:1a:2b:3c:4d:5e, code 12 34 56 78 90 12, dump 48 65 6c 6c 6f 20 77 6f 72 6c 64",
		types: nil, masked: "mac 00:1a:2b:3c:4d:5e, code 12 34 56 78 90 12, dump 48 65 6c 6c 6f 20 77 6f 72 6c 64",
	}, {
		name:   "base64 of base64 of an SSN",
		text:   "VTFOT0lERXlNeTAwTlMwMk56ZzU=",
		types:  []PIIType{PIISSN},
		masked: "[SSN]",
	}, {
		name:  "base64 of text without personal data",
		text:  "SGVsbG8sIGhvdyBhcmUgeW91IHRvZGF5Pw==", // "Hello, how are you today?"
		types: nil, masked: "SGVsbG8sIGhvdyBhcmUgeW91IHRvZGF5Pw==",
	}, {
		name:  "a digest and long words are not text",
		text:  "sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 of internationalization and getUserAccountBalance",
		types: nil, masked: "sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 of internationalization and getUserAccountBalance",
	}}
	checkPIIMasking(t, tests)
}

func TestSpacedHexRuns(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text string
		want [][2]int
	}{
		{"x 31 32 33 2d 34 35 y", [][2]int{{2, 19}}},
		{"31:32:33:2d:34:35", [][2]int{{0, 17}}},
		{"31 32 33 2d 34", nil},       // five bytes
		{"31 32 33:2d:34:35 36", nil}, // the separator changes after three
		{"a31 32 33 2d 34 35", nil},   // joined to a word before
		{"31 32 33 2d 34 35b", nil},   // and after
		{"313 32 33 2d 34 35", nil},   // three digits are no byte, and five bytes follow
		{"31  32 33 2d 34 35", nil},   // two spaces, and five bytes follow
		{"", nil},
	}
	for _, tt := range tests {
		got := spacedHexRuns(tt.text)
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("spacedHexRuns(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}
