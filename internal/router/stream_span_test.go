package router

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// TestStreamUpstreamSpan: a stream's upstream span lasts until the answer has ended, and a
// model that fails after its first event marks it as failed.
func TestStreamUpstreamSpan(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		end  string // what the backend sends after its second event
		code codes.Code
		desc string
	}{
		{"a whole answer", "data: [DONE]\n\n", codes.Unset, ""},
		{"cut after its first events", "", codes.Error, "protocol"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			release := make(chan struct{})
			be := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				chunk := `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"up","choices":[{"index":0,"delta":{"content":"%s"},"finish_reason":null}]}` + "\n\n"
				fmt.Fprintf(w, chunk, "hel")
				w.(http.Flusher).Flush()
				select {
				case <-release:
				case <-r.Context().Done():
					return
				}
				fmt.Fprintf(w, chunk, "lo")
				fmt.Fprint(w, tt.end)
			}))
			t.Cleanup(be.Close)
			tracing, exp := newTracing(t)
			r := buildRouter(t, "models:\n  - model_name: m\n    provider: {type: openai_compatible, base_url: "+be.URL+"/v1}\n", nil, Options{Tracing: tracing})
			res, _, err := NewPipeline(NewHolder(r), PipelineOptions{Tracing: tracing}).Serve(context.Background(),
				&Request{ID: "test", Header: http.Header{}, Body: newBody(chatBody("m", "hi", true))})
			if err != nil {
				t.Fatalf("serve: %v", err)
			}
			defer res.Close()
			if _, err := res.Stream.Next(); err != nil {
				t.Fatalf("first event: %v", err)
			}
			if upstreamSpan(exp) != nil {
				t.Errorf("the upstream span ended at the first event, while the model was still answering")
			}
			close(release)
			for {
				if _, err := res.Stream.Next(); err != nil {
					if tt.code == codes.Unset && !errors.Is(err, io.EOF) {
						t.Fatalf("stream: %v", err)
					}
					break
				}
			}
			res.Close()
			s := upstreamSpan(exp)
			if s == nil {
				t.Fatal("no upstream span once the stream was closed")
			}
			if s.Status.Code != tt.code || s.Status.Description != tt.desc {
				t.Errorf("upstream span status %v %q, want %v %q", s.Status.Code, s.Status.Description, tt.code, tt.desc)
			}
		})
	}
}

// upstreamSpan returns the ended span named upstream, or nil.
func upstreamSpan(exp *tracetest.InMemoryExporter) *tracetest.SpanStub {
	for _, s := range exp.GetSpans() {
		if s.Name == "upstream" {
			return &s
		}
	}
	return nil
}
