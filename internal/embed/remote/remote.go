// Package remote embeds text through any OpenAI-compatible embeddings
// endpoint (OpenAI, vLLM, TEI, Ollama, LiteLLM, ...).
package remote

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"

	"github.com/semantic-router/semantic-router/internal/embed"
)

// Options configure a Client.
type Options struct {
	// BaseURL is the API root that "/embeddings" is appended to, as with the
	// OpenAI SDKs: "https://api.openai.com/v1", "http://vllm:8000/v1".
	BaseURL string
	// Model is sent as the request's "model".
	Model string
	// APIKey, if not empty, is sent as a bearer token. The caller resolves it
	// from wherever secrets live; it never appears in errors.
	APIKey string
	// Dimensions, if positive, is the expected vector length; responses of
	// another length are errors. If zero, it is learnt from the first reply.
	Dimensions int
	// MaxBatch caps the texts sent per request; 0 means 128.
	MaxBatch int
	// HTTPClient defaults to http.DefaultClient. Timeouts come from it and
	// from the context.
	HTTPClient *http.Client
}

// Client is an embed.Embedder backed by an HTTP endpoint. It is safe for
// concurrent use.
type Client struct {
	endpoint string
	opts     Options
	dims     atomic.Int64
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
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("remote embedder: %w", err)
	}
	if opts.MaxBatch == 0 {
		opts.MaxBatch = 128
	}
	if opts.HTTPClient == nil {
		opts.HTTPClient = http.DefaultClient
	}
	c := &Client{endpoint: strings.TrimRight(opts.BaseURL, "/") + "/embeddings", opts: opts}
	c.dims.Store(int64(opts.Dimensions))
	return c, nil
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
	body, err := json.Marshal(request{Model: c.opts.Model, Input: texts, EncodingFormat: "float"})
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if c.opts.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.opts.APIKey)
	}
	resp, err := c.opts.HTTPClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	// Embedding replies for a batch can be large, but not unbounded.
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 256<<20))
	if err != nil {
		return nil, fmt.Errorf("status %d: reading body: %w", resp.StatusCode, err)
	}
	if resp.StatusCode != http.StatusOK {
		var env errorEnvelope
		msg := strings.TrimSpace(string(raw))
		if json.Unmarshal(raw, &env) == nil && env.Error.Message != "" {
			msg = env.Error.Message
		}
		if len(msg) > 200 {
			msg = msg[:200] + "..."
		}
		return nil, fmt.Errorf("status %d: %s", resp.StatusCode, msg)
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
		out[d.Index] = d.Embedding
	}
	return out, nil
}

var _ embed.Embedder = (*Client)(nil)
