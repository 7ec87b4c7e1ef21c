package router

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"go.opentelemetry.io/otel/trace"

	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/provider"
)

// Causes of the calls the router cuts short itself. A call ended with one of them counts as
// a failure of the endpoint for outlier detection, unlike one the client abandoned.
var (
	errFirstTokenTimeout = errors.New("first_token_timeout passed")
	errStreamIdleTimeout = errors.New("stream_idle_timeout passed")
)

// errMalformedStream marks a stream the router refused to pass on: no event at all, or an
// event that is not JSON. (An end with neither a finish_reason nor [DONE] is the provider's
// to tell: only it sees the [DONE].)
var errMalformedStream = errors.New("malformed stream")

// routerTimeout reports whether cause is a time limit of the router's own.
func routerTimeout(cause error) bool {
	return errors.Is(cause, errFirstTokenTimeout) || errors.Is(cause, errStreamIdleTimeout)
}

// Stream is a routed streamed answer whose first chunk has already arrived. It enforces the
// model's stream_idle_timeout, records the upstream time and token usage, checks that every
// event is JSON, and its errors are *openai.APIError. It is not safe for concurrent use, except Close.
type Stream struct {
	r            *Router
	ctx          context.Context // the request's, for its id
	model        string
	s            provider.Stream
	start        time.Time
	cancel       context.CancelCauseFunc // cancels this model's call
	budgetCancel context.CancelFunc      // cancels the request budget; set by Router.Stream
	first        []byte                  // the first chunk, not yet returned

	// clientUsage is whether the client asked for the usage chunk; the backend is always
	// asked, and the chunk is dropped for a client that did not.
	clientUsage bool

	idle      time.Duration
	idleTimer *time.Timer
	idleFired atomic.Bool

	closed sync.Once
	err    error
	usage  *openai.Usage // from the chunk that carried it

	// record assembles the answer for the cache, when the cache missed a cacheable stream;
	// complete says the stream reached its end.
	record   *StreamAnswer
	complete bool
	// replayed is a stream the cache answered: no upstream call to record.
	replayed bool
	// span is the call's upstream span, ended by Close: the call lasts as long as the answer.
	span trace.Span

	// redaction keeps credential values out of the events, and out of the text the client
	// joins from them, when the router holds any (nil when it holds none); queue holds the
	// events to send before the next upstream one, and ended says the upstream has ended.
	redaction *AnswerRedaction
	queue     [][]byte
	one       [1][]byte // the queue of a stream without redaction
	ended     bool
	endErr    error // the stream's error, returned once the queue is sent
}

// Usage returns the token usage the stream reported, or nil.
func (s *Stream) Usage() *openai.Usage { return s.usage }

var usageKey = []byte(`"usage"`)

// carriesUsage reports whether a chunk has a usage object, without decoding it: a "usage"
// member whose value is an object, whatever the blanks around the colon (servers that write
// JSON as Python's json.dumps does put one after it). Chunks with "usage":null, as some
// servers send on every event, do not. A member name with its quotes cannot occur inside a
// JSON string, whose quotes are escaped.
func carriesUsage(data []byte) bool {
	for {
		i := bytes.Index(data, usageKey)
		if i < 0 {
			return false
		}
		data = data[i+len(usageKey):]
		rest := bytes.TrimLeft(data, " \t\r\n")
		if len(rest) > 0 && rest[0] == ':' {
			if rest = bytes.TrimLeft(rest[1:], " \t\r\n"); len(rest) > 0 && rest[0] == '{' {
				return true
			}
		}
	}
}

// openStream starts a stream on m and waits for its first chunk, within the model's
// first_token_timeout when one is set.
func (r *Router) openStream(ctx context.Context, m *model, req *openai.ChatRequest) (*Stream, error) {
	start := time.Now()
	reqCtx := ctx
	ctx, cancel := context.WithCancelCause(ctx)
	// The first-token clock runs from the request: a backend that never sends its headers
	// is as late as one that sends no event.
	var ttftFired atomic.Bool
	if ttft := m.cfg.FirstTokenTimeout.D(); ttft > 0 {
		t := time.AfterFunc(ttft, func() { ttftFired.Store(true); cancel(errFirstTokenTimeout) })
		defer t.Stop()
	}
	timedOut := func(err error) error {
		if !ttftFired.Load() {
			return err
		}
		return &provider.Error{Kind: provider.KindTimeout, Model: m.cfg.Name, Err: fmt.Errorf("%w: %w", errFirstTokenTimeout, err),
			Message: fmt.Sprintf("no first event within %s (first_token_timeout)", m.cfg.FirstTokenTimeout)}
	}
	s, err := m.provider.ChatCompletionStream(ctx, req)
	if err != nil {
		cancel(nil)
		return nil, timedOut(err)
	}
	st := &Stream{r: r, ctx: reqCtx, model: m.cfg.Name, s: s, start: start, cancel: cancel, idle: m.cfg.StreamIdleTimeout.D()}
	if r.redactor.Active() {
		st.redaction = newAnswerRedaction(r.redactor)
	}
	// Every event is a JSON object: each provider refuses anything else (provider.Stream,
	// held by the providers' conformance tests), so it is not checked again here.
	first, err := s.Next()
	if errors.Is(err, io.EOF) {
		err = malformed(m.cfg.Name, "the stream ended without a single event")
	}
	if err != nil {
		if errors.Is(err, errMalformedStream) {
			blame(s)
		}
		_ = s.Close()
		cancel(nil)
		return nil, timedOut(err)
	}
	st.first = first
	st.span = takeSpan(reqCtx)
	r.inFlight(m.cfg.Name, 1) // for the stream's life; Close takes it back
	return st, nil
}

