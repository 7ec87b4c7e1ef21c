// Package openaicompat calls models on OpenAI-compatible servers: vLLM, SGLang, TGI,
// Ollama, llama.cpp, LiteLLM, OpenAI itself. Streams are passed through event by event.
package openaicompat

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/provider"
	"github.com/semantic-router/semantic-router/internal/provider/transport"
)

// Options configure a Client.
type Options struct {
	// Name is the router's name for the model, used in error messages.
	Name string
	// BaseURL is the API root, such as http://vllm:8000/v1, without a trailing slash.
	BaseURL string
	// Model is the upstream model id sent in requests.
	Model string
	// APIKey returns the bearer token for each request; nil sends none. Calling it per
	// request lets a rotated credential take effect without a restart.
	APIKey func() (string, error)
	// APIKeySource names where the key comes from (such as "env.VLLM_API_KEY"), so that a 401
	// can say which reference to check. It must never be the key itself.
	APIKeySource string
	// Timeout bounds a whole call, streaming included. Zero means no limit.
	Timeout time.Duration
	// MaxResponseBytes bounds a non-streamed answer; a longer one is refused before it is
	// read whole. Zero means provider.DefaultMaxResponseBytes (32 MiB).
	MaxResponseBytes int64
	// Transport is the pooled transport to use; see package transport.
	Transport http.RoundTripper
}

// Client is a Provider for one model on one OpenAI-compatible server.
type Client struct {
	opts Options
	// rt sends each request as it is: a RoundTripper follows no redirect (a 3xx answer is
	// returned and refused, see transport.Redirect) and, unlike http.Client, copies no
	// headers for one.
	rt       http.RoundTripper
	endpoint string
}

// New returns a client. It does not contact the server.
func New(o Options) (*Client, error) {
	if o.BaseURL == "" || o.Model == "" {
		return nil, errors.New("openaicompat: base URL and model are required")
	}
	if o.Transport == nil {
		t, err := transport.New(transport.Options{})
		if err != nil {
			return nil, err
		}
		o.Transport = t
	}
	return &Client{
		opts:     o,
		rt:       o.Transport,
		endpoint: o.BaseURL + "/chat/completions",
	}, nil
}

// ChatCompletion implements provider.Provider.
func (c *Client) ChatCompletion(ctx context.Context, req *openai.ChatRequest) (*provider.Response, error) {
	if c.opts.Timeout > 0 { // without one, the call needs no context of its own
		var cancel context.CancelFunc
		ctx, cancel = c.withTimeout(ctx)
		defer cancel()
	}
	body, err := c.encode(req, false)
	if err != nil {
		return nil, err
	}
	resp, key, err := c.post(ctx, body, false)
	if err != nil {
		return nil, provider.RedactError(err, key)
	}
	defer resp.Body.Close()
	body, err = transport.ReadBody(ctx, c.opts.Name, c.opts.BaseURL, resp.Body, resp.ContentLength, c.opts.MaxResponseBytes)
	if err != nil {
		return nil, err
	}
	var parsed struct {
		Choices openai.Present `json:"choices"`
		Usage   *openai.Usage  `json:"usage"`
	}
	if err := openai.Unmarshal(body, &parsed); err != nil || !parsed.Choices {
		return nil, c.protocolError("the answer is not a chat completion JSON object", err)
	}
	return &provider.Response{Body: body, Usage: parsed.Usage}, nil
}

// ChatCompletionStream implements provider.Provider.
func (c *Client) ChatCompletionStream(ctx context.Context, req *openai.ChatRequest) (provider.Stream, error) {
	// The request is encoded before it is sent, not under post, and the answer is checked
	// in a function of its own: the encoder's and the transport's depths do not add up on
	// the connection's goroutine, whose stack, once grown, a stream holds.
	body, err := c.encode(req, true)
	if err != nil {
		return nil, err
	}
	ctx, cancel := c.withTimeout(ctx)
	resp, key, err := c.post(ctx, body, true)
	if err != nil {
		cancel()
		return nil, provider.RedactError(err, key)
	}
	return c.opened(ctx, cancel, resp, key)
}

// opened returns the stream of a 200 answer, once it is known to be an event stream.
func (c *Client) opened(ctx context.Context, cancel context.CancelFunc, resp *http.Response, key string) (provider.Stream, error) {
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		resp.Body.Close()
		cancel()
		return nil, c.protocolError(fmt.Sprintf("a streaming request was answered with content type %q, not text/event-stream", ct), nil)
	}
	body := &bodyReader{r: resp.Body}
	return &stream{c: c, ctx: ctx, key: key, body: resp.Body, read: body, sse: openai.NewSSEReader(body), cancel: cancel}, nil
}

func (c *Client) withTimeout(ctx context.Context) (context.Context, context.CancelFunc) {
	return provider.WithTimeout(ctx, c.opts.Timeout)
}

