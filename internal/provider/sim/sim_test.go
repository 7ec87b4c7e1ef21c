package sim

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/provider"
)

// TestCallEnds: a call that outlasts a time limit fails as a served model's does, with a
// timeout naming the limit, and one whose client left is a cancellation.
func TestCallEnds(t *testing.T) {
	t.Parallel()
	budget := func() (context.Context, context.CancelFunc) {
		return context.WithTimeoutCause(context.Background(), 20*time.Millisecond,
			&provider.DeadlineCause{Setting: "routing.request_budget", After: 20 * time.Millisecond})
	}
	canceled := func() (context.Context, context.CancelFunc) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		return ctx, cancel
	}
	background := func() (context.Context, context.CancelFunc) { return context.Background(), func() {} }
	for _, tt := range []struct {
		name    string
		timeout time.Duration
		ctx     func() (context.Context, context.CancelFunc)
		kind    provider.Kind
		msg     string
	}{
		{"the model's timeout", 20 * time.Millisecond, background, provider.KindTimeout, "no answer in time: timeout of 20ms passed"},
		{"the request budget", 0, budget, provider.KindTimeout, "no answer in time: routing.request_budget of 20ms passed"},
		{"the client left", 0, canceled, provider.KindCanceled, "the request was canceled"},
	} {
		m := New(Options{Model: "sim", FirstTokenLatency: 10 * time.Second, Timeout: tt.timeout})
		req := &openai.ChatRequest{Model: "sim", Messages: []openai.Message{{Role: "user", Content: openai.TextContent("hi")}}}
		check := func(t *testing.T, err error) {
			t.Helper()
			var pe *provider.Error
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is no *provider.Error", err)
			}
			if pe.Kind != tt.kind || pe.Message != tt.msg {
				t.Errorf("got %v %q, want %v %q", pe.Kind, pe.Message, tt.kind, tt.msg)
			}
		}
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := tt.ctx()
			defer cancel()
			_, err := m.ChatCompletion(ctx, req)
			check(t, err)
		})
		t.Run(tt.name+", streamed", func(t *testing.T) {
			t.Parallel()
			ctx, cancel := tt.ctx()
			defer cancel()
			s, err := m.ChatCompletionStream(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			_, err = s.Next()
			check(t, err)
		})
	}
}
