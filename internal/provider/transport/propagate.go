package transport

import (
	"net/http"

	"go.opentelemetry.io/otel/propagation"
)

// WithTracePropagation returns rt with the trace context of each request's context written
// into its headers (traceparent), so a traced model server (vLLM exports OpenTelemetry spans)
// joins the router's trace. With a nil propagator it returns rt.
func WithTracePropagation(rt http.RoundTripper, p propagation.TextMapPropagator) http.RoundTripper {
	if p == nil {
		return rt
	}
	return propagating{rt: rt, p: p}
}

type propagating struct {
	rt http.RoundTripper
	p  propagation.TextMapPropagator
}

func (t propagating) RoundTrip(req *http.Request) (*http.Response, error) {
	carrier := propagation.HeaderCarrier{}
	t.p.Inject(req.Context(), carrier)
	if len(carrier) == 0 {
		return t.rt.RoundTrip(req)
	}
	// A RoundTripper must not modify the request it was given.
	r := req.Clone(req.Context())
	for k, v := range carrier {
		r.Header[k] = v
	}
	return t.rt.RoundTrip(r)
}
