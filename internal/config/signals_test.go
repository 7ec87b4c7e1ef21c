package config

import (
	"strings"
	"testing"
)

// TestSignalRolesAndOnError checks the roles of signals, the embedder timeout and the
// decisions' on_error: their validation with exact messages, and their defaults.
func TestSignalRolesAndOnError(t *testing.T) {
	t.Parallel()
	_, err := Parse([]byte(`
models:
  - model_name: m
    provider: {type: sim}
signals:
  embedder: {type: builtin, request_timeout: -1s}
  pii:
    - {name: pii, roles: [user, toool]}
  keywords:
    - {name: kw, keywords: [a], roles: [last_user, robot]}
decisions:
  - {name: p, applies_to: all, on_error: ignore, rules: {signal: pii}, block: {message: x}}
  - {name: k, rules: {signal: kw}, models: [{model: m}]}
`))
	want := strings.Join([]string{
		`signals.embedder.request_timeout (line 6): must not be negative`,
		`signals.pii[0].roles[1] (line 8): unknown role "toool"; did you mean "tool"?`,
		`signals.keywords[0].roles[1] (line 10): unknown role "robot" (one of system, user, assistant, tool, last_user)`,
		`decisions[0].on_error (line 12): must be refuse or allow, got "ignore"`,
	}, "\n")
	if err == nil || err.Error() != want {
		t.Errorf("err =\n%v\nwant\n%s", err, want)
	}

	cfg, err := Parse([]byte(`
models:
  - model_name: m
    provider: {type: sim}
signals:
  pii:
    - {name: pii}
decisions:
  - {name: policy, applies_to: all, rules: {signal: pii}, block: {message: x}}
  - {name: lenient_policy, applies_to: all, on_error: allow, rules: {signal: pii}, block: {message: x}}
  - {name: route, rules: {signal: pii}, models: [{model: m}]}
`))
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{OnErrorRefuse, OnErrorAllow, OnErrorAllow} {
		if got := cfg.Decisions[i].OnError; got != want {
			t.Errorf("decisions[%d].on_error = %q, want %q", i, got, want)
		}
	}
}
