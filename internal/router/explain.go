package router

import (
	"slices"
	"strconv"
	"strings"
)

// Headers that explain a routing decision to the client, named in lower case as both front
// doors send them (HTTP/1.1 reads header names without regard to case).
const (
	HeaderRequestID          = "x-request-id"
	HeaderSelectedModel      = "x-vsr-selected-model"
	HeaderSelectedDecision   = "x-vsr-selected-decision"
	HeaderSelectedConfidence = "x-vsr-selected-confidence"
	HeaderFallbackFrom       = "x-vsr-fallback-from"
	HeaderMatchedSignals     = "x-vsr-matched-signals"
	// HeaderDebug set to "true" on a request asks for HeaderMatchedSignals on its answer.
	HeaderDebug = "x-vsr-debug"
)

// Explain returns the headers that explain rt: the decision's own extra headers, by name, then
// the selected model, the model a fallback replaced, the decision and its confidence, and with
// debug the names of the signals that matched (names only: values such as PII findings stay
// out of headers). Both front doors send exactly these, in this order.
func (rt *Route) Explain(debug bool) [][2]string {
	out := make([][2]string, 0, len(rt.Headers)+5)
	for k, v := range rt.Headers {
		out = append(out, [2]string{strings.ToLower(k), v})
	}
	// By name: a map's order changes from one answer to the next.
	slices.SortFunc(out, func(a, b [2]string) int { return strings.Compare(a[0], b[0]) })
	if rt.Model != "" {
		out = append(out, [2]string{HeaderSelectedModel, rt.Model})
	}
	if rt.FallbackFrom != "" {
		out = append(out, [2]string{HeaderFallbackFrom, rt.FallbackFrom})
	}
	if rt.Decision != "" {
		out = append(out, [2]string{HeaderSelectedDecision, rt.Decision},
			[2]string{HeaderSelectedConfidence, strconv.FormatFloat(rt.Confidence, 'f', 2, 64)})
	}
	if debug {
		var matched []string
		for _, s := range rt.Signals {
			if s.Matched {
				matched = append(matched, s.Name)
			}
		}
		out = append(out, [2]string{HeaderMatchedSignals, strings.Join(matched, ",")})
	}
	return out
}

// debugRequested reports whether the request's headers ask for the debug explanation.
func debugRequested(get func(string) string) bool { return get(HeaderDebug) == "true" }
