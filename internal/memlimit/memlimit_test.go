package memlimit

import (
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

func TestLimit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		files map[string]string
		limit int64
		ok    bool
		err   string
	}{
		{"cgroup v2 limit", map[string]string{"memory.max": "536870912\n"}, 536870912, true, ""},
		{"cgroup v2 without limit", map[string]string{"memory.max": "max\n"}, 0, false, ""},
		{"cgroup v1 limit", map[string]string{"memory/memory.limit_in_bytes": "1073741824\n"}, 1073741824, true, ""},
		{"cgroup v1 without limit", map[string]string{"memory/memory.limit_in_bytes": "9223372036854771712\n"}, 0, false, ""},
		{"no cgroup", nil, 0, false, ""},
		{"garbage", map[string]string{"memory.max": "lots\n"}, 0, false, `reading the cgroup memory limit: memory.max holds "lots"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			for name, content := range tt.files {
				p := filepath.Join(root, name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			limit, ok, err := Limit(root)
			if gotErr := errString(err); limit != tt.limit || ok != tt.ok || gotErr != tt.err {
				t.Errorf("Limit = %d, %t, %q; want %d, %t, %q", limit, ok, gotErr, tt.limit, tt.ok, tt.err)
			}
		})
	}
}

// TestApply sets the runtime's limit (so it does not run in parallel) and restores it.
func TestApply(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(before) })
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "memory.max"), []byte("1000000000\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	noEnv := func(string) (string, bool) { return "", false }

	got, err := Apply(root, noEnv)
	if err != nil || got != 900000000 || debug.SetMemoryLimit(-1) != 900000000 {
		t.Fatalf("Apply = %d, %v; runtime limit %d; want 900000000", got, err, debug.SetMemoryLimit(-1))
	}

	debug.SetMemoryLimit(math.MaxInt64)
	withEnv := func(k string) (string, bool) { return "512MiB", k == "GOMEMLIMIT" }
	if got, err := Apply(root, withEnv); err != nil || got != 0 || debug.SetMemoryLimit(-1) != math.MaxInt64 {
		t.Errorf("with GOMEMLIMIT set: Apply = %d, %v; runtime limit %d; want it untouched", got, err, debug.SetMemoryLimit(-1))
	}
	if got, err := Apply(t.TempDir(), noEnv); err != nil || got != 0 || debug.SetMemoryLimit(-1) != math.MaxInt64 {
		t.Errorf("without a cgroup limit: Apply = %d, %v; runtime limit %d; want it untouched", got, err, debug.SetMemoryLimit(-1))
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
