// Package remote embeds text through any OpenAI-compatible embeddings
// endpoint (OpenAI, vLLM, TEI, Ollama, LiteLLM, ...).
//
// It reaches the endpoint as providers reach model servers (package
// provider/transport: connect timeout, ca_cert_pem, HTTPS_PROXY, no redirects),
// bounds each call in time and each answer in size, and reads its API key on
// every call, so a rotated file: key takes effect without a restart. A client
// can be built while the service is down: Ready reports when it first answers.
package remote

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/semantic-router/semantic-router/internal/embed"
	"github.com/semantic-router/semantic-router/internal/provider"
	"github.com/semantic-router/semantic-router/internal/provider/transport"
)

// Defaults of Options.
const (
	DefaultTimeout          = 10 * time.Second
	DefaultMaxResponseBytes = 64 << 20
)

// Options configure a Client.
type Options struct {
	// BaseURL is the API root that "/embeddings" is appended to, as with the
	// OpenAI SDKs: "https://api.openai.com/v1", "http://vllm:8000/v1".
	BaseURL string
	// Model is sent as the request's "model".
	Model string
	// APIKey, if not nil, returns the bearer token; it is called for every
	// request, so a rotated key takes effect at once, and its error fails the
	// call. The key never appears in errors: text the endpoint sends back has it
	// redacted.
	APIKey func() (string, error)
	// APIKeySource names where the key comes from (such as "file:/keys/embed"),
	// for errors. Never the key itself.
	APIKeySource string
	// Dimensions, if positive, is the expected vector length; responses of
	// another length are errors. If zero, it is learnt from the first reply.
	Dimensions int
	// MaxBatch caps the texts sent per request; 0 means 128.
	MaxBatch int
	// Timeout bounds one call (a batch); default DefaultTimeout (10s).
	Timeout time.Duration
	// MaxResponseBytes bounds an answer; default DefaultMaxResponseBytes
	// (64 MiB, a batch of 128 vectors of 4096 floats in JSON with room to spare).
	MaxResponseBytes int64
	// Transport reaches the endpoint; default transport.New with its defaults
	// (system roots, proxy from the environment). Redirects are never followed.
	Transport http.RoundTripper
}

// Client is an embed.Embedder backed by an HTTP endpoint. It is safe for
// concurrent use.
type Client struct {
	endpoint string
	opts     Options
	http     *http.Client
	dims     atomic.Int64

	ready   atomic.Bool // the endpoint has answered once
	probeMu sync.Mutex  // one readiness probe at a time
}

// New checks the options and returns a client; it makes no request.
func New(opts Options) (*Client, error) {
	var errs []error
	if opts.BaseURL == "" {
		errs = append(errs, errors.New("base URL is required"))
	} else if !strings.HasPrefix(opts.BaseURL, "http://") && !strings.HasPrefix(opts.BaseURL, "https://") {
		errs = append(errs, fmt.Errorf("base URL %q: must start with http:// or https://", opts.BaseURL))
	}
	if opts.Model == "" {
		errs = append(errs, errors.New("model is required"))
	}
	if opts.Dimensions < 0 {
		errs = append(errs, fmt.Errorf("dimensions %d: must not be negative", opts.Dimensions))
	}
	if opts.MaxBatch < 0 {
		errs = append(errs, fmt.Errorf("max batch %d: must not be negative", opts.MaxBatch))
	}
	if opts.Timeout < 0 {
		errs = append(errs, fmt.Errorf("timeout %s: must not be negative", opts.Timeout))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("remote embedder: %w", err)
	}
	if opts.MaxBatch == 0 {
		opts.MaxBatch = 128
	}
	if opts.Timeout == 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.MaxResponseBytes <= 0 {
		opts.MaxResponseBytes = DefaultMaxResponseBytes
	}
	if opts.Transport == nil {
		t, err := transport.New(transport.Options{})
		if err != nil {
			return nil, fmt.Errorf("remote embedder: %w", err)
		}
		opts.Transport = t
	}
	c := &Client{endpoint: strings.TrimRight(opts.BaseURL, "/") + "/embeddings", opts: opts, http: transport.NewClient(opts.Transport)}
	c.dims.Store(int64(opts.Dimensions))
	return c, nil
}

// Ready reports whether the endpoint has answered: nil once any call succeeded,
// otherwise the error of a probe call made now (one short text). Once ready it
// stays ready; failures after that are the errors of the calls that meet them.
// The router reports it on /ready, so a replica starts while the embedding
// service is down and takes traffic when it answers.
func (c *Client) Ready(ctx context.Context) error {
	if c.ready.Load() {
		return nil
	}
	c.probeMu.Lock()
	defer c.probeMu.Unlock()
	if c.ready.Load() {
		return nil
	}
	if _, err := c.Embed(ctx, []string{"ready"}); err != nil {
		return fmt.Errorf("not answering yet: %w", err)
	}
	return nil
}

