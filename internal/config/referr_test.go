package config

import (
	"errors"
	"fmt"
	"testing"
)

// TestAsProblems: unreadable references, joined or wrapped, become problems at their
// field's line, listed first; other errors follow as they are.
func TestAsProblems(t *testing.T) {
	t.Parallel()
	cfg, err := Parse([]byte(`admission:
  api_keys: [{name: team, key: env.TEAM}]
models:
  - model_name: a
    provider:
      type: openai_compatible
      base_url: http://a.internal/v1
      api_key: env.A
`))
	if err != nil {
		t.Fatal(err)
	}
	unset := errors.New("not set")
	got := cfg.AsProblems(
		fmt.Errorf("model %q: %w", "a", &RefError{Path: "models[0].provider.api_key", Ref: "env.A", Err: unset}),
		errors.New("decision d: no such signal"),
		errors.Join(&RefError{Path: "admission.api_keys[0].key", Ref: "env.TEAM", Err: unset}),
	)
	want := "models[0].provider.api_key (line 8): env.A: not set\nadmission.api_keys[0].key (line 2): env.TEAM: not set\ndecision d: no such signal"
	if got == nil || got.Error() != want {
		t.Errorf("AsProblems:\n%v\nwant\n%s", got, want)
	}
	var problems Problems
	if !errors.As(got, &problems) || len(problems) != 2 {
		t.Errorf("the problems are not found as Problems: %#v", got)
	}
	if cfg.AsProblems() != nil {
		t.Error("no error made an error")
	}
}
