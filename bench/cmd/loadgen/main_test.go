package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
)

// TestVaryNumbersEachBody: with -vary, each request's body has its own number at the mark,
// warm-up requests included; without it, every body is the file's.
func TestVaryNumbersEachBody(t *testing.T) {
	var mu sync.Mutex
	var bodies []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, string(b))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id":"x","object":"chat.completion","choices":[]}`)
	}))
	defer srv.Close()
	file := filepath.Join(t.TempDir(), "body.json")
	if err := os.WriteFile(file, []byte(`{"messages":[{"role":"user","content":"turn {{n}}, not {{n}}"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{"-vary"}, []string{
			`{"messages":[{"role":"user","content":"turn 1, not {{n}}"}]}`,
			`{"messages":[{"role":"user","content":"turn 2, not {{n}}"}]}`,
			`{"messages":[{"role":"user","content":"turn 3, not {{n}}"}]}`,
		}},
		{nil, slices.Repeat([]string{`{"messages":[{"role":"user","content":"turn {{n}}, not {{n}}"}]}`}, 3)},
	} {
		bodies = nil
		args := append([]string{"-mode", "latency", "-url", srv.URL, "-body", file, "-n", "2", "-warmup", "1"}, tt.args...)
		if err := run(context.Background(), args); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(bodies, tt.want) {
			t.Errorf("%v: bodies %q, want %q", tt.args, bodies, tt.want)
		}
	}
}
