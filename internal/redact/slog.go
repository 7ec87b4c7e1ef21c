package redact

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
)

// Handler wraps h so that every record's message and attribute values pass through r before
// h sees them: strings, errors and Stringers (as their text), groups recursively, and any
// other value whose JSON form holds a credential (then logged as that JSON, redacted).
// Attributes bound with WithAttrs are redacted when they are bound, with the values
// registered then; request-scoped loggers live too briefly for a rotation to matter.
func Handler(h slog.Handler, r *Redactor) slog.Handler {
	return &handler{inner: h, r: r}
}

type handler struct {
	inner slog.Handler
	r     *Redactor
}

func (h *handler) Enabled(ctx context.Context, l slog.Level) bool { return h.inner.Enabled(ctx, l) }

func (h *handler) Handle(ctx context.Context, rec slog.Record) error {
	if !h.r.Active() || !h.changes(&rec) {
		// Nothing to hide, which is every line but a rare few: the record goes on as it
		// came, without being copied. The check is a function of its own so that this
		// frame stays small: the access line of a stream is written at the bottom of the
		// connection's goroutine, whose stack is held for as long as the connection lives.
		return h.inner.Handle(ctx, rec)
	}
	return h.handleRedacted(ctx, rec)
}

// changes reports whether redaction changes rec's message or any of its attributes.
func (h *handler) changes(rec *slog.Record) bool {
	changed := h.r.String(rec.Message) != rec.Message
	if !changed {
		rec.Attrs(func(a slog.Attr) bool {
			_, changed = h.attr(a)
			return !changed
		})
	}
	return changed
}

// handleRedacted hands on a copy of rec with its message and attributes redacted.
func (h *handler) handleRedacted(ctx context.Context, rec slog.Record) error {
	out := slog.NewRecord(rec.Time, rec.Level, h.r.String(rec.Message), rec.PC)
	attrs := make([]slog.Attr, 0, rec.NumAttrs())
	rec.Attrs(func(a slog.Attr) bool {
		red, _ := h.attr(a)
		attrs = append(attrs, red)
		return true
	})
	out.AddAttrs(attrs...)
	return h.inner.Handle(ctx, out)
}

func (h *handler) WithAttrs(as []slog.Attr) slog.Handler {
	red := make([]slog.Attr, len(as))
	for i, a := range as {
		red[i], _ = h.attr(a)
	}
	return &handler{inner: h.inner.WithAttrs(red), r: h.r}
}

func (h *handler) WithGroup(name string) slog.Handler {
	return &handler{inner: h.inner.WithGroup(name), r: h.r}
}

// attr returns a with its value redacted, and whether that changed it.
func (h *handler) attr(a slog.Attr) (slog.Attr, bool) {
	v := a.Value.Resolve()
	changed := a.Value.Kind() == slog.KindLogValuer
	switch v.Kind() {
	case slog.KindString:
		s := v.String()
		red := h.r.String(s)
		a.Value = slog.StringValue(red)
		changed = changed || red != s
	case slog.KindGroup:
		g := v.Group()
		red := make([]slog.Attr, len(g))
		for i, ga := range g {
			var ch bool
			red[i], ch = h.attr(ga)
			changed = changed || ch
		}
		a.Value = slog.GroupValue(red...)
	case slog.KindAny:
		switch x := v.Any().(type) {
		case error:
			a.Value, changed = slog.StringValue(h.r.String(x.Error())), true
		case fmt.Stringer:
			a.Value, changed = slog.StringValue(h.r.String(x.String())), true
		case []byte:
			a.Value, changed = slog.StringValue(h.r.String(string(x))), true
		default:
			if b, err := json.Marshal(x); err == nil {
				if s := string(b); h.r.String(s) != s {
					a.Value, changed = slog.StringValue(h.r.String(s)), true
				}
			}
		}
	default:
		a.Value = v
	}
	return a, changed
}