// blame tells an endpoint's stream that the router refused what it sent, so that outlier
// detection counts it as a failure.
func blame(s provider.Stream) {
	if f, ok := s.(interface{ fail() }); ok {
		f.fail()
	}
}

func malformed(model, msg string) *provider.Error {
	return &provider.Error{Kind: provider.KindProtocol, Model: model, Message: msg, Err: errMalformedStream}
}

// Next returns the next chunk's JSON, valid until the next call, or io.EOF at the end. An
// event that is not JSON ends the stream with an error instead of reaching the client: the
// provider refuses it (see openStream).
func (s *Stream) Next() ([]byte, error) {
	for len(s.queue) == 0 {
		if s.ended {
			if s.endErr != nil {
				return nil, s.endErr
			}
			return nil, io.EOF
		}
		s.advance()
	}
	data := s.queue[0]
	s.queue = s.queue[1:]
	return data, nil
}

// Buffered reports whether Next returns without waiting for the model server: a chunk is
// ready, the stream has ended, or the upstream's next event has arrived. A front door that
// flushes only when it is false sends the events that arrived together in one write, and
// none waits for a later one. To know, it may take in upstream events the client is not
// sent (a usage chunk not asked for, text the redaction holds back) as Next would.
func (s *Stream) Buffered() bool {
	for len(s.queue) == 0 && !s.ended {
		if s.first == nil && !upstreamBuffered(s.s) {
			return false
		}
		s.advance()
	}
	return true
}

// bufferedStream is a provider stream that can tell whether its next event has arrived (the
// OpenAI-compatible and Vertex AI ones); a stream without Buffered is taken to wait.
type bufferedStream interface{ Buffered() bool }

func upstreamBuffered(s provider.Stream) bool {
	b, ok := s.(bufferedStream)
	return ok && b.Buffered()
}

// advance takes in the upstream's next event: it queues what the client is sent of it, or
// marks the end.
func (s *Stream) advance() {
	data, err := s.pull()
	if err != nil {
		s.ended = true
		if errors.Is(err, io.EOF) {
			s.complete = true
		} else {
			s.err = err
			s.endErr = s.r.apiError(s.ctx, s.model, err)
		}
		// The text held back in case it began a credential goes out before the end,
		// or before the error: the upstream sent it, and nothing completed a credential.
		if s.redaction != nil {
			s.queue = s.redaction.End()
		}
		return
	}
	if s.record != nil {
		s.record.Add(data)
	}
	// A cached answer's usage event is the client's only: neither counted nor charged.
	if u, usageOnly := s.observeUsage(data); u != nil {
		s.usage = u
		if !s.clientUsage { // counted, not asked for
			if usageOnly {
				return
			}
			data = WithoutUsage(data)
		}
	}
	if s.redaction == nil {
		s.one[0] = data
		s.queue = s.one[:]
		return
	}
	s.queue = s.redaction.Event(data)
}

// pull returns the next chunk from the upstream, enforcing the idle timeout.
func (s *Stream) pull() ([]byte, error) {
	if s.first != nil {
		first := s.first
		s.first = nil
		return first, nil
	}
	if s.idle > 0 {
		if s.idleTimer == nil {
			s.idleTimer = time.AfterFunc(s.idle, func() { s.idleFired.Store(true); s.cancel(errStreamIdleTimeout) })
		} else {
			s.idleTimer.Reset(s.idle)
		}
	}
	data, err := s.s.Next()
	if s.idleTimer != nil {
		s.idleTimer.Stop()
	}
	if err != nil && !errors.Is(err, io.EOF) && s.idleFired.Load() {
		err = &provider.Error{Kind: provider.KindTimeout, Model: s.model, Err: fmt.Errorf("%w: %w", errStreamIdleTimeout, err),
			Message: fmt.Sprintf("no event for %s (stream_idle_timeout)", s.idle)}
	}
	return data, err
}

