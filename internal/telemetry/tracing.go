package telemetry

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"time"

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/stdout/stdouttrace"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.37.0"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/semantic-router/semantic-router/internal/config"
)

// Tracing is the router's tracer and what it needs at shutdown. The zero value (and
// NewTracing with tracing disabled) traces nothing at no cost.
type Tracing struct {
	// Provider makes the router's tracers.
	Provider trace.TracerProvider
	// Propagator reads and writes W3C trace context (traceparent) on HTTP headers.
	Propagator propagation.TextMapPropagator
	shutdown   func(context.Context) error
}

// TracerName is the instrumentation scope of the router's spans.
const TracerName = "github.com/semantic-router/semantic-router"

// NewTracing sets up OpenTelemetry tracing as configured: spans go to an OTLP/gRPC collector
// (or as JSON to stdout, for debugging), sampled as configured, and W3C trace context is
// honoured on incoming requests and passed on to backends. Nothing is connected here: the
// exporter dials lazily, so an unreachable collector never stops the router.
//
// Spans carry routing facts (models, decision, status, sizes) and never prompt or answer
// text: traces often travel further than the request data's owners would like.
//
// An exporter that fails is logged on log once, and again once when it works again; nil
// logs nothing.
func NewTracing(ctx context.Context, c config.Tracing, version string, stdout io.Writer, log *slog.Logger) (*Tracing, error) {
	t := &Tracing{
		Provider:   noop.NewTracerProvider(),
		Propagator: propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}),
		shutdown:   func(context.Context) error { return nil },
	}
	if !c.Enabled {
		return t, nil
	}
	var exp sdktrace.SpanExporter
	var err error
	switch c.Exporter.Type {
	case "stdout":
		exp, err = stdouttrace.New(stdouttrace.WithWriter(stdout))
	default:
		opts := []otlptracegrpc.Option{otlptracegrpc.WithEndpoint(c.Exporter.Endpoint)}
		if c.Exporter.Insecure == nil || *c.Exporter.Insecure {
			opts = append(opts, otlptracegrpc.WithInsecure())
		}
		exp, err = otlptracegrpc.New(ctx, opts...)
	}
	if err != nil {
		return nil, fmt.Errorf("tracing exporter %s: %w", c.Exporter.Type, err)
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	exp = &loggedExporter{SpanExporter: exp, log: log, endpoint: c.Exporter.Endpoint}
	var sampler sdktrace.Sampler
	switch c.Sampling.Type {
	case "always_off":
		sampler = sdktrace.NeverSample()
	case "probabilistic":
		rate, _ := strconv.ParseFloat(c.Sampling.Rate, 64) // validated by the config
		sampler = sdktrace.TraceIDRatioBased(rate)
	default:
		sampler = sdktrace.AlwaysSample()
	}
	res := resource.NewSchemaless(semconv.ServiceName("semantic-router"), semconv.ServiceVersion(version))
	tp := sdktrace.NewTracerProvider(
		sdktrace.WithBatcher(exp, sdktrace.WithBatchTimeout(time.Second)),
		// A caller's sampling decision (its traceparent) wins, so one trace is whole or absent.
		sdktrace.WithSampler(sdktrace.ParentBased(sampler)),
		sdktrace.WithResource(res),
	)
	t.Provider, t.shutdown = tp, tp.Shutdown
	return t, nil
}

// Tracer returns the router's tracer.
func (t *Tracing) Tracer() trace.Tracer {
	if t == nil || t.Provider == nil {
		return noop.NewTracerProvider().Tracer(TracerName)
	}
	return t.Provider.Tracer(TracerName)
}

// Shutdown flushes the spans still buffered, within ctx.
func (t *Tracing) Shutdown(ctx context.Context) error {
	if t == nil || t.shutdown == nil {
		return nil
	}
	return t.shutdown(ctx)
}
