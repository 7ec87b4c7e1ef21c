package config

import "time"

// Server limit defaults. They fit real traffic with room to spare: a 10 MiB body arrives in
// 60s at under 2 Mbit/s, a non-streaming answer is written in far less than a minute, and a
// keep-alive connection outlives the 60s idle timeout of common load balancers in front.
const (
	DefaultReadTimeout    = 60 * time.Second
	DefaultWriteTimeout   = 60 * time.Second
	DefaultIdleTimeout    = 120 * time.Second
	DefaultMaxHeaderBytes = 64 << 10

	minMaxHeaderBytes = 4 << 10
	maxMaxHeaderBytes = 16 << 20
)

// ServerLimits bound how long and how much a client may hold the router's listeners (8801,
// 8080 and 9190 alike). Each takes a restart to change.
type ServerLimits struct {
	// ReadTimeout bounds reading a whole request, headers and body, from its first byte:
	// a client that trickles its body is cut off. Default 60s; at least read_header_timeout.
	ReadTimeout Duration `yaml:"read_timeout,omitempty" json:"read_timeout"`
	// WriteTimeout bounds writing a response that is not a stream, from when it is ready:
	// a client that does not read its answer is cut off. Streams have no write deadline
	// (stream_keepalive keeps them moving). Default 60s.
	WriteTimeout Duration `yaml:"write_timeout,omitempty" json:"write_timeout"`
	// IdleTimeout is how long a keep-alive connection may wait for its next request.
	// Default 120s.
	IdleTimeout Duration `yaml:"idle_timeout,omitempty" json:"idle_timeout"`
	// MaxHeaderBytes bounds a request's line and headers; larger ones get 431. Default 64 KiB.
	MaxHeaderBytes int `yaml:"max_header_bytes,omitempty" json:"max_header_bytes"`
}

func (s *ServerLimits) applyDefaults() {
	if s.ReadTimeout == 0 {
		s.ReadTimeout = Duration(DefaultReadTimeout)
	}
	if s.WriteTimeout == 0 {
		s.WriteTimeout = Duration(DefaultWriteTimeout)
	}
	if s.IdleTimeout == 0 {
		s.IdleTimeout = Duration(DefaultIdleTimeout)
	}
	if s.MaxHeaderBytes == 0 {
		s.MaxHeaderBytes = DefaultMaxHeaderBytes
	}
}

func (c *Config) validateServerLimits(v *validator) {
	c.Server.validateLimits(v)
	// A request waits for its in-flight slot before its body is read, and the wait counts
	// against read_timeout.
	if q, r := c.Admission.QueueTimeout, c.Server.ReadTimeout; r > 0 && q >= r {
		v.add("admission.queue_timeout", "must be shorter than server.read_timeout (%s), which the wait for a slot counts against, got %s", r, q)
	}
}

func (s *Server) validateLimits(v *validator) {
	for _, d := range []struct {
		path string
		d    Duration
	}{
		{"server.read_timeout", s.ReadTimeout},
		{"server.write_timeout", s.WriteTimeout},
		{"server.idle_timeout", s.IdleTimeout},
	} {
		if d.d < 0 {
			v.add(d.path, "must not be negative, got %s", d.d)
		}
	}
	if s.ReadTimeout > 0 && s.ReadTimeout < s.ReadHeaderTimeout {
		v.add("server.read_timeout", "must be at least read_header_timeout (%s), got %s", s.ReadHeaderTimeout, s.ReadTimeout)
	}
	if n := s.MaxHeaderBytes; n < minMaxHeaderBytes || n > maxMaxHeaderBytes {
		v.add("server.max_header_bytes", "must be between %d and %d, got %d", minMaxHeaderBytes, maxMaxHeaderBytes, n)
	}
}
