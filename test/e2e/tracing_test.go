package e2e

import (
	"context"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	collectorpb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/grpc"

	"github.com/semantic-router/semantic-router/internal/provider/sim"
)

// collector is an OTLP/gRPC trace collector that keeps every span it receives.
type collector struct {
	collectorpb.UnimplementedTraceServiceServer
	mu    sync.Mutex
	spans []*tracepb.Span
}

func (c *collector) Export(_ context.Context, req *collectorpb.ExportTraceServiceRequest) (*collectorpb.ExportTraceServiceResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, rs := range req.ResourceSpans {
		for _, ss := range rs.ScopeSpans {
			c.spans = append(c.spans, ss.Spans...)
		}
	}
	return &collectorpb.ExportTraceServiceResponse{}, nil
}

func (c *collector) byName() map[string]*tracepb.Span {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[string]*tracepb.Span{}
	for _, s := range c.spans {
		out[s.Name] = s
	}
	return out
}

// TestTracingExportsSpansAndPropagatesContext runs the router with tracing on against an
// in-process OTLP collector: a request that carries a traceparent gets its server, route and
// upstream spans in the caller's trace, the backend receives the same trace, and no span
// holds the prompt.
func TestTracingExportsSpansAndPropagatesContext(t *testing.T) {
	t.Parallel()
	col := &collector{}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	collectorpb.RegisterTraceServiceServer(srv, col)
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(srv.Stop)

	var mu sync.Mutex
	var upstreamTraceparent string
	h := sim.Handler(sim.Options{Model: "up"})
	be := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		upstreamTraceparent = r.Header.Get("Traceparent")
		mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(be.Close)

	r := startRouter(t, compatConfig(be.URL, "")+fmt.Sprintf(`
observability:
  tracing:
    enabled: true
    exporter: {type: otlp, endpoint: "%s", insecure: true}
    sampling: {type: always_on}
`, ln.Addr().String()))
	const traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
	const prompt = "my secret prompt text"
	resp, body := do(t, "POST", r.Inference+"/v1/chat/completions",
		`{"model":"auto","messages":[{"role":"user","content":"`+prompt+`"}]}`,
		"traceparent", "00-"+traceID+"-00f067aa0ba902b7-01")
	if resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	r.Stop() // flushes the batch of spans

	spans := col.byName()
	for _, name := range []string{"POST /v1/chat/completions", "route", "upstream"} {
		s, ok := spans[name]
		if !ok {
			t.Errorf("no %q span; got %v", name, spans)
			continue
		}
		if got := hex.EncodeToString(s.TraceId); got != traceID {
			t.Errorf("%s: trace id %s, want the caller's %s", name, got, traceID)
		}
	}
	attrs := map[string]string{}
	for _, s := range spans {
		for _, a := range s.Attributes {
			attrs[a.Key] = a.Value.String()
			if strings.Contains(a.Value.String(), prompt) {
				t.Errorf("span %s attribute %s holds the prompt", s.Name, a.Key)
			}
		}
	}
	if !strings.Contains(attrs["vsr.selected_model"], "chat") || !strings.Contains(attrs["vsr.decision"], "default") {
		t.Errorf("span attributes %v", attrs)
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(upstreamTraceparent, traceID) {
		t.Errorf("the backend got traceparent %q, want trace %s", upstreamTraceparent, traceID)
	}
	if !strings.Contains(r.logs.String(), `"trace_id":"`+traceID+`"`) {
		t.Error("the request log line lacks the trace id")
	}
}
