package providertest

import (
	"fmt"
	"net/http"
	"strings"
)

// Misbehaviours a fake can be scripted with (Reply.Misbehave): what a broken, hostile or
// misconfigured backend does. Each fake speaks them in its own wire format.
const (
	// EchoCredentials fails with Reply.Status (500 if unset) and an error message that
	// echoes the credential-bearing headers the request carried, as some servers do.
	EchoCredentials = "echo-credentials"
	// EchoInStream starts a stream, then fails it with an error event that echoes the
	// request's credential headers.
	EchoInStream = "echo-in-stream"
	// Redirect307 and Redirect302 answer with that redirect to FollowedPath, where a
	// request that followed it would get a valid completion.
	Redirect307 = "redirect-307"
	Redirect302 = "redirect-302"
	// HugeBody answers a plain call with a valid-looking JSON completion of
	// Reply.BodyBytes bytes, written in pieces until the client hangs up.
	HugeBody = "huge-body"
	// StreamCut stops a stream after its first text, with no finish and no end marker.
	StreamCut = "stream-cut"
	// StreamGarbage sends an event whose data is not JSON after the first text.
	StreamGarbage = "stream-garbage"
)

// FollowedPath is where a scripted redirect points.
const FollowedPath = "/followed"

// echoed is the error message of a backend that echoes the credential headers it received.
func echoed(r *http.Request) string {
	var b strings.Builder
	b.WriteString("invalid request; received headers:")
	for _, h := range []string{"Authorization", "X-Amz-Security-Token", "X-Api-Key"} {
		if v := r.Header.Get(h); v != "" {
			fmt.Fprintf(&b, " %s=%s", h, v)
		}
	}
	return b.String()
}

// serveCommon answers the misbehaviours every fake speaks alike: redirects and the
// followed redirect target. It reports whether it answered.
func serveCommon(w http.ResponseWriter, r *http.Request, s *Script, reply Reply) bool {
	switch reply.Misbehave {
	case Redirect307, Redirect302:
		code := http.StatusTemporaryRedirect
		if reply.Misbehave == Redirect302 {
			code = http.StatusFound
		}
		w.Header().Set("Location", FollowedPath)
		w.WriteHeader(code)
		return true
	case HugeBody:
		w.Header().Set("Content-Type", "application/json")
		s.writeHuge(w, reply.BodyBytes)
		return true
	}
	return false
}

// serveFollowed answers a request that followed a scripted redirect, and records it.
func serveFollowed(w http.ResponseWriter, s *Script) {
	s.mu.Lock()
	s.followed = true
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprint(w, `{"id":"chatcmpl-followed","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"followed"},"finish_reason":"stop"}],`+
		`"output":{"message":{"role":"assistant","content":[{"text":"followed"}]}},"stopReason":"end_turn",`+
		`"candidates":[{"content":{"role":"model","parts":[{"text":"followed"}]},"finishReason":"STOP"}]}`)
}

// writeHuge writes a JSON completion whose content pads it to n bytes, in 64 KiB pieces,
// and records how much was written and whether a write failed (the client hung up).
func (s *Script) writeHuge(w http.ResponseWriter, n int64) {
	rc := http.NewResponseController(w)
	head := `{"choices":[{"index":0,"message":{"role":"assistant","content":"`
	tail := `"},"finish_reason":"stop"}]}`
	piece := []byte(strings.Repeat("x", 64<<10))
	record := func(k int, err error) bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.hugeWritten += int64(k)
		if err != nil {
			s.hungUp = true
		}
		return err == nil
	}
	k, err := fmt.Fprint(w, head)
	if !record(k, err) {
		return
	}
	for left := n - int64(len(head)+len(tail)); left > 0; left -= int64(len(piece)) {
		p := piece[:min(int64(len(piece)), left)]
		k, err := w.Write(p)
		if err == nil {
			err = rc.Flush()
		}
		if !record(k, err) {
			return
		}
	}
	k, err = fmt.Fprint(w, tail)
	record(k, err)
}

// Followed reports whether a request followed a scripted redirect.
func (s *Script) Followed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.followed
}

// Huge reports how many bytes of a HugeBody answer were written and whether the client
// hung up before the end.
func (s *Script) Huge() (written int64, hungUp bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hugeWritten, s.hungUp
}
