package router

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
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

// TestUpstreamSpanOfAFailedCall: each failed attempt's upstream span names the failure's
// class (error.type) and, when the model server answered, its HTTP status.
func TestUpstreamSpanOfAFailedCall(t *testing.T) {
	t.Parallel()
	up := newUpstream(t)
	up.fail(failure{status: 503}, failure{status: 500})
	tracing, exp := newTracing(t)
	r := buildRouter(t, "models:\n"+upstreamModel("m", up, "    retry: {max_attempts: 2, initial_backoff: 1ms, max_backoff: 2ms}\n")+
		"  - model_name: down\n    provider: {type: openai_compatible, base_url: \"http://127.0.0.1:1/v1\"}\n", nil, Options{Tracing: tracing})
	p := NewPipeline(NewHolder(r), PipelineOptions{Tracing: tracing})
	for _, model := range []string{"m", "down"} {
		if _, _, err := serveOn(p, chat(model, "hi")); err == nil {
			t.Fatalf("%s: served, want a failure", model)
		}
	}
	var got []string
	for _, s := range exp.GetSpans() {
		if s.Name != "upstream" {
			continue
		}
		line := s.Status.Description
		for _, a := range s.Attributes {
			switch a.Key {
			case "vsr.model", "vsr.attempt", "error.type", "http.response.status_code":
				line += " " + string(a.Key) + "=" + a.Value.String()
			}
		}
		got = append(got, line)
	}
	want := []string{
		"upstream vsr.model=m vsr.attempt=1 error.type=upstream http.response.status_code=503",
		"upstream vsr.model=m vsr.attempt=2 error.type=upstream http.response.status_code=500",
		"connect vsr.model=down vsr.attempt=1 error.type=connect",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("upstream spans:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
