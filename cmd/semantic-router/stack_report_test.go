package main

import (
	"os"
	"strings"
	"testing"
)

// TestOverflowingGoroutine reads the goroutine that overflowed out of a runtime report: the
// first goroutine after the runtime's own stack, not the ones after it.
func TestOverflowingGoroutine(t *testing.T) {
	t.Parallel()
	report, err := os.ReadFile("testdata/stack-overflow.txt")
	if err != nil {
		t.Fatal(err)
	}
	got := overflowingGoroutine(string(report))
	if !strings.HasPrefix(got, "goroutine 304 ") || !strings.Contains(got, "created by github.com/semantic-router/semantic-router/internal/router.(*routingWorkers).do") ||
		strings.Contains(got, "goroutine 1 ") {
		t.Errorf("overflowing goroutine:\n%s", got)
	}
}
