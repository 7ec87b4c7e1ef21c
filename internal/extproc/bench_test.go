package extproc

import (
	"context"
	"log/slog"
	"strconv"
	"testing"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	extprocv3 "github.com/envoyproxy/go-control-plane/envoy/service/ext_proc/v3"

	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/router"
)

// BenchmarkExchange is the processor's own work for one chat completion as Envoy presents it
// (request headers, buffered body, response headers, the end of the exchange), on a router
// with one model and no signals: no gRPC, so the time is the processor's and the pipeline's.
func BenchmarkExchange(b *testing.B) {
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
	msgs := []*extprocv3.ProcessingRequest{
		{Request: &extprocv3.ProcessingRequest_RequestHeaders{RequestHeaders: &extprocv3.HttpHeaders{Headers: &corev3.HeaderMap{Headers: []*corev3.HeaderValue{
			hv(":method", "POST"), hv(":path", "/v1/chat/completions"), hv(":authority", "gateway.local"), hv("content-type", "application/json"),
			hv("content-length", strconv.Itoa(len(body))), hv("x-request-id", "bench")}}}}},
		{Request: &extprocv3.ProcessingRequest_RequestBody{RequestBody: &extprocv3.HttpBody{Body: body, EndOfStream: true}}},
		{Request: &extprocv3.ProcessingRequest_ResponseHeaders{ResponseHeaders: &extprocv3.HttpHeaders{Headers: &corev3.HeaderMap{Headers: []*corev3.HeaderValue{
			hv(":status", "200"), hv("content-type", "application/json")}}}}},
	}
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