// Dimensions implements embed.Embedder. Without Options.Dimensions it is 0
// until the first successful call.
func (c *Client) Dimensions() int { return int(c.dims.Load()) }

// Embed implements embed.Embedder, sending batches of at most MaxBatch.
func (c *Client) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += c.opts.MaxBatch {
		end := min(start+c.opts.MaxBatch, len(texts))
		vecs, err := c.call(ctx, texts[start:end])
		if err != nil {
			return nil, fmt.Errorf("remote embedder: POST %s: %w", c.endpoint, err)
		}
		out = append(out, vecs...)
	}
	return out, nil
}

type request struct {
	Model          string   `json:"model"`
	Input          []string `json:"input"`
	EncodingFormat string   `json:"encoding_format"`
}

type response struct {
	Data []struct {
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	} `json:"data"`
}

type errorEnvelope struct {
	Error struct {
		Message string `json:"message"`
	} `json:"error"`
}

func (c *Client) call(ctx context.Context, texts []string) ([][]float32, error) {
	ctx, cancel := context.WithTimeoutCause(ctx, c.opts.Timeout, fmt.Errorf("no answer within %s (timeout)", c.opts.Timeout))
	defer cancel()
	body, err := json.Marshal(request{Model: c.opts.Model, Input: texts, EncodingFormat: "float"})
	if err != nil {
		return nil, err
	}
	var key string
	if c.opts.APIKey != nil {
		if key, err = c.opts.APIKey(); err != nil {
			return nil, fmt.Errorf("reading the API key from %s: %w", c.opts.APIKeySource, err)
		}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			// The error's prefix names the call, and net/http's error carries the cause:
			// each is said once.
			var ue *url.Error
			if errors.As(err, &ue) {
				err = ue.Err
			}
			return nil, transport.WithCause(context.Cause(ctx), err)
		}
		return nil, err
	}
	defer resp.Body.Close()
	if transport.IsRedirect(resp.StatusCode) {
		return nil, fmt.Errorf("status %d: a redirect, which is not followed: point base_url at the server itself", resp.StatusCode)
	}
	if resp.StatusCode != http.StatusOK {
		raw, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		var env errorEnvelope
		msg := string(raw)
		if json.Unmarshal(raw, &env) == nil && env.Error.Message != "" {
			msg = env.Error.Message
		}
		return nil, fmt.Errorf("status %d: %s", resp.StatusCode, provider.UpstreamText(msg, key))
	}
	raw, err := io.ReadAll(io.LimitReader(resp.Body, c.opts.MaxResponseBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading the answer: %w", err)
	}
	if int64(len(raw)) > c.opts.MaxResponseBytes {
		return nil, fmt.Errorf("the answer is larger than %d bytes and was refused", c.opts.MaxResponseBytes)
	}
	var r response
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("decoding response: %w", err)
	}
	if len(r.Data) != len(texts) {
		return nil, fmt.Errorf("got %d embeddings for %d inputs", len(r.Data), len(texts))
	}
	out := make([][]float32, len(texts))
	for _, d := range r.Data {
		if d.Index < 0 || d.Index >= len(texts) || out[d.Index] != nil {
			return nil, fmt.Errorf("bad or duplicate embedding index %d", d.Index)
		}
		if len(d.Embedding) == 0 {
			return nil, fmt.Errorf("embedding %d is empty", d.Index)
		}
		want := c.dims.Load()
		if want == 0 {
			c.dims.CompareAndSwap(0, int64(len(d.Embedding)))
			want = c.dims.Load()
		}
		if int64(len(d.Embedding)) != want {
			return nil, fmt.Errorf("embedding %d has %d dimensions, want %d", d.Index, len(d.Embedding), want)
		}
		if err := usable(d.Embedding); err != nil {
			return nil, fmt.Errorf("embedding %d %w", d.Index, err)
		}
		out[d.Index] = d.Embedding
	}
	c.ready.Store(true)
	return out, nil
}

// usable refuses a vector that no model produces and that reads as "like nothing": all zeros,
// whose similarity to every example is 0, so that a policy on it would never match. (JSON
// has no NaN or infinity, and a number too large for a float32 fails to decode.)
func usable(v []float32) error {
	for _, x := range v {
		if x != 0 {
			return nil
		}
	}
	return errors.New("is all zeros: the server is not embedding the text")
}

var _ embed.Embedder = (*Client)(nil)
