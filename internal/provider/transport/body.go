package transport

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptrace"
	"sync"
)

// errBodySent is what GetBody returns once the request has been answered: the transport no
// longer sends a request again by then.
var errBodySent = errors.New("the request body was let go of once the request was answered")

// NewPost returns a POST of body to url that lets go of body once it is no longer needed,
// and the function to call once the transport has returned (with an answer or an error).
//
// A request built by http.NewRequest keeps its body for as long as the transport keeps the
// request, that is until the answer has been read to its end. For a stream that is minutes,
// and the body is the whole conversation, often hundreds of kilobytes. This request drops
// the bytes it sends once they have been written whole, and the copy it could send again
// (GetBody, for a reused connection the server had closed) once answered is called. The
// body stays a *bytes.Reader, which the transport writes with the headers in one write.
func NewPost(ctx context.Context, url string, body []byte) (req *http.Request, answered func(), err error) {
	if len(body) == 0 {
		req, err = http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
		return req, func() {}, err
	}
	p := &post{b: body, r: bytes.NewReader(body)}
	p.trace.WroteRequest = p.wrote
	req, err = http.NewRequestWithContext(httptrace.WithClientTrace(ctx, &p.trace), http.MethodPost, url, nil)
	if err != nil {
		return nil, nil, err
	}
	req.Body = io.NopCloser(p.r)
	req.ContentLength = int64(len(body))
	req.GetBody = p.again
	return req, p.answered, nil
}

// post is a request's body: the bytes to send again until answered, and the reader of the
// attempt being written.
type post struct {
	mu    sync.Mutex
	b     []byte
	r     *bytes.Reader
	trace httptrace.ClientTrace
}

// again is the request's GetBody: the transport calls it on the caller's goroutine, within
// RoundTrip, to send the request once more.
func (p *post) again() (io.ReadCloser, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.b == nil {
		return nil, errBodySent
	}
	p.r = bytes.NewReader(p.b)
	return io.NopCloser(p.r), nil
}

// wrote is called on the goroutine that wrote the request, once it has. A request written
// whole is not written again from that reader: a POST is sent again only when nothing of
// it was written, or over HTTP/2 when the server refused the stream, and then from a new
// reader (again), which the transport asks for only after this call.
func (p *post) wrote(info httptrace.WroteRequestInfo) {
	if info.Err != nil {
		return
	}
	p.mu.Lock()
	p.r.Reset(nil)
	p.mu.Unlock()
}

// answered drops the copy: once RoundTrip has returned, the transport never sends the
// request again.
func (p *post) answered() {
	p.mu.Lock()
	p.b = nil
	p.mu.Unlock()
}
