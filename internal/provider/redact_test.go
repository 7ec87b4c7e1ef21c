package provider

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestUpstreamText(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", 200) // 400 bytes
	tests := []struct {
		name, in string
		secrets  []string
		want     string
	}{
		{"redacts every secret", "got Bearer sk-abcdef and token tok-123456", []string{"sk-abcdef", "tok-123456"}, "got Bearer [redacted] and token [redacted]"},
		{"short values are no secret", "a b c", []string{"a", ""}, "a b c"},
		{"first line only", "first\nsecond sk-abcdef", []string{"sk-abcdef"}, "first"},
		{"cut at a character boundary", long, nil, strings.Repeat("é", 150) + "…"},
		{"redacted before the cut", strings.Repeat("x", 295) + "sk-abcdef", []string{"sk-abcdef"}, strings.Repeat("x", 295) + "[reda…"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := UpstreamText(tt.in, tt.secrets...); got != tt.want {
				t.Fatalf("UpstreamText = %q\nwant           %q", got, tt.want)
			}
		})
	}
}

func TestRedactError(t *testing.T) {
	t.Parallel()
	err := RedactError(&Error{Model: "m", Message: "echo sk-abcdef"}, "sk-abcdef")
	if got := err.Error(); got != `model "m": echo [redacted]` {
		t.Fatalf("error = %q", got)
	}
	if RedactError(nil, "sk-abcdef") != nil {
		t.Fatal("RedactError(nil) is not nil")
	}
}

func FuzzUpstreamText(f *testing.F) {
	f.Add("Bearer sk-live-0123456789", "sk-live-0123456789")
	f.Add(strings.Repeat("ü", 400), "üüüüüü")
	f.Fuzz(func(t *testing.T, text, secret string) {
		got := UpstreamText(text, secret)
		if len(secret) >= minSecretLen && strings.Contains(got, secret) && !strings.Contains(Redacted, secret) {
			t.Fatalf("UpstreamText(%q, %q) = %q holds the secret", text, secret, got)
		}
		if len(got) > MaxUpstreamText+len("…") {
			t.Fatalf("UpstreamText returned %d bytes", len(got))
		}
		if utf8.ValidString(text) && utf8.ValidString(secret) && !utf8.ValidString(got) {
			t.Fatalf("UpstreamText(%q) = %q is not valid UTF-8", text, got)
		}
	})
}
