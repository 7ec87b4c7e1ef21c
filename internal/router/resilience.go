package router

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/semantic-router/semantic-router/internal/provider"
)

// withFallbacks calls call on the chosen model and then, while the failure is one another
// model may cure, on each of its fallbacks in order. Each model gets its own retries. The
// whole is bounded by ctx, which carries routing.request_budget. It returns the model that
// answered, or the last one tried and its error.
func (r *Router) withFallbacks(ctx context.Context, chosen *model, call func(context.Context, *model) error) (*model, error) {
	m := chosen
	for i := 0; ; i++ {
		err := r.withRetries(ctx, m, call)
		if err == nil || !fallbackWorthy(err) || ctx.Err() != nil || i >= len(chosen.cfg.Fallbacks) {
			return m, err
		}
		next := r.models[chosen.cfg.Fallbacks[i]]
		r.fallingBack(ctx, m, next, err)
		m = next
	}
}

// fallingBack logs and counts the move from m, which failed with err, to its fallback next.
// It is a function of its own so that withFallbacks, under every call to a model on the
// connection's goroutine, keeps a small frame.
func (r *Router) fallingBack(ctx context.Context, m, next *model, err error) {
	logFor(ctx, r.log).Warn("falling back", LogKeyServing, m.cfg.Name, "fallback", next.cfg.Name, LogKeyError, err.Error())
	if r.metrics != nil {
		r.metrics.Fallbacks.WithLabelValues(m.cfg.Name, next.cfg.Name, reason(err)).Inc()
	}
}

// withRetries calls call up to the model's retry.max_attempts times while the failure is one
// a repeat may cure, waiting an exponential back-off with full jitter, or the backend's
// Retry-After (of a 429 or a 503) when it is longer. It gives up early when the wait would
// outlast ctx, or when Retry-After is longer than retry.max_retry_after: a fallback may
// answer now, and a client told to come back later may rather decide for itself.
func (r *Router) withRetries(ctx context.Context, m *model, call func(context.Context, *model) error) error {
	// The attempt's frame stays small, the span and the retry's decision each in a function
	// of their own: call runs on the client connection's goroutine, whose stack, once grown,
	// is held for as long as the connection lives.
	for attempt := 1; ; attempt++ {
		r.inFlight(m.cfg.Name, 1)
		start := time.Now()
		note := &retryAfterNote{}
		actx, span := r.startUpstreamSpan(ctx, m, attempt, note)
		err := call(actx, m)
		r.inFlight(m.cfg.Name, -1)
		if err != nil {
			markFailed(span, err)
		}
		if !note.spanTaken {
			span.End()
		}
		if err == nil {
			return nil
		}
		if errors.Is(err, provider.ErrRefused) {
			return err // nothing was sent: no upstream call to count, nothing to retry
		}
		r.observeUpstream(m.cfg.Name, start, err)
		wait, again := r.retryWait(ctx, m, attempt, note, err)
		if !again {
			return err
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return err
		case <-t.C:
		}
	}
}

// noSpan is a span that records nothing, for the attempts of a router without tracing.
var noSpan = trace.SpanFromContext(context.Background())

// startUpstreamSpan starts the span of one attempt to call m, and returns the attempt's
// context, which carries note.
func (r *Router) startUpstreamSpan(ctx context.Context, m *model, attempt int, note *retryAfterNote) (context.Context, trace.Span) {
	ctx = context.WithValue(ctx, retryAfterKey{}, note)
	if r.untraced {
		// The no-op tracer's span would carry no more than ctx's span context (a caller's
		// traceparent, passed on), which ctx carries already.
		return ctx, noSpan
	}
	actx, span := r.tracer.Start(ctx, "upstream", trace.WithSpanKind(trace.SpanKindClient))
	if span.IsRecording() {
		span.SetAttributes(attribute.String("vsr.model", m.cfg.Name), attribute.String("vsr.provider", m.cfg.Provider.Type),
			attribute.Int("vsr.attempt", attempt))
	}
	return actx, span
}

