package router

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/semantic-router/semantic-router/internal/signal"
)

// TestMaskInline: a JSON string is masked as the policies read it (signal.ParseInline).
func TestMaskInline(t *testing.T) {
	t.Parallel()
	det, err := signal.NewPIIDetector(signal.PIIOptions{})
	if err != nil {
		t.Fatal(err)
	}
	zeros := strings.Repeat("A", 1024)
	b64 := base64.StdEncoding.EncodeToString
	tests := []struct{ name, in, want string }{
		{"plain text", "mail jane@example.com", "mail [EMAIL]"},
		{"binary data left alone", "data:image/png;base64,iVBORw0KGgo=", "data:image/png;base64,iVBORw0KGgo="},
		{"zeros left alone", zeros, zeros},
		{"text data URL masked and encoded again", "data:text/plain;base64," + b64([]byte("ssn 123-45-6789")), "data:text/plain;base64," + b64([]byte("ssn [SSN]"))},
		{"URL alphabet kept", "data:;base64," + base64.RawURLEncoding.EncodeToString([]byte("ssn 123-45-6789 ??>")),
			"data:;base64," + base64.RawURLEncoding.EncodeToString([]byte("ssn [SSN] ??>"))},
		{"a data URL head on text", "data:;base64,My SSN is 123-45-6789", "data:;base64,My SSN is [SSN]"},
		{"a card after a base64 run", zeros + "/card/4111/1111/1111/1111/", zeros + "/card/[CREDIT_CARD]/"},
		{"a card after a base64 run that decodes", zeros + "/card/4111/1111/1111/1111/AA", zeros + "/card/[CREDIT_CARD]/AA"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := maskInline(det, tt.in); got != tt.want {
				t.Errorf("maskInline(%.60q) = %.120q, want %.120q", tt.in, got, tt.want)
			}
		})
	}
}
