package server

import (
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/semantic-router/semantic-router/internal/openai"
)

// decodedBody returns the body of r with its Content-Encoding undone: none and identity as
// sent, gzip (x-gzip too) decompressed as it is read. Any other coding, or several, is a 415
// that names the one accepted (RFC 9110 §15.5.16), rather than bytes read as JSON and
// refused as "not a JSON object". The limit on the body (server.max_request_body_bytes)
// applies to the decompressed bytes, since the caller reads through it: a small gzip bomb
// gets the same 413 as a large body. The gzip header is read with the first Read, not here,
// so that admission still answers before any byte of the body is read. length is the
// decoded body's length as announced (Content-Length), -1 when unknown (a compressed body).
func decodedBody(r *http.Request) (body io.Reader, length int64, err error) {
	codings := r.Header.Values("Content-Encoding")
	if len(codings) == 0 {
		return r.Body, r.ContentLength, nil
	}
	coding := strings.ToLower(strings.TrimSpace(strings.Join(codings, ",")))
	switch coding {
	case "", "identity":
		return r.Body, r.ContentLength, nil
	case "gzip", "x-gzip":
		return &gzipBody{src: r.Body}, -1, nil
	}
	return nil, -1, &openai.APIError{Status: http.StatusUnsupportedMediaType, Type: openai.TypeInvalidRequest,
		Code: "unsupported_content_encoding", Header: map[string]string{"accept-encoding": "gzip"},
		Message: fmt.Sprintf("Content-Encoding %q is not supported; send the body as is or with Content-Encoding: gzip", clip(coding))}
}

// gzipBody decompresses src, opening the gzip stream on the first Read. Its errors say that
// the body was not valid gzip and wrap the cause (a read deadline stays os.ErrDeadlineExceeded).
type gzipBody struct {
	src io.Reader
	zr  *gzip.Reader
}

func (g *gzipBody) Read(p []byte) (int, error) {
	if g.zr == nil {
		zr, err := gzip.NewReader(g.src)
		if err != nil {
			return 0, gzipError(err)
		}
		g.zr = zr
	}
	n, err := g.zr.Read(p)
	if err != nil && !errors.Is(err, io.EOF) {
		err = gzipError(err)
	}
	return n, err
}

func gzipError(err error) error {
	if errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF // an empty body is no gzip stream
	}
	return fmt.Errorf("the body is not valid gzip (Content-Encoding: gzip): %w", err)
}
