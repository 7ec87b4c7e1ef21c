package extproc

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestResolverDestination(t *testing.T) {
	t.Parallel()
	now := time.Unix(1000, 0)
	lookups := 0
	answer := "10.1.2.3"
	r := &resolver{now: func() time.Time { return now }, cache: map[string]resolved{}, lookup: func(_ context.Context, host string) ([]string, error) {
		lookups++
		if host == "missing.svc" {
			return nil, errors.New("no such host")
		}
		if host == "empty.svc" {
			return nil, nil
		}
		return []string{answer, "10.9.9.9"}, nil
	}}
	ctx := context.Background()
	tests := []struct {
		in, want, err string
		lookups       int
	}{
		{"10.0.0.1:8000", "10.0.0.1:8000", "", 0},
		{"[::1]:8000", "[::1]:8000", "", 0},
		{"vllm.svc:8000", "10.1.2.3:8000", "", 1},
		{"vllm.svc:9000", "10.1.2.3:9000", "", 1}, // cached
		{"missing.svc:80", "", `resolving "missing.svc": no such host`, 2},
		{"empty.svc:80", "", `resolving "empty.svc": no addresses`, 3},
		{"no-port", "", `destination "no-port": address no-port: missing port in address`, 3},
	}
	for _, tt := range tests {
		got, err := r.destination(ctx, tt.in)
		if got != tt.want || (err == nil) != (tt.err == "") || (err != nil && err.Error() != tt.err) || lookups != tt.lookups {
			t.Errorf("destination(%q) = %q, %v after %d lookups; want %q, %q after %d", tt.in, got, err, lookups, tt.want, tt.err, tt.lookups)
		}
	}
	// After the TTL the name is looked up again, and a changed answer is used.
	now = now.Add(resolveTTL)
	answer = "10.4.5.6"
	if got, err := r.destination(ctx, "vllm.svc:8000"); err != nil || got != "10.4.5.6:8000" || lookups != 4 {
		t.Errorf("after the TTL: %q, %v after %d lookups", got, err, lookups)
	}
}
