package extproc

import (
	"bytes"
	"net/http"

	"github.com/semantic-router/semantic-router/internal/router"
)

// answering sets up the reading and rewriting of the answer, once its headers came (or its
// first chunk, when Envoy sends no headers: its status is then unknown, 0, and a stream is
// taken for a 200, the only status a model server streams with). It returns the headers to
// remove from the answer: content-length when the body may not keep its length.
func (x *exchange) answering() (remove []string) {
	x.answered = true
	if x.plan == nil {
		return nil
	}
	ok := x.status == http.StatusOK || x.status == 0
	dropUsage := x.plan.DropUsage && x.usage.sse && ok
	if red := x.plan.Redaction(); dropUsage || red != nil {
		x.filter = &answerFilter{dropUsage: dropUsage, redact: red, sse: x.usage.sse}
		return []string{"content-length"}
	}
	return nil
}

// looksLikeEvents tells a stream of server-sent events from a JSON answer by its first
// chunk, for an answer whose content-type Envoy did not send: a JSON answer starts with an
// object (or an array), a stream with a field or a comment.
func looksLikeEvents(chunk []byte) bool {
	b := bytes.TrimLeft(chunk, " \t\r\n")
	return len(b) > 0 && b[0] != '{' && b[0] != '['
}

// answerFilter rewrites an answer chunk by chunk as Envoy passes it on, for what the HTTP
// listener does to the answers it relays:
//
//   - dropUsage: a stream whose client did not ask for its usage loses it: the usage-only
//     event is dropped, and an event that carries a usage beside its choices is sent
//     without its "usage" member;
//   - redact: the credentials the router holds are replaced in every event (a value cut
//     across events where the client joins the text, see router.AnswerRedaction), and in a
//     body that is not a stream, which is held whole, up to maxJSONAnswer bytes, and sent
//     with the last chunk.
//
// A stream's event split across chunks is held back until its end arrives, so that it can be
// judged whole, up to maxSSEEvent bytes; the last chunk takes whatever is held. Everything
// else passes unchanged, byte for byte.
type answerFilter struct {
	dropUsage bool
	redact    *router.AnswerRedaction // nil: the router holds no credential
	sse       bool

	held []byte
	// long is set while the unfinished event is longer than maxSSEEvent: it is passed on as
	// it comes instead of being held (no usage-only chunk is that long), and not judged.
	long bool
	// over is set once a body that is not a stream has passed maxJSONAnswer: the rest goes
	// on chunk by chunk, each redacted on its own.
	over bool
}

// filter returns what to send on in place of chunk, and whether that differs from chunk
// (when it does not, Envoy is told to send the chunk as it is).
func (d *answerFilter) filter(chunk []byte, end bool) ([]byte, bool) {
	if !d.sse {
		return d.body(chunk, end)
	}
	data := chunk
	if len(d.held) > 0 {
		data = append(d.held, chunk...)
	}
	var out []byte
	changed := false
	start, kept := 0, 0 // start of the current event; end of what is kept so far in data
	for i := 0; i < len(data); {
		nl := bytes.IndexByte(data[i:], '\n')
		if nl < 0 {
			break
		}
		line := bytes.TrimSuffix(data[i:i+nl], []byte("\r"))
		i += nl + 1
		if len(line) > 0 {
			continue
		}
		// A blank line ends the event data[start:i].
		if !d.long {
			if ev, ok := d.event(data[start:i]); ok {
				out = append(out, data[kept:start]...)
				out = append(out, ev...)
				kept, changed = i, true
			}
		}
		start, d.long = i, false
	}
	unfinished := start // where the event no blank line has ended yet begins
	if end || d.long || len(data)-start > maxSSEEvent {
		d.long = !end
		start = len(data)
	}
	var tail []byte
	if end && d.redact != nil {
		tail = writeEvents(nil, d.redact.End(), "\n")
	}
	if !changed && len(d.held) == 0 && start == len(data) && tail == nil {
		return chunk, false
	}
	// The events of held text go before the bytes of an unfinished event, which would
	// otherwise take them into its own data.
	out = append(out, data[kept:min(unfinished, start)]...)
	out = append(out, tail...)
	out = append(out, data[min(unfinished, start):start]...)
	d.held = append(d.held[:0:0], data[start:]...)
	return out, true
}

// body holds a body that is not a stream until its end, and sends it redacted; one longer
// than maxJSONAnswer goes on as it comes, each chunk redacted.
func (d *answerFilter) body(chunk []byte, end bool) ([]byte, bool) {
	if d.redact == nil {
		return chunk, false
	}
	if d.over {
		out := d.redact.Body(chunk)
		return out, !bytes.Equal(out, chunk)
	}
	d.held = append(d.held, chunk...)
	switch {
	case end:
		return d.redact.Body(d.held), true
	case len(d.held) > maxJSONAnswer:
		d.over = true
		out := d.redact.Body(d.held)
		d.held = nil
		return out, true
	}
	return nil, true
}

// event returns one server-sent event as it is to be sent, and whether that differs from
// ev. Data that is not a JSON chunk ([DONE], a comment) passes as it is; the text still held
// by the redaction goes out before [DONE].
func (d *answerFilter) event(ev []byte) ([]byte, bool) {
	data, eol := eventData(ev)
	if data == nil {
		return ev, false
	}
	if bytes.Equal(data, []byte("[DONE]")) {
		if d.redact == nil {
			return ev, false
		}
		held := d.redact.End()
		if len(held) == 0 {
			return ev, false
		}
		return append(writeEvents(nil, held, eol), ev...), true
	}
	changed := false
	if d.dropUsage && bytes.Contains(data, usageKey) {
		if router.UsageOnly(data) {
			return nil, true
		}
		if kept := router.WithoutUsage(data); !bytes.Equal(kept, data) {
			data, changed = kept, true
		}
	}
	events := [][]byte{data}
	if d.redact != nil {
		events = d.redact.Event(data)
		changed = changed || len(events) != 1 || !bytes.Equal(events[0], data)
	}
	if !changed {
		return ev, false
	}
	return writeEvents(nil, events, eol), true
}

// eventData returns the data of one server-sent event (nil when it has no data line), and
// its line ending.
func eventData(ev []byte) (data []byte, eol string) {
	eol = "\n"
	if bytes.HasSuffix(ev, []byte("\r\n")) {
		eol = "\r\n"
	}
	for line := range bytes.SplitSeq(ev, []byte("\n")) {
		line = bytes.TrimSuffix(line, []byte("\r"))
		if rest, ok := bytes.CutPrefix(line, dataField); ok {
			data = append(data, bytes.TrimPrefix(rest, []byte(" "))...)
		}
	}
	return data, eol
}

// writeEvents appends each data as one event.
func writeEvents(b []byte, events [][]byte, eol string) []byte {
	for _, data := range events {
		b = append(b, dataField...)
		b = append(b, ' ')
		b = append(b, data...)
		b = append(b, eol+eol...)
	}
	return b
}
