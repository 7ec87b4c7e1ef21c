package server

import (
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/semantic-router/semantic-router/internal/openai"
)

var keepAliveComment = []byte(": keep-alive\n\n")

// streamWriter writes a stream's status, headers and events and, when the upstream stays
// silent for interval, an SSE comment, so that proxies and load balancers with idle timeouts
// do not cut a stream whose model is thinking or slow to start. Clients ignore comments. The
// comment is written by a timer, not a goroutine, so a waiting stream costs no more than its
// connections; every write goes through the writer's lock, so a comment never lands inside
// an event.
type streamWriter struct {
	mu        sync.Mutex
	w         http.ResponseWriter
	rc        *http.ResponseController
	interval  time.Duration
	timer     *time.Timer // nil without keep-alives
	explain   [][2]string // the explanation headers a keep-alive sends if it goes first
	committed bool        // the status is written: it leaves with the next flush
	stopped   bool
	comment   func() // counts a comment written
}

// newStreamWriter returns the writer of a stream whose status is not written yet; explain
// holds the explanation headers to send if a keep-alive comment goes before the first
// event. interval 0 turns keep-alives off.
func newStreamWriter(w http.ResponseWriter, interval time.Duration, explain [][2]string, comment func()) *streamWriter {
	sw := &streamWriter{w: w, rc: http.NewResponseController(w), interval: interval, explain: explain, comment: comment}
	// The pipeline has read the body to its end; full duplex keeps Go's server from cutting
	// a long answer written while the client's side of the connection is still open.
	_ = sw.rc.EnableFullDuplex()
	if interval > 0 {
		sw.mu.Lock() // the timer's first run reads sw.timer
		sw.timer = time.AfterFunc(interval, sw.keepAlive)
		sw.mu.Unlock()
	}
	return sw
}

func (sw *streamWriter) keepAlive() {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	if sw.stopped {
		return
	}
	sw.commitLocked(sw.explain)
	if _, err := sw.w.Write(keepAliveComment); err != nil {
		return // the client is gone; the next event's write says so
	}
	if err := sw.rc.Flush(); err != nil {
		return
	}
	sw.comment()
	sw.timer.Reset(sw.interval)
}

// begin writes the stream's status with explain as its explanation headers, unless a
// keep-alive comment has already sent it. The status and headers leave with the first event.
func (sw *streamWriter) begin(explain [][2]string) {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	sw.commitLocked(explain)
}

func (sw *streamWriter) commitLocked(explain [][2]string) {
	if sw.committed {
		return
	}
	sw.committed = true
	hd := sw.w.Header()
	for _, kv := range explain {
		hd.Set(kv[0], kv[1])
	}
	hd.Set("Content-Type", "text/event-stream")
	hd.Set("Cache-Control", "no-cache")
	hd.Set("X-Accel-Buffering", "no") // tell buffering proxies in front of us not to
	sw.w.WriteHeader(http.StatusOK)
}

// event writes prefix, data and suffix as one event, flushes it and starts the silence
// interval again.
func (sw *streamWriter) event(prefix, data, suffix []byte) error {
	if err := sw.write(prefix, data, suffix); err != nil {
		return err
	}
	return sw.flush()
}

// flush sends what the writer holds.
func (sw *streamWriter) flush() error {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	return sw.rc.Flush()
}

// write writes prefix, data and suffix as one event without flushing it, and starts the
// silence interval again. The event leaves with the next flush, or when the response's
// buffer fills.
func (sw *streamWriter) write(prefix, data, suffix []byte) error {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	if sw.timer != nil && !sw.stopped {
		sw.timer.Reset(sw.interval)
	}
	for _, b := range [...][]byte{prefix, data, suffix} {
		if len(b) == 0 {
			continue
		}
		if _, err := sw.w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// errorEvent sends err as an event in the OpenAI error format: once the status is out, it is
// how a failure reaches the client. The stream then ends without [DONE], which clients read
// as incomplete.
func (sw *streamWriter) errorEvent(err error) {
	var apiErr *openai.APIError
	if !errors.As(err, &apiErr) {
		return
	}
	if b, merr := json.Marshal(apiErr.Envelope()); merr == nil {
		_ = sw.event(dataPrefix, b, eventEnd)
	}
}

// stop ends the keep-alives and reports whether the status was written; once it returns
// nothing but the caller writes to the response.
func (sw *streamWriter) stop() (committed bool) {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	sw.stopped = true
	if sw.timer != nil {
		sw.timer.Stop()
	}
	return sw.committed
}
