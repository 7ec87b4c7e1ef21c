package extproc

import (
	"bytes"

	"github.com/semantic-router/semantic-router/internal/router"
)

// usageDropper removes the usage from a stream whose client did not ask for it, chunk by
// chunk as Envoy passes the answer on: the usage-only event is dropped, and an event that
// carries a usage beside its choices is sent without it. An event split across chunks is held back
// until its end arrives, so that it can be judged whole, up to maxSSEEvent bytes; the last
// chunk takes whatever is held. Everything else passes unchanged, byte for byte.
type usageDropper struct {
	held []byte
	// long is set while the unfinished event is longer than maxSSEEvent: it is passed on as
	// it comes instead of being held (no usage-only chunk is that long), and not judged.
	long bool
}

// filter returns what to send on in place of chunk, and whether that differs from chunk
// (when it does not, Envoy is told to send the chunk as it is).
func (d *usageDropper) filter(chunk []byte, end bool) ([]byte, bool) {
	data := chunk
	if len(d.held) > 0 {
		data = append(d.held, chunk...)
	}
	var out []byte
	dropped := false
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
			if ev, changed := withoutUsage(data[start:i]); changed {
				out = append(out, data[kept:start]...)
				out = append(out, ev...)
				kept, dropped = i, true
			}
		}
		start, d.long = i, false
	}
	if end || d.long || len(data)-start > maxSSEEvent {
		d.long = !end
		start = len(data)
	}
	if !dropped && len(d.held) == 0 && start == len(data) {
		return chunk, false
	}
	out = append(out, data[kept:start]...)
	d.held = append(d.held[:0:0], data[start:]...)
	return out, true
}

// withoutUsage returns one server-sent event without its usage, and whether that differs
// from ev: nothing for a usage-only chunk, the chunk without its "usage" member for one that
// also has choices. The event is written again as one data line, with ev's line ending.
func withoutUsage(ev []byte) ([]byte, bool) {
	if !bytes.Contains(ev, usageKey) {
		return ev, false
	}
	var data []byte
	for line := range bytes.SplitSeq(ev, []byte("\n")) {
		line = bytes.TrimSuffix(line, []byte("\r"))
		if rest, ok := bytes.CutPrefix(line, dataField); ok {
			data = append(data, bytes.TrimPrefix(rest, []byte(" "))...)
		}
	}
	if router.UsageOnly(data) {
		return nil, true
	}
	kept := router.WithoutUsage(data)
	if bytes.Equal(kept, data) {
		return ev, false
	}
	eol := "\n"
	if bytes.HasSuffix(ev, []byte("\r\n")) {
		eol = "\r\n"
	}
	out := append([]byte(nil), dataField...)
	out = append(out, ' ')
	out = append(out, kept...)
	return append(out, eol+eol...), true
}
