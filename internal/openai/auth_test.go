package openai

import (
	"strings"
	"testing"
)

func TestBearerToken(t *testing.T) {
	t.Parallel()
	tests := []struct{ header, want string }{
		{"Bearer sk-abc", "sk-abc"},
		{"bearer sk-abc", "sk-abc"},
		{"BEARER   sk-abc  ", "sk-abc"},
		{"Bearer", ""},
		{"Bearer ", ""},
		{"Basic dXNlcjpwYXNz", ""},
		{"Bearer sk-abc extra", ""},
		{"Bearer sk-\x00abc", ""},
		{"Bearer sk-ä", ""},
		{"sk-abc", ""},
		{"", ""},
		{"Bearer " + strings.Repeat("a", 4097), ""},
	}
	for _, tt := range tests {
		if got := BearerToken(tt.header); got != tt.want {
			t.Errorf("BearerToken(%q) = %q, want %q", tt.header, got, tt.want)
		}
	}
}

// FuzzBearerToken checks that no header panics the parser, that a token it returns is one
// run of visible ASCII within the header, and that a well-formed header gives its token back.
func FuzzBearerToken(f *testing.F) {
	for _, s := range []string{"Bearer sk-abc", "bearer  x", "Basic abc", "Bearer", "Bearer \t x", "Bearer a b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, header string) {
		tok := BearerToken(header)
		if tok == "" {
			return
		}
		if !strings.Contains(header, tok) || len(tok) > 4096 {
			t.Fatalf("token %q is not part of header %q", tok, header)
		}
		for i := range len(tok) {
			if c := tok[i]; c < 0x21 || c > 0x7e {
				t.Fatalf("token %q has byte %#x", tok, c)
			}
		}
		if got := BearerToken("Bearer " + tok); got != tok {
			t.Fatalf("round trip of %q gave %q", tok, got)
		}
	})
}
