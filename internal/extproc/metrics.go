package extproc

import (
	"net/http"
	"strconv"
	"time"

	"github.com/semantic-router/semantic-router/internal/router"
)

// endpointLabel is the endpoint label of the requests the processor counts, beside the HTTP
// listener's "inference".
const endpointLabel = "extproc"

// count counts an ended chat request in semantic_router_requests_total and
// semantic_router_request_duration_seconds, as the HTTP listener counts its requests, and a
// refusal that is the client's (4xx) in semantic_router_errors_total. With no status (no
// answer's headers passed the processor), the code is 499 when the exchange was cut (cause:
// the client went away first), and "unknown" for an answer that ended without Envoy sending
// its headers (response_header_mode SKIP). A request whose body was never parsed has no
// model, and is not counted, as on the HTTP listener.
func (s *Server) count(x *exchange, status int, cause error) {
	if s.metrics == nil || x.trail.Model == "" {
		return
	}
	code := strconv.Itoa(status)
	switch {
	case status == 0 && cause != nil:
		status, code = router.StatusClientClosed, strconv.Itoa(router.StatusClientClosed)
	case status == 0:
		code = "unknown"
	}
	s.metrics.Requests.WithLabelValues(endpointLabel, x.trail.Model, code).Inc()
	s.metrics.RequestDuration.WithLabelValues(x.trail.Model, strconv.FormatBool(x.trail.Stream)).Observe(time.Since(x.start).Seconds())
	if status >= http.StatusBadRequest && status < http.StatusInternalServerError && status != router.StatusClientClosed && x.err != nil {
		s.metrics.Errors.WithLabelValues(x.trail.Model, "client_error").Inc()
	}
}
