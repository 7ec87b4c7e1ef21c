package testtool

import (
	"errors"
	"fmt"
	"testing"
)

// recorder is a testing.TB that records how a test would have ended.
type recorder struct {
	testing.TB
	skipped, failed string
}

func (r *recorder) Helper()           {}
func (r *recorder) Skip(args ...any)  { r.skipped = fmt.Sprint(args...) }
func (r *recorder) Fatal(args ...any) { r.failed = fmt.Sprint(args...) }

func TestRequire(t *testing.T) {
	missing := errors.New(`exec: "nothere": executable file not found in $PATH`)
	tests := []struct {
		name, ci     string
		err          error
		skip, failed string
	}{
		{"present", "true", nil, "", ""},
		{"missing on a developer's machine", "", missing, `nothere is not on PATH (install it: apt-get install nothere): exec: "nothere": executable file not found in $PATH (under CI=true this fails)`, ""},
		{"missing under CI", "true", missing, "", `nothere is not on PATH (install it: apt-get install nothere): exec: "nothere": executable file not found in $PATH`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("CI", tt.ci)
			r := &recorder{TB: t}
			Require(r, "nothere is not on PATH (install it: apt-get install nothere)", tt.err)
			if r.skipped != tt.skip || r.failed != tt.failed {
				t.Errorf("skipped %q, failed %q; want %q, %q", r.skipped, r.failed, tt.skip, tt.failed)
			}
		})
	}
}

func TestPath(t *testing.T) {
	t.Setenv("CI", "true")
	if p := Path(t, "go", "https://go.dev/dl"); p == "" {
		t.Error("Path(go) is empty while go runs this test")
	}
	r := &recorder{TB: t}
	Path(r, "semantic-router-no-such-program", "nowhere")
	if want := `semantic-router-no-such-program is not on PATH (install it: nowhere): exec: "semantic-router-no-such-program": executable file not found in $PATH`; r.failed != want {
		t.Errorf("failed %q, want %q", r.failed, want)
	}
}
