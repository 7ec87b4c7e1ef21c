package extproc

import (
	"net/url"
	"path"
	"strings"
)

// servedPath returns the path a model server serves for the request path raw (":path", with
// its query): percent-decoded, slashes merged, dot segments resolved and a trailing slash
// dropped, as servers such as vLLM's (uvicorn and Starlette decode the path before routing)
// and Go's read it. Envoy forwards the path as the client sent it unless its connection
// manager normalizes paths, so /v1/chat/%63ompletions or //v1/chat/completions is a chat
// completion to the server and must be one to the processor too, never a path it lets
// through unchecked. "" when raw is empty.
func servedPath(raw string) string {
	p, _, _ := strings.Cut(raw, "?")
	if p == "" {
		return ""
	}
	if u, err := url.PathUnescape(p); err == nil {
		p = u
	}
	return path.Clean("/" + p)
}
