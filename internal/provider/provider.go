// Package provider defines what the router needs from a model backend, and the errors a
// backend reports. Each backend type lives in a package beneath this one; none imports
// another, and none imports the config package.
package provider

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/semantic-router/semantic-router/internal/openai"
)

// Provider calls one model on one backend. Implementations are safe for concurrent use.
//
// The request's Model field is the name the client used; the provider replaces it with its
// upstream model id. Providers must not modify the request they are given.
type Provider interface {
	// ChatCompletion returns a complete, non-streamed answer.
	ChatCompletion(ctx context.Context, req *openai.ChatRequest) (*Response, error)
	// ChatCompletionStream starts a streamed answer. An error before the first chunk is
	// returned here, so the caller can still fall back to another model.
	ChatCompletionStream(ctx context.Context, req *openai.ChatRequest) (Stream, error)
}

// Response is a non-streamed answer.
type Response struct {
	// Body is an OpenAI chat.completion JSON object, passed to the client as is.
	Body []byte
	// Usage is the token count, when the backend reported one.
	Usage *openai.Usage
}

// Stream yields the chunks of a streamed answer.
type Stream interface {
	// Next returns the next event's data: an OpenAI chat.completion.chunk JSON object on one
	// line (no raw \n or \r), which the router writes after a single "data: ". The slice is
	// valid until the next call. At the normal end of the stream it returns io.EOF;
	// any other error means the stream was cut and is a *Error.
	Next() ([]byte, error)
	// Close releases the stream; it is safe to call more than once and after io.EOF.
	Close() error
}

// DefaultMaxResponseBytes bounds a non-streamed answer when a provider is given no limit:
// 32 MiB holds the longest completions of today's models (a million tokens of text is
// about 4 MiB) many times over, and keeps a misbehaving backend from exhausting memory.
const DefaultMaxResponseBytes = 32 << 20

// WithTimeout bounds ctx by d when d is positive, and otherwise only makes it cancelable: the
// per-call timeout every provider applies, zero meaning no limit. When d passes, the
// context's cause is a *DeadlineCause naming the model's "timeout" setting.
func WithTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d > 0 {
		return context.WithTimeoutCause(ctx, d, &DeadlineCause{Setting: "timeout", After: d})
	}
	return context.WithCancel(ctx)
}

// RetryAfter reads a Retry-After header value, seconds or an HTTP date, and returns def when
// it is absent or unreadable. Cloud APIs often send none on throttling; def then gives clients
// a first step to back off by.
func RetryAfter(v string, def time.Duration) time.Duration {
	if v == "" {
		return def
	}
	if secs, err := strconv.Atoi(v); err == nil && secs >= 0 {
		return time.Duration(secs) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(0, time.Until(t))
	}
	return def
}
