package config

import (
	"encoding/json"
	"strings"
	"testing"
)

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
