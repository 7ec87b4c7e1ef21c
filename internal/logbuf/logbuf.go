// Package logbuf batches log output into fewer writes.
//
// The router writes a log line per request. At thousands of requests per second, one write
// system call per line costs more than formatting the line; a Writer collects lines and
// writes them together, at most Delay after the first one waiting.
package logbuf

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"time"
)

// DefaultDelay is how long a line waits, at most, for others to be written with it.
const DefaultDelay = 100 * time.Millisecond

// maxBytes is how much may wait: more is written at once.
const maxBytes = 64 << 10

// Writer collects what is written and writes it to its destination in batches: when 64 KiB
// are waiting, delay after the first waiting byte, or on Flush. Each Write lands whole and
// in order. It is safe for concurrent use.
type Writer struct {
	mu    sync.Mutex
	out   io.Writer
	delay time.Duration
	buf   []byte
	timer *time.Timer
	armed bool  // the timer will flush what waits
	err   error // the first failed write, for Flush
}

// New returns a Writer to out whose lines wait at most delay.
func New(out io.Writer, delay time.Duration) *Writer {
	w := &Writer{out: out, delay: delay}
	w.timer = time.AfterFunc(time.Hour, func() { _ = w.Flush() })
	w.timer.Stop()
	return w
}

// Write keeps p to be written with the lines around it. It never fails: a failed write to
// the destination is reported by Flush.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	if len(w.buf) >= maxBytes {
		w.flushLocked()
	} else if !w.armed {
		w.armed = true
		w.timer.Reset(w.delay)
	}
	return len(p), nil
}

// Flush writes what waits, and returns the first error any write to the destination has
// had.
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.flushLocked()
	return w.err
}

func (w *Writer) flushLocked() {
	if w.armed {
		w.timer.Stop()
		w.armed = false
	}
	if len(w.buf) == 0 {
		return
	}
	if _, err := w.out.Write(w.buf); err != nil && w.err == nil {
		w.err = err
	}
	if cap(w.buf) > 2*maxBytes {
		w.buf = nil // a burst of long lines does not pin its buffer
	} else {
		w.buf = w.buf[:0]
	}
}

// Handler wraps h, which writes to w, so that a record at level or above is written at once,
// with every line waiting before it: a warning or an error is never held back.
func Handler(h slog.Handler, w *Writer, level slog.Level) slog.Handler {
	return &handler{inner: h, w: w, level: level}
}

type handler struct {
	inner slog.Handler
	w     *Writer
	level slog.Level
}

func (h *handler) Enabled(ctx context.Context, l slog.Level) bool { return h.inner.Enabled(ctx, l) }

func (h *handler) Handle(ctx context.Context, rec slog.Record) error {
	err := h.inner.Handle(ctx, rec)
	if rec.Level >= h.level {
		_ = h.w.Flush()
	}
	return err
}

func (h *handler) WithAttrs(as []slog.Attr) slog.Handler {
	return &handler{inner: h.inner.WithAttrs(as), w: h.w, level: h.level}
}

func (h *handler) WithGroup(name string) slog.Handler {
	return &handler{inner: h.inner.WithGroup(name), w: h.w, level: h.level}
}