// encode returns the body of req as sent to this server: its model name, and the stream
// switch of the call.
func (c *Client) encode(req *openai.ChatRequest, stream bool) ([]byte, error) {
	up := *req // shallow copy: only top-level fields change
	up.Model = c.opts.Model
	up.Stream = stream
	if !stream {
		up.StreamOptions = nil
	}
	body, err := up.Encode()
	if err != nil {
		return nil, &provider.Error{Kind: provider.KindInternal, Model: c.opts.Name, Message: "encoding the request", Err: err}
	}
	return body, nil
}

// post sends the encoded request and returns a 200 response and the API key it sent; any
// other status is turned into a *provider.Error.
func (c *Client) post(ctx context.Context, body []byte, stream bool) (*http.Response, string, error) {
	hreq, answered, err := transport.NewPost(ctx, c.endpoint, body)
	if err != nil {
		return nil, "", &provider.Error{Kind: provider.KindInternal, Model: c.opts.Name, Message: "building the request", Err: err}
	}
	hreq.Header.Set("Content-Type", "application/json")
	if stream {
		hreq.Header.Set("Accept", "text/event-stream")
	} else {
		hreq.Header.Set("Accept", "application/json")
	}
	var key string
	if c.opts.APIKey != nil {
		if key, err = c.opts.APIKey(); err != nil {
			return nil, "", &provider.Error{Kind: provider.KindAuth, Model: c.opts.Name,
				Message: fmt.Sprintf("reading the API key from %s: %v", c.opts.APIKeySource, err), Err: err}
		}
		hreq.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := c.rt.RoundTrip(hreq)
	answered()
	if err != nil {
		return nil, key, transport.ExplainContext(ctx, c.opts.Name, c.opts.BaseURL, err)
	}
	if resp.StatusCode != http.StatusOK {
		defer resp.Body.Close()
		if transport.IsRedirect(resp.StatusCode) {
			return nil, key, transport.Redirect(c.opts.Name, c.opts.BaseURL, resp)
		}
		return nil, key, c.statusError(resp, key)
	}
	return resp, key, nil
}

// statusError explains a non-200 answer. The upstream's own message is included, since
// OpenAI-compatible servers put the useful detail there, bounded and with the key it was
// sent redacted: a server may echo the Authorization header into its error.
func (c *Client) statusError(resp *http.Response, key string) *provider.Error {
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	detail := provider.UpstreamText(upstreamMessage(raw), key)
	e := &provider.Error{Model: c.opts.Name, Status: resp.StatusCode}
	switch code := resp.StatusCode; {
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		e.Kind = provider.KindAuth
		if c.opts.APIKey == nil {
			e.Message = fmt.Sprintf("%s rejected the request with %d and no api_key is configured for this model; set provider.api_key to an env.VAR or file: reference", c.opts.BaseURL, code)
		} else {
			e.Message = fmt.Sprintf("%s rejected the API key with %d: check that %s holds a current key for this server (env.VAR names are case-sensitive; restart after changing an env Secret)", c.opts.BaseURL, code, c.opts.APIKeySource)
		}
	case code == http.StatusNotFound:
		e.Kind = provider.KindNotFound
		e.Message = fmt.Sprintf("%s answered 404 for upstream model %q: check provider.model and that base_url ends in the API root (such as /v1)", c.opts.BaseURL, c.opts.Model)
	case code == http.StatusTooManyRequests:
		e.Kind = provider.KindRateLimited
		e.Message = fmt.Sprintf("%s is rate limiting (429)", c.opts.BaseURL)
		e.RetryAfter = provider.RetryAfter(resp.Header.Get("Retry-After"), 0)
	case code >= 500:
		e.Kind = provider.KindUpstream
		e.Message = fmt.Sprintf("%s failed with %d", c.opts.BaseURL, code)
	case code >= 400:
		e.Kind = provider.KindBadRequest
		e.Message = fmt.Sprintf("%s rejected the request with %d", c.opts.BaseURL, code)
	default:
		e.Kind = provider.KindProtocol
		e.Message = fmt.Sprintf("%s answered with unexpected status %d", c.opts.BaseURL, code)
	}
	if detail != "" {
		e.Message += ": " + detail
	}
	return e
}

func (c *Client) protocolError(msg string, err error) *provider.Error {
	return &provider.Error{Kind: provider.KindProtocol, Model: c.opts.Name, Message: fmt.Sprintf("%s: %s", c.opts.BaseURL, msg), Err: err}
}

// malformed is a protocolError whose cause is provider.ErrMalformedStream.
func (c *Client) malformed(msg string, err error) *provider.Error {
	cause := provider.ErrMalformedStream
	if err != nil {
		cause = fmt.Errorf("%w: %w", provider.ErrMalformedStream, err)
	}
	return c.protocolError(msg, cause)
}

// upstreamMessage extracts the message of an OpenAI error envelope (or a plain
// {"message":...} or {"detail":...}), else a short prefix of the body.
func upstreamMessage(raw []byte) string {
	var env struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  any             `json:"detail"`
	}
	if json.Unmarshal(raw, &env) == nil {
		var inner struct {
			Message string `json:"message"`
		}
		switch {
		case json.Unmarshal(env.Error, &inner) == nil && inner.Message != "":
			return inner.Message
		case len(env.Error) > 0 && env.Error[0] == '"':
			var s string
			_ = json.Unmarshal(env.Error, &s)
			return s
		case env.Message != "":
			return env.Message
		case env.Detail != nil:
			return fmt.Sprint(env.Detail)
		}
	}
	return string(raw)
}

