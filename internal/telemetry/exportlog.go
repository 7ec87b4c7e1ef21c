package telemetry

import (
	"context"
	"log/slog"
	"sync/atomic"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// loggedExporter reports a collector that refuses or cannot be reached through the router's
// logger: once, at warn, when exports start failing, and once, at info, when one succeeds
// again. Without it the SDK hands every failed batch to OpenTelemetry's global error
// handler, which prints an unstructured line on stderr each batch timeout for as long as
// the collector is down. A failed batch is dropped either way; requests never wait for it.
// It is safe for concurrent use.
type loggedExporter struct {
	sdktrace.SpanExporter
	log      *slog.Logger
	endpoint string
	failing  atomic.Bool
}

// ExportSpans exports through the wrapped exporter and logs a change between failing and
// working. It returns nil so that the SDK does not report the failure a second time.
func (e *loggedExporter) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	err := e.SpanExporter.ExportSpans(ctx, spans)
	if err != nil {
		if !e.failing.Swap(true) {
			e.log.Warn("exporting traces failed; spans are dropped until the collector takes them",
				"endpoint", e.endpoint, "spans", len(spans), "error", err.Error())
		}
		return nil
	}
	if e.failing.Swap(false) {
		e.log.Info("exporting traces again", "endpoint", e.endpoint)
	}
	return nil
}

var _ sdktrace.SpanExporter = (*loggedExporter)(nil)
