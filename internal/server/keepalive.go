package server

import (
	"net/http"
	"sync"
	"time"
)

var keepAliveComment = []byte(": keep-alive\n\n")

// streamWriter writes a stream's events and, when the upstream stays silent for interval,
// an SSE comment, so that proxies and load balancers with idle timeouts do not cut a stream
// whose model is thinking. Clients ignore comments. The comment is written by a timer, not
// a goroutine, so a waiting stream costs no more than its connections; every write goes
// through the writer's lock, so a comment never lands inside an event.
type streamWriter struct {
	mu       sync.Mutex
	w        http.ResponseWriter
	rc       *http.ResponseController
	interval time.Duration
	timer    *time.Timer // nil without keep-alives
	stopped  bool
	comment  func() // counts a comment written
}

// newStreamWriter returns the writer of a stream whose headers are out. interval 0 turns
// keep-alives off.
func newStreamWriter(w http.ResponseWriter, rc *http.ResponseController, interval time.Duration, comment func()) *streamWriter {
	sw := &streamWriter{w: w, rc: rc, interval: interval, comment: comment}
	if interval > 0 {
		sw.timer = time.AfterFunc(interval, sw.keepAlive)
	}
	return sw
}

func (sw *streamWriter) keepAlive() {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	if sw.stopped {
		return
	}
	if _, err := sw.w.Write(keepAliveComment); err != nil {
		return // the client is gone; the next event's write says so
	}
	if err := sw.rc.Flush(); err != nil {
		return
	}
	sw.comment()
	sw.timer.Reset(sw.interval)
}

// event writes prefix, data and suffix as one event, flushes it and starts the silence
// interval again.
func (sw *streamWriter) event(prefix, data, suffix []byte) error {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	if sw.timer != nil {
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
	return sw.rc.Flush()
}

// stop ends the keep-alives; once it returns nothing writes to the response any more.
func (sw *streamWriter) stop() {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	sw.stopped = true
	if sw.timer != nil {
		sw.timer.Stop()
	}
}
