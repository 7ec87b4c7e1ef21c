package config

// EmbedderConnection tunes how a remote embedder (signals.embedder, type remote) is reached,
// as a model's provider is: the same transport, timeouts and CA bundle. Zero values take the
// defaults noted on each field.
type EmbedderConnection struct {
	// Timeout bounds one call to the embeddings endpoint. Default 10s.
	Timeout Duration `yaml:"timeout,omitempty" json:"timeout,omitempty"`
	// ConnectTimeout bounds establishing a connection. Default 5s.
	ConnectTimeout Duration `yaml:"connect_timeout,omitempty" json:"connect_timeout,omitempty"`
	// CACertPEM is a reference (env.VAR or file:/path) to a PEM bundle for an endpoint
	// whose certificate a private CA signed.
	CACertPEM SecretRef `yaml:"ca_cert_pem,omitempty" json:"ca_cert_pem,omitempty"`
}

func (c EmbedderConnection) validate(v *validator, p string) {
	if c.Timeout < 0 {
		v.add(p+".timeout", "must not be negative")
	}
	if c.ConnectTimeout < 0 {
		v.add(p+".connect_timeout", "must not be negative")
	}
	validateRef(v, p+".ca_cert_pem", c.CACertPEM)
}

// MinResponseBodyBytes is the smallest max_response_body_bytes accepted: a limit below it
// would refuse ordinary answers.
const MinResponseBodyBytes = 64 << 10

// UpstreamLimits bound what the router reads from a model's backend.
type UpstreamLimits struct {
	// MaxResponseBodyBytes bounds a non-streamed answer; a longer one is refused with a
	// 502 before it is read whole. Zero (the default) means 32 MiB. Streamed answers are
	// bounded per event instead (8 MiB, 16 MiB for Bedrock).
	MaxResponseBodyBytes int64 `yaml:"max_response_body_bytes,omitempty" json:"max_response_body_bytes,omitempty"`
}

func (l UpstreamLimits) validateLimits(v *validator, p string) {
	if l.MaxResponseBodyBytes != 0 && l.MaxResponseBodyBytes < MinResponseBodyBytes {
		v.add(p+".max_response_body_bytes", "must be at least %d (0: the default 32 MiB), got %d", MinResponseBodyBytes, l.MaxResponseBodyBytes)
	}
}
