package extproc

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"testing"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	extprocv3 "github.com/envoyproxy/go-control-plane/envoy/service/ext_proc/v3"
	"google.golang.org/grpc"

	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/router"
)

// BenchmarkExchange is the processor's own work for one chat completion as Envoy presents it
// (request headers, buffered body, response headers, the end of the exchange), on a router
// with one model and no signals: no gRPC, so the time is the processor's and the pipeline's.
func BenchmarkExchange(b *testing.B) {
	s, msgs := benchProcessor(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		x := newExchange()
		for _, m := range msgs {
			if r := s.handle(ctx, x, m); r.GetImmediateResponse() != nil {
				b.Fatal(r.GetImmediateResponse())
			}
		}
		s.end(x, context.Canceled)
	}
}

// BenchmarkExchangeOnItsGoroutine is the same exchange as gRPC serves it: Process on a
// goroutine of its own, which starts with a small stack and grows it (see stackgrow).
func BenchmarkExchangeOnItsGoroutine(b *testing.B) {
	s, msgs := benchProcessor(b)
	ctx := context.Background()
	done := make(chan error)
	b.ReportAllocs()
	for b.Loop() {
		go func() { done <- s.Process(&exchangeStream{ctx: ctx, msgs: msgs}) }()
		if err := <-done; err != nil {
			b.Fatal(err)
		}
	}
}

// exchangeStream is an exchange's gRPC stream held in memory: Recv hands Process the
// messages in turn, then io.EOF, as when Envoy closes the stream; Send checks that no
// message was refused.
type exchangeStream struct {
	grpc.ServerStream // not set: Process calls only Recv, Send and Context
	ctx               context.Context
	msgs              []*extprocv3.ProcessingRequest
	sent              int
}

func (s *exchangeStream) Context() context.Context { return s.ctx }

func (s *exchangeStream) Recv() (*extprocv3.ProcessingRequest, error) {
	if s.sent == len(s.msgs) {
		return nil, io.EOF
	}
	return s.msgs[s.sent], nil
}

func (s *exchangeStream) Send(r *extprocv3.ProcessingResponse) error {
	s.sent++
	if r.GetImmediateResponse() != nil {
		return fmt.Errorf("message %d refused: %v", s.sent, r.GetImmediateResponse())
	}
	return nil
}

// benchProcessor is a processor on a router with one model and no signals, and the messages
// of one chat completion as Envoy sends them.
func benchProcessor(b *testing.B) (*Server, []*extprocv3.ProcessingRequest) {
	b.Helper()
	cfg, err := config.Parse([]byte(`
models:
  - model_name: bench
    provider: {type: openai_compatible, base_url: "http://127.0.0.1:8000/v1", model: mock}
`))
	if err != nil {
		b.Fatal(err)
	}
	rt, err := router.New(cfg, router.Options{PlanOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	h := router.NewHolder(rt)
	b.Cleanup(func() { _ = h.Close() })
	s := New(router.NewPipeline(h, router.PipelineOptions{}), slog.New(slog.DiscardHandler), nil)
	body := []byte(`{"model":"auto","messages":[{"role":"user","content":"What is the capital of France?"}]}`)
	hv := func(k, v string) *corev3.HeaderValue { return &corev3.HeaderValue{Key: k, RawValue: []byte(v)} }
	return s, []*extprocv3.ProcessingRequest{
		{Request: &extprocv3.ProcessingRequest_RequestHeaders{RequestHeaders: &extprocv3.HttpHeaders{Headers: &corev3.HeaderMap{Headers: []*corev3.HeaderValue{
			hv(":method", "POST"), hv(":path", "/v1/chat/completions"), hv(":authority", "gateway.local"), hv("content-type", "application/json"),
			hv("content-length", strconv.Itoa(len(body))), hv("x-request-id", "bench")}}}}},
		{Request: &extprocv3.ProcessingRequest_RequestBody{RequestBody: &extprocv3.HttpBody{Body: body, EndOfStream: true}}},
		{Request: &extprocv3.ProcessingRequest_ResponseHeaders{ResponseHeaders: &extprocv3.HttpHeaders{Headers: &corev3.HeaderMap{Headers: []*corev3.HeaderValue{
			hv(":status", "200"), hv("content-type", "application/json")}}}}},
	}
}
