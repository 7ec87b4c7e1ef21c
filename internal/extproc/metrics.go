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
// refusal that is the client's (4xx) in semantic_router_errors_total. status 0 (no answer
// passed the processor: the client went away first) is counted as 499. A request whose body
// was never parsed has no model, and is not counted, as on the HTTP listener.
func (s *Server) count(x *exchange, status int) {
	if s.metrics == nil || x.trail.Model == "" {
		return
	}
	if status == 0 {
		status = router.StatusClientClosed
	}
	s.metrics.Requests.WithLabelValues(endpointLabel, x.trail.Model, strconv.Itoa(status)).Inc()
	s.metrics.RequestDuration.WithLabelValues(x.trail.Model, strconv.FormatBool(x.trail.Stream)).Observe(time.Since(x.start).Seconds())
	if status >= http.StatusBadRequest && status < http.StatusInternalServerError && status != router.StatusClientClosed && x.err != nil {
		s.metrics.Errors.WithLabelValues(x.trail.Model, "client_error").Inc()
	}
}