type stream struct {
	c      *Client
	ctx    context.Context // the call's, to tell a timeout from a cancellation
	key    string          // the API key sent, redacted from any error
	body   io.ReadCloser
	read   *bodyReader // body, as sse reads it; nil in tests of the parsing alone
	sse    *openai.SSEReader
	cancel context.CancelFunc
	done   bool
	events int
	// finished records a choice's finish_reason: with [DONE] it is what tells a complete
	// answer from a cut one.
	finished bool
}

// bodyReader notes the error of a failed read of a stream's body, so that a connection that
// ended mid-stream is told apart from a body that ended cleanly inside an event. It is read
// by one goroutine, the stream's.
type bodyReader struct {
	r   io.Reader
	err error // the first error other than io.EOF
}

func (b *bodyReader) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if err != nil && !errors.Is(err, io.EOF) && b.err == nil {
		b.err = err
	}
	return n, err
}

var (
	errorKey  = []byte(`{"error":`)
	finishKey = []byte(`"finish_reason":`)
)

// valueAfter returns data after the first occurrence of key and any blanks, or nil. A key
// with its quotes cannot occur inside a JSON string (quotes there are escaped), so in a valid
// chunk the match is a member name.
func valueAfter(data, key []byte) []byte {
	i := bytes.Index(data, key)
	if i < 0 {
		return nil
	}
	return bytes.TrimLeft(data[i+len(key):], " \t\r\n")
}

// isSet reports whether a member's value (as valueAfter returns it) is present and not null.
func isSet(v []byte) bool {
	return len(v) > 0 && !bytes.HasPrefix(v, []byte("null")) && !bytes.HasPrefix(v, []byte(`""`))
}

// Next returns the next chunk. A stream that ends with neither [DONE] nor a finish_reason,
// or an event that is not a JSON object, is an error wrapping provider.ErrMalformedStream:
// the client must not take a cut answer for a whole one, nor get bytes that are no chunk.
func (s *stream) Next() ([]byte, error) {
	if s.done {
		return nil, io.EOF
	}
	ev, err := s.sse.Next()
	switch {
	case errors.Is(err, io.EOF):
		s.done = true
		if s.events == 0 {
			return nil, s.c.malformed("the stream ended without a single event", nil)
		}
		if !s.finished {
			return nil, s.c.malformed("the stream ended with neither a finish_reason nor [DONE]", nil)
		}
		// A server that closes cleanly after the finish without [DONE] has finished too.
		return nil, io.EOF
	case err != nil:
		s.done = true
		if s.read != nil && s.read.err != nil {
			// The connection, not the server's SSE, failed (a chunked body without its
			// end reads as io.ErrUnexpectedEOF too).
			return nil, transport.StreamCut(s.ctx, s.c.opts.Name, s.c.opts.BaseURL, s.events, s.read.err)
		}
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, s.c.malformed("the stream was cut in the middle of an event", err)
		}
		if errors.Is(err, openai.ErrSSEEventTooLarge) {
			return nil, s.c.protocolError("a stream event is larger than 8 MiB", err)
		}
		return nil, transport.ExplainContext(s.ctx, s.c.opts.Name, s.c.opts.BaseURL, err)
	case ev.Done():
		s.done = true
		return nil, io.EOF
	case ev.Event == "error":
		s.done = true
		return nil, &provider.Error{Kind: provider.KindUpstream, Model: s.c.opts.Name,
			Message: fmt.Sprintf("%s sent an error event: %s", s.c.opts.BaseURL, provider.UpstreamText(upstreamMessage(ev.Data), s.key))}
	}
	s.events++
	// Chunks are relayed as they are, so only what the stream needs is checked, without
	// decoding: that the event is a JSON object, whether it is an error, and whether it
	// finishes the answer. An event written as several data lines is put on one, which
	// the router writes as one data line (provider.Stream).
	if !openai.IsObject(ev.Data) {
		s.done = true
		return nil, s.c.malformed(fmt.Sprintf("stream event %d is not a JSON object", s.events), nil)
	}
	data := openai.OneLine(ev.Data)
	if bytes.HasPrefix(data, errorKey) && isSet(data[len(errorKey):]) {
		s.done = true
		return nil, &provider.Error{Kind: provider.KindUpstream, Model: s.c.opts.Name,
			Message: fmt.Sprintf("%s failed during the stream: %s", s.c.opts.BaseURL, provider.UpstreamText(upstreamMessage(data), s.key))}
	}
	if !s.finished && isSet(valueAfter(data, finishKey)) {
		s.finished = true
	}
	return data, nil
}

// Buffered reports whether Next returns without reading from the connection: the stream
// has ended, or its next event has arrived whole (router.Stream's flushing reads it).
func (s *stream) Buffered() bool { return s.done || s.sse.Buffered() }

func (s *stream) Close() error {
	s.done = true
	err := s.body.Close()
	s.cancel()
	return err
}

var _ provider.Provider = (*Client)(nil)
