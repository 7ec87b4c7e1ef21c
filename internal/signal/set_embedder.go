package signal

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/embed"
	"github.com/semantic-router/semantic-router/internal/embed/builtin"
	"github.com/semantic-router/semantic-router/internal/embed/onnx"
	"github.com/semantic-router/semantic-router/internal/embed/remote"
	"github.com/semantic-router/semantic-router/internal/provider/transport"
)

// errNoSecrets is the error of a credential reference when SetOptions.Secrets is nil.
var errNoSecrets = errors.New("no secret store to resolve it")

// newEmbedder builds the configured embedder; closer is non-nil when it holds resources.
func newEmbedder(e *config.Embedder, opts SetOptions) (embed.Embedder, interface{ Close() error }, error) {
	secrets := opts.Secrets
	switch e.Type {
	case config.EmbedderRemote:
		o := remote.Options{BaseURL: e.BaseURL, Model: e.Model, Timeout: e.Timeout.D()}
		if !e.APIKey.IsZero() {
			src, err := openSecret(secrets, string(e.APIKey), true)
			if err != nil {
				return nil, nil, fmt.Errorf("api_key %s: %w", e.APIKey, err)
			}
			// Read on every call: a rotated file: key takes effect without a reload.
			o.APIKey, o.APIKeySource = src.Value, src.Ref()
		}
		topts := transport.Options{ConnectTimeout: e.ConnectTimeout.D()}
		if !e.CACertPEM.IsZero() {
			src, err := openSecret(secrets, string(e.CACertPEM), false)
			if err != nil {
				return nil, nil, fmt.Errorf("ca_cert_pem %s: %w", e.CACertPEM, err)
			}
			pem, err := src.Value()
			if err != nil {
				return nil, nil, fmt.Errorf("ca_cert_pem %s: %w", e.CACertPEM, err)
			}
			topts.CACertPEM = []byte(pem)
		}
		t, err := transport.New(topts)
		if err != nil {
			return nil, nil, err
		}
		o.Transport = t
		c, err := remote.New(o)
		return c, nil, err
	case config.EmbedderONNX:
		o := onnx.Options{ModelDir: e.ModelDir, LibraryPath: e.Library, MaxLength: e.MaxLength,
			Pooling: e.Pooling, Normalize: e.Normalize, Threads: e.Threads}
		if ready := opts.LocalModelReady; ready != nil && ready(e.ModelDir) != nil {
			p := &pendingONNX{opts: o, ready: func() error { return ready(e.ModelDir) }}
			return p, p, nil
		}
		c, err := onnx.New(o)
		if err != nil {
			return nil, nil, err
		}
		return c, c, nil
	default:
		return builtin.New(), nil, nil
	}
}

func openSecret(secrets SecretOpener, ref string, token bool) (Secret, error) {
	if secrets == nil {
		return nil, errNoSecrets
	}
	if token {
		return secrets.OpenToken(ref)
	}
	return secrets.Open(ref)
}

// ModelPendingError is the error of the signals that need a local model whose files are not
// in place yet; Reason says why (an artifact downloading, how far).
type ModelPendingError struct{ Reason string }

func (e *ModelPendingError) Error() string { return "the model is not loaded yet: " + e.Reason }

// pendingONNX is the onnx embedder of a model whose files are still arriving (an artifact
// downloading): it loads the model once ready says the files are in place, and until then
// its Ready and Embed fail with ready's reason. The set defers the parts that need
// embeddings while it is not ready, as for a remote embedder that has not answered yet.
type pendingONNX struct {
	opts   onnx.Options
	ready  func() error
	mu     sync.Mutex
	loaded atomic.Pointer[onnx.Embedder]
}

// Ready loads the model once its files are in place.
func (p *pendingONNX) Ready(context.Context) error {
	if p.loaded.Load() != nil {
		return nil
	}
	if err := p.ready(); err != nil {
		return &ModelPendingError{Reason: err.Error()}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.loaded.Load() != nil {
		return nil
	}
	e, err := onnx.New(p.opts)
	if err != nil {
		return err
	}
	p.loaded.Store(e)
	return nil
}

// Embed implements embed.Embedder.
func (p *pendingONNX) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if err := p.Ready(ctx); err != nil {
		return nil, err
	}
	return p.loaded.Load().Embed(ctx, texts)
}

// Dimensions implements embed.Embedder; 0 until the model is loaded.
func (p *pendingONNX) Dimensions() int {
	if e := p.loaded.Load(); e != nil {
		return e.Dimensions()
	}
	return 0
}

// Close releases the model, if it was loaded.
func (p *pendingONNX) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if e := p.loaded.Load(); e != nil {
		return e.Close()
	}
	return nil
}
