package router

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"sync"
	"time"

	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/provider"
)

// Stream is a routed streamed answer. It records the upstream time, first-token latency and
// token usage, and its errors are *openai.APIError. It is not safe for concurrent use.
type Stream struct {
	r       *Router
	model   string
	s       provider.Stream
	start   time.Time
	started bool
	closed  sync.Once
	err     error
}

var usageKey = []byte(`"usage":{`)

// Next returns the next chunk's JSON, valid until the next call, or io.EOF at the end.
func (s *Stream) Next() ([]byte, error) {
	data, err := s.s.Next()
	if err != nil {
		if !errors.Is(err, io.EOF) {
			s.err = err
			return nil, s.r.apiError(s.model, err)
		}
		return nil, io.EOF
	}
	if !s.started {
		s.started = true
		if s.r.metrics != nil {
			s.r.metrics.TimeToFirstToken.WithLabelValues(s.model).Observe(time.Since(s.start).Seconds())
		}
	}
	// Only the usage chunk (sent last with stream_options.include_usage) is decoded.
	if bytes.Contains(data, usageKey) {
		var c struct {
			Usage *openai.Usage `json:"usage"`
		}
		if json.Unmarshal(data, &c) == nil {
			s.r.countTokens(s.model, c.Usage)
		}
	}
	return data, nil
}

// Close ends the stream and records its outcome. It is safe to call more than once.
func (s *Stream) Close() error {
	var err error
	s.closed.Do(func() {
		err = s.s.Close()
		s.r.observeUpstream(s.model, s.start, s.err)
		s.r.inFlight(s.model, -1)
	})
	return err
}
