package telemetry

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net"
	"sync"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	collectorpb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/semantic-router/semantic-router/internal/config"
)

// refusingCollector is an OTLP/gRPC trace collector that refuses exports while refuse is set.
type refusingCollector struct {
	collectorpb.UnimplementedTraceServiceServer
	mu       sync.Mutex
	refuse   bool
	accepted int
}

func (c *refusingCollector) Export(context.Context, *collectorpb.ExportTraceServiceRequest) (*collectorpb.ExportTraceServiceResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.refuse {
		// Not a code the exporter retries, so each flush fails at once.
		return nil, status.Error(codes.InvalidArgument, "refused")
	}
	c.accepted++
	return &collectorpb.ExportTraceServiceResponse{}, nil
}

func (c *refusingCollector) set(refuse bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.refuse = refuse
}

// TestFailingCollectorIsLoggedOnce: a collector that refuses batch after batch is one warning
// on the router's JSON log, and its recovery one info line; nothing per batch.
func TestFailingCollectorIsLoggedOnce(t *testing.T) {
	t.Parallel()
	col := &refusingCollector{refuse: true}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	collectorpb.RegisterTraceServiceServer(srv, col)
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(srv.Stop)

	var buf bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey || a.Key == "error" {
				return slog.Attr{} // the time, and gRPC's wording of the refusal, vary
			}
			return a
		},
	}))
	insecure := true
	ctx := context.Background()
	tr, err := NewTracing(ctx, config.Tracing{Enabled: true, Exporter: config.TracingExporter{Type: "otlp", Endpoint: ln.Addr().String(), Insecure: &insecure}}, "test", nil, log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tr.Shutdown(ctx) })
	tp := tr.Provider.(*sdktrace.TracerProvider)
	batch := func() {
		_, span := tr.Tracer().Start(ctx, "request")
		span.End()
		if err := tp.ForceFlush(ctx); err != nil {
			t.Fatalf("flush: %v", err)
		}
	}
	for range 3 {
		batch()
	}
	col.set(false)
	for range 2 {
		batch()
	}
	if col.accepted != 2 {
		t.Fatalf("the collector took %d batches, want 2", col.accepted)
	}
	want := `{"level":"WARN","msg":"exporting traces failed; spans are dropped until the collector takes them","endpoint":"` + ln.Addr().String() + `","spans":1}
{"level":"INFO","msg":"exporting traces again","endpoint":"` + ln.Addr().String() + `"}
`
	if got := buf.String(); got != want {
		t.Errorf("log:\n%s\nwant:\n%s", got, want)
	}
	for _, line := range bytes.Split(bytes.TrimSpace(buf.Bytes()), []byte("\n")) {
		if !json.Valid(line) {
			t.Errorf("not a JSON line: %s", line)
		}
	}
}
