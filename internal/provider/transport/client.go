package transport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/semantic-router/semantic-router/internal/provider"
)

// NewClient returns an HTTP client over rt that never follows a redirect: a backend that
// answers 307 would have the prompt (and the credential) posted wherever it points, and a
// 302 would turn the call into a GET whose answer passes for the completion. The 3xx
// response itself is returned; Redirect explains it.
func NewClient(rt http.RoundTripper) *http.Client {
	return &http.Client{Transport: rt, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}
}

// IsRedirect reports whether status is a redirect, which providers refuse.
func IsRedirect(status int) bool { return status >= 300 && status < 400 }

// Redirect explains a 3xx answer. The message names the status and that it was not
// followed, and keeps the Location out (it may name an internal host); the cause holds it,
// for the logs.
func Redirect(model, baseURL string, resp *http.Response) *provider.Error {
	return &provider.Error{Kind: provider.KindProtocol, Model: model, Status: resp.StatusCode,
		Err: fmt.Errorf("%w: %d to %q", provider.ErrRedirect, resp.StatusCode, resp.Header.Get("Location")),
		Message: fmt.Sprintf("%s answered %d %s, a redirect, which the router does not follow: point base_url at the server itself",
			baseURL, resp.StatusCode, http.StatusText(resp.StatusCode))}
}

// maxPresized is the largest announced length ReadAll makes room for before reading.
const maxPresized = 16 << 10

// ReadAll reads r to its end, or to limit+1 bytes, whichever comes first, as io.ReadAll of
// an io.LimitReader would. size is the length the sender announced (Content-Length), or
// zero or less when it announced none. The buffer starts with room for the announced body,
// up to 16 KiB, so that a short body is read in place, without the copies of a growing
// buffer. Past that it grows as the bytes arrive: an announcement alone, which costs a
// client a header, does not get a large buffer. Towards an announced size it doubles, and
// stops at that size: a body of hundreds of kilobytes (an agent's conversation) is copied
// about once while it is read, not four times, and into a buffer of its own length.
func ReadAll(r io.Reader, size, limit int64) ([]byte, error) {
	start := int64(512) // as io.ReadAll
	if size > 0 && size <= limit {
		start = min(size+1, maxPresized) // the read that finds the end needs room too
	}
	b := make([]byte, 0, start)
	lr := io.LimitedReader{R: r, N: limit + 1}
	for {
		n, err := lr.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF { //nolint:errorlint // a Reader returns io.EOF itself, as io.ReadAll relies on
			return b, nil
		}
		if err != nil {
			return b, err
		}
		if len(b) == cap(b) {
			b = grow(b, size, limit)
		}
	}
}

// grow returns b with room for more: twice its capacity but no more than an announced size
// still ahead needs (and the read that finds the end), or, past it or with none, as append
// grows it.
func grow(b []byte, size, limit int64) []byte {
	if size > int64(len(b)) && size <= limit {
		room := min(2*int64(cap(b)), size+1)
		return append(make([]byte, 0, room), b...)
	}
	return append(b, 0)[:len(b)]
}

// ReadBody reads a whole non-streamed answer of at most limit bytes (limit <= 0 takes
// provider.DefaultMaxResponseBytes). A longer body is refused as soon as the limit is
// passed, not read whole: the error wraps provider.ErrResponseTooLarge, and the caller's
// closing of the body drops the connection. size is the answer's Content-Length (-1 when
// it has none), which sizes the buffer.
func ReadBody(ctx context.Context, model, baseURL string, body io.Reader, size, limit int64) ([]byte, error) {
	if limit <= 0 {
		limit = provider.DefaultMaxResponseBytes
	}
	raw, err := ReadAll(body, size, limit)
	if err != nil {
		if (ctx == nil || ctx.Err() == nil) && !isTimeout(err) {
			// The status came, so the connection was made: the server went away mid-answer.
			return nil, &provider.Error{Kind: provider.KindProtocol, Model: model, Err: fmt.Errorf("%w: %w", provider.ErrCutShort, err),
				Message: fmt.Sprintf("the answer of %s was cut short after %d bytes (%v): the server closed the connection before the end of its answer; check its logs for a crash or restart, or a proxy's timeout",
					baseURL, len(raw), err)}
		}
		return nil, ExplainContext(ctx, model, baseURL, err)
	}
	if int64(len(raw)) > limit {
		return nil, TooLarge(model, baseURL, limit)
	}
	return raw, nil
}

// StreamCut explains a stream whose body could not be read on after events events. As in
// ReadBody, the status came, so the connection was made: one that ends mid-stream (a crash,
// a restart, a proxy's timeout) is provider.ErrCutShort, neither a server that could not be
// reached nor a malformed stream. A read that ended because ctx did, or timed out, is
// explained as ExplainContext does.
func StreamCut(ctx context.Context, model, baseURL string, events int, err error) error {
	if (ctx == nil || ctx.Err() == nil) && !isTimeout(err) {
		return &provider.Error{Kind: provider.KindProtocol, Model: model, Err: fmt.Errorf("%w: %w", provider.ErrCutShort, err),
			Message: fmt.Sprintf("the stream of %s was cut short after %d event%s (%v): the server closed the connection before the end of its answer; check its logs for a crash or restart, or a proxy's timeout",
				baseURL, events, plural(events), err)}
	}
	return ExplainContext(ctx, model, baseURL, err)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// TooLarge is the error of an answer longer than limit bytes.
func TooLarge(model, baseURL string, limit int64) *provider.Error {
	return &provider.Error{Kind: provider.KindProtocol, Model: model,
		Err:     &provider.LimitError{Setting: "max_response_body_bytes", Limit: limit},
		Message: fmt.Sprintf("the answer of %s is larger than max_response_body_bytes (%d bytes) and was refused", baseURL, limit)}
}

// ExplainContext is Explain for a call made with ctx. A call that ended because ctx did
// tells apart why: a *provider.DeadlineCause (a time limit the caller imposed, such as
// first_token_timeout) or ctx's own deadline gives KindTimeout naming the limit; any other
// cancellation (the client went away) gives KindCanceled.
func ExplainContext(ctx context.Context, model, baseURL string, err error) *provider.Error {
	if ctx == nil || ctx.Err() == nil {
		return Explain(model, baseURL, err)
	}
	cause := context.Cause(ctx)
	var dc *provider.DeadlineCause
	switch {
	case errors.As(cause, &dc):
		return &provider.Error{Kind: provider.KindTimeout, Model: model, Err: WithCause(cause, err),
			Message: fmt.Sprintf("no answer from %s in time: %s of %s passed", baseURL, dc.Setting, dc.After)}
	case errors.Is(cause, context.DeadlineExceeded):
		return Explain(model, baseURL, cause)
	}
	return &provider.Error{Kind: provider.KindCanceled, Model: model, Err: WithCause(cause, err),
		Message: "the request was canceled"}
}

// WithCause returns err with cause, the reason its context ended, before it; or err alone
// when it carries cause already, as net/http's errors do, so that a log line does not say
// the cause twice ("no answer within 3s (timeout): no answer within 3s (timeout)").
func WithCause(cause, err error) error {
	if errors.Is(err, cause) {
		return err
	}
	return fmt.Errorf("%w: %w", cause, err)
}