// UsageOnly reports whether a stream chunk's data carries a usage and no choices: the last
// chunk of a stream asked for stream_options.include_usage.
func UsageOnly(data []byte) bool {
	_, only := chunkUsage(data)
	return only
}

// chunkUsage returns the usage a stream chunk's data carries (nil when none), and whether it
// carries nothing else; a chunk without a usage is not decoded.
func chunkUsage(data []byte) (u *openai.Usage, usageOnly bool) {
	if !carriesUsage(data) {
		return nil, false
	}
	var c struct {
		Usage   *openai.Usage    `json:"usage"`
		Choices []jsontext.Value `json:"choices"`
	}
	if openai.Unmarshal(data, &c) != nil {
		return nil, false
	}
	return c.Usage, c.Usage != nil && len(c.Choices) == 0
}

// WithoutUsage returns a chunk's JSON object without its top-level "usage" object, every
// other member as it was, in its place: the router asks every backend for the usage, and a
// backend may put it on a chunk with choices (the last one, or each), which a client that
// did not ask must not get. A chunk that does not read as an object is returned as it is.
// Of a name given more than once, a parser usually keeps the last: when the last "usage" is
// an object, every "usage" goes, whatever its value.
func WithoutUsage(data []byte) []byte {
	dec := jsontext.NewDecoder(bytes.NewReader(data), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return data
	}
	// Each member spans from the end of the one before it (its comma included) to the end
	// of its value; the first from just after the brace.
	type member struct {
		from, to      int64
		usage, object bool
	}
	open := dec.InputOffset()
	var members []member
	objects, lastObject := 0, false
	for dec.PeekKind() != '}' {
		m := member{from: dec.InputOffset()}
		name, err := dec.ReadToken()
		if err != nil {
			return data
		}
		m.usage = name.String() == "usage" // read before the next call voids the token
		v, err := dec.ReadValue()
		if err != nil {
			return data
		}
		m.to = dec.InputOffset()
		if m.usage {
			m.object = v.Kind() == '{' // a null usage says nothing: it may stay
			lastObject = m.object
			if m.object {
				objects++
			}
		}
		members = append(members, m)
	}
	if objects == 0 {
		return data
	}
	out := append(make([]byte, 0, len(data)), data[:open]...)
	first := true
	for _, m := range members {
		if m.object || m.usage && lastObject {
			continue
		}
		kept := data[m.from:m.to]
		if first && m.from != open { // it followed a member that went: so does its comma
			kept = kept[bytes.IndexByte(kept, ',')+1:]
		}
		out, first = append(out, kept...), false
	}
	return append(out, data[members[len(members)-1].to:]...)
}

// observeUsage is the router's observeUsage for an upstream's event; nothing for a replayed one.
func (s *Stream) observeUsage(data []byte) (u *openai.Usage, usageOnly bool) {
	if s.replayed {
		return nil, false
	}
	return s.r.observeUsage(s.model, data)
}

// observeUsage counts the tokens of a chunk that carries usage (the last one, with
// stream_options.include_usage), and says whether it carries nothing else.
func (r *Router) observeUsage(model string, data []byte) (u *openai.Usage, usageOnly bool) {
	u, usageOnly = chunkUsage(data)
	if u != nil {
		r.countTokens(model, u)
	}
	return u, usageOnly
}

// Close ends the stream, cancels the upstream call if it is still running, and records the
// outcome. It is safe to call more than once.
func (s *Stream) Close() error {
	var err error
	s.closed.Do(func() {
		if s.idleTimer != nil {
			s.idleTimer.Stop()
		}
		err = s.s.Close()
		s.cancel(nil)
		if s.budgetCancel != nil {
			s.budgetCancel()
		}
		if !s.replayed {
			s.r.observeUpstream(s.model, s.start, s.err)
			if s.err != nil {
				s.r.countFailure(s.model, s.err) // after its first event: no fallback could take it
			}
		}
		if s.span != nil {
			if s.err != nil {
				markFailed(s.span, s.err)
			}
			s.span.End()
		}
		s.r.inFlight(s.model, -1)
	})
	return err
}

// KeepAlive is how often a front door sends an SSE comment while the stream is quiet
// (server.stream_keep_alive); 0: never.
func (s *Stream) KeepAlive() time.Duration { return s.r.keepAlive() }

func (r *Router) keepAlive() time.Duration {
	if ka := r.cfg.Server.StreamKeepAlive; ka != nil {
		return ka.D()
	}
	return 0
}