// retryWait decides whether the attempt that failed with err is retried, and after how
// long; a retry is counted and logged.
func (r *Router) retryWait(ctx context.Context, m *model, attempt int, note *retryAfterNote, err error) (time.Duration, bool) {
	rc := m.cfg.Retry
	var pe *provider.Error
	if errors.As(err, &pe) && pe.RetryAfter == 0 && pe.Status == http.StatusServiceUnavailable {
		pe.RetryAfter = note.get()
	}
	if attempt >= rc.MaxAttempts || !retryable(err) {
		return 0, false
	}
	wait := backoff(rc.InitialBackoff.D(), rc.MaxBackoff.D(), attempt)
	if pe != nil && pe.RetryAfter > wait {
		if pe.RetryAfter > rc.MaxRetryAfter.D() {
			logFor(ctx, r.log).Info("not waiting for Retry-After longer than retry.max_retry_after", LogKeyServing, m.cfg.Name,
				"retry_after_ms", pe.RetryAfter.Milliseconds(), "max_retry_after_ms", rc.MaxRetryAfter.D().Milliseconds())
			return 0, false
		}
		wait = pe.RetryAfter
	}
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) < wait {
		return 0, false
	}
	if r.metrics != nil {
		r.metrics.Retries.WithLabelValues(m.cfg.Name, reason(err)).Inc()
	}
	logFor(ctx, r.log).Info("retrying", LogKeyServing, m.cfg.Name, "attempt", attempt+1, "wait_ms", wait.Milliseconds(), LogKeyError, err.Error())
	return wait, true
}

// backoff is the delay before retry number attempt (1-based): a uniform random duration up to
// initial·2^(attempt-1), capped at max ("full jitter", so that retries of many clients spread).
func backoff(initial, maxDelay time.Duration, attempt int) time.Duration {
	ceiling := initial << (attempt - 1)
	if ceiling <= 0 || ceiling > maxDelay {
		ceiling = maxDelay
	}
	if ceiling <= 0 {
		return 0
	}
	return rand.N(ceiling) + 1 //nolint:gosec // jitter needs no cryptographic randomness
}

// retryable reports whether calling the same model again may succeed.
func retryable(err error) bool {
	var pe *provider.Error
	if !errors.As(err, &pe) {
		return false
	}
	switch pe.Kind {
	case provider.KindConnect, provider.KindTimeout, provider.KindUpstream, provider.KindRateLimited:
		return true
	}
	return false
}

// fallbackWorthy reports whether another model may succeed where this one failed: the
// retryable failures, and an upstream that spoke something other than the protocol.
func fallbackWorthy(err error) bool {
	var pe *provider.Error
	return retryable(err) || (errors.As(err, &pe) && pe.Kind == provider.KindProtocol)
}

// retryAfterKey carries a retryAfterNote in an upstream call's context.
type retryAfterKey struct{}

// retryAfterNote is where the transport notes a 503's Retry-After for the call's context:
// providers read Retry-After of 429s only, and a 503 that says when to come back is to be
// honoured the same way. A stream notes there that it took the call's upstream span, which
// it ends at its Close, once the answer has ended (spanTaken; set by the call's goroutine).
type retryAfterNote struct {
	d         atomic.Int64
	spanTaken bool
}

// markFailed marks an upstream span as failed by err: its reason as the status and as
// error.type, and the model server's HTTP status when it answered.
func markFailed(span trace.Span, err error) {
	if !span.IsRecording() {
		return
	}
	r := reason(err)
	span.SetStatus(codes.Error, r)
	span.SetAttributes(attribute.String("error.type", r))
	var pe *provider.Error
	if errors.As(err, &pe) && pe.Status > 0 {
		span.SetAttributes(attribute.Int("http.response.status_code", pe.Status))
	}
}

// takeSpan returns the upstream span of the call ctx belongs to, for a stream to end when
// the answer ends, or nil outside withRetries.
func takeSpan(ctx context.Context) trace.Span {
	n, ok := ctx.Value(retryAfterKey{}).(*retryAfterNote)
	if !ok {
		return nil
	}
	n.spanTaken = true
	return trace.SpanFromContext(ctx)
}

func (n *retryAfterNote) get() time.Duration { return time.Duration(n.d.Load()) }

// noteRetryAfter wraps t to note the Retry-After of each 503 answer in the request context's
// retryAfterNote, when it has one.
func noteRetryAfter(t http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		resp, err := t.RoundTrip(req)
		if err == nil && resp.StatusCode == http.StatusServiceUnavailable {
			if n, ok := req.Context().Value(retryAfterKey{}).(*retryAfterNote); ok {
				n.d.Store(int64(provider.RetryAfter(resp.Header.Get("Retry-After"), 0)))
			}
		}
		return resp, err
	})
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }
