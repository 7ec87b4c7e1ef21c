package signal

import (
	"errors"
	"fmt"

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
func newEmbedder(e *config.Embedder, secrets SecretOpener) (embed.Embedder, interface{ Close() error }, error) {
	switch e.Type {
	case config.EmbedderRemote:
		o := remote.Options{BaseURL: e.BaseURL, Model: e.Model, Timeout: e.Timeout.D()}
		if !e.APIKey.IsZero() {
			src, err := openSecret(secrets, string(e.APIKey))
			if err != nil {
				return nil, nil, fmt.Errorf("api_key %s: %w", e.APIKey, err)
			}
			// Read on every call: a rotated file: key takes effect without a reload.
			o.APIKey, o.APIKeySource = src.Value, src.Ref()
		}
		topts := transport.Options{ConnectTimeout: e.ConnectTimeout.D()}
		if !e.CACertPEM.IsZero() {
			src, err := openSecret(secrets, string(e.CACertPEM))
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
		c, err := onnx.New(onnx.Options{ModelDir: e.ModelDir, LibraryPath: e.Library, MaxLength: e.MaxLength,
			Pooling: e.Pooling, Normalize: e.Normalize, Threads: e.Threads})
		if err != nil {
			return nil, nil, err
		}
		return c, c, nil
	default:
		return builtin.New(), nil, nil
	}
}

func openSecret(secrets SecretOpener, ref string) (Secret, error) {
	if secrets == nil {
		return nil, errNoSecrets
	}
	return secrets.Open(ref)
}
