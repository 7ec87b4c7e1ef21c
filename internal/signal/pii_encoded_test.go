package signal

import "testing"

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
