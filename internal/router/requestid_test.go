package router

import (
	"bytes"
	"context"
	"log/slog"
	"regexp"
	"strings"
	"testing"
)

var generatedID = regexp.MustCompile(`^[0-9a-f]{24}$`)

// TestNewRequestID: a client's id that is short and printable is kept; any other is
// replaced by 24 random hex digits.
func TestNewRequestID(t *testing.T) {
	t.Parallel()
	for _, id := range []string{"abc-123", "x", strings.Repeat("a", 128), "req_01HZX!~", "{}[]<>"} {
		if got := NewRequestID(id); got != id {
			t.Errorf("NewRequestID(%q) = %q, want it kept", id, got)
		}
	}
	for _, id := range []string{"", strings.Repeat("a", 129), "two words", "tab\there", "line\nbreak", "del\x7f", "café", "nul\x00"} {
		got := NewRequestID(id)
		if !generatedID.MatchString(got) {
			t.Errorf("NewRequestID(%q) = %q, want 24 hex digits", id, got)
		}
	}
	if a, b := NewRequestID(""), NewRequestID(""); a == b {
		t.Errorf("two generated ids are equal: %s", a)
	}
}

func TestRequestIDInContext(t *testing.T) {
	t.Parallel()
	if got := RequestID(context.Background()); got != "" {
		t.Errorf("RequestID of a bare context = %q", got)
	}
	if got := RequestID(WithRequestID(context.Background(), "r-1")); got != "r-1" {
		t.Errorf("RequestID = %q, want r-1", got)
	}
}

// TestLogFor: the default logger with the request's attributes when the context has them
// (the id, the trace, and once routed the model and the decision); else with the request id
// when the context has one; else the default itself.
func TestLogFor(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	def := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{ReplaceAttr: dropTime}))
	if logFor(context.Background(), def) != def {
		t.Error("a bare context did not get the default logger")
	}
	tests := []struct {
		ctx  context.Context
		want string
	}{
		{WithRequestID(context.Background(), "r-2"), "level=INFO msg=hello request_id=r-2\n"},
		{withRequestLog(context.Background(), &requestLog{id: "r-3", traceID: "t-3"}), "level=INFO msg=hello request_id=r-3 trace_id=t-3\n"},
		{withRequestLog(context.Background(), &requestLog{id: "r-4", model: "m", decision: "d"}), "level=INFO msg=hello request_id=r-4 model=m decision=d\n"},
	}
	for _, tt := range tests {
		buf.Reset()
		logFor(tt.ctx, def).Info("hello")
		if got := buf.String(); got != tt.want {
			t.Errorf("logged %q, want %q", got, tt.want)
		}
	}
}

func dropTime(_ []string, a slog.Attr) slog.Attr {
	if a.Key == slog.TimeKey {
		return slog.Attr{}
	}
	return a
}
