package config

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSecretRefResolve(t *testing.T) {
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "key")
	if err := os.WriteFile(keyFile, []byte("from-file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"OPENAI_KEY": "from-env"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }

	tests := []struct {
		ref      SecretRef
		want     string
		wantErr  string
		notFound bool
	}{
		{ref: "env.OPENAI_KEY", want: "from-env"},
		{ref: "env.openai_key", wantErr: "environment variable openai_key is not set (names are case-sensitive and must match the Secret key exactly): secret not found", notFound: true},
		{ref: SecretRef("file:" + keyFile), want: "from-file"},
		{ref: SecretRef("file:" + filepath.Join(dir, "missing")), wantErr: "file " + filepath.Join(dir, "missing") + " does not exist: secret not found", notFound: true},
		{ref: "sk-inline-secret", wantErr: `must be a reference "env.VAR" or "file:/path"; inline credentials are not accepted`},
	}
	for _, tt := range tests {
		t.Run(string(tt.ref), func(t *testing.T) {
			got, err := tt.ref.Resolve(lookup)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				if errors.Is(err, ErrSecretNotFound) != tt.notFound {
					t.Errorf("errors.Is(err, ErrSecretNotFound) = %v", !tt.notFound)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("Resolve = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestSecretRefNeverPrintsAnInlineValue(t *testing.T) {
	inline := SecretRef("sk-live-abcdef123456")
	b, _ := json.Marshal(struct{ K SecretRef }{inline})
	if strings.Contains(string(b), "abcdef") || inline.String() != "[REDACTED]" {
		t.Errorf("inline value shown: %s / %s", b, inline.String())
	}
	if SecretRef("env.KEY").String() != "env.KEY" {
		t.Error("a valid reference should be shown as is")
	}
}
