package extproc

import (
	"bytes"
	"encoding/json"

	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/router"
)

// Bounds of what the processor keeps of an answer to find its usage.
const (
	maxJSONAnswer = 8 << 20 // a whole JSON answer longer than this reports no usage
	maxSSEEvent   = 1 << 20 // a longer event is skipped
)

// usageReader finds the token usage in an answer as Envoy passes it on, chunk by chunk: in a
// JSON body the top-level "usage", in a stream of server-sent events the last event that
// carries one. It keeps at most one event (a stream) or maxJSONAnswer bytes (a JSON body).
type usageReader struct {
	sse   bool
	buf   []byte
	skip  bool // the current event (or the JSON body) is over its bound
	usage *openai.Usage
	// answer, when set, assembles a streamed answer for the cache.
	answer *router.StreamAnswer
}

var (
	eventSep  = []byte("\n\n")
	dataField = []byte("data:")
	usageKey  = []byte(`"usage"`)
)

// Write takes the next chunk of the answer.
func (u *usageReader) Write(chunk []byte) {
	if !u.sse {
		if u.skip || len(u.buf)+len(chunk) > maxJSONAnswer {
			u.skip, u.buf = true, nil
			return
		}
		u.buf = append(u.buf, chunk...)
		return
	}
	// Servers end lines with \n or \r\n; JSON data holds no raw \r, so dropping every \r
	// leaves events that end at "\n\n", even when a chunk splits a \r\n.
	for _, c := range chunk {
		if c != '\r' {
			u.buf = append(u.buf, c)
		}
	}
	for {
		i := bytes.Index(u.buf, eventSep)
		if i < 0 {
			if len(u.buf) > maxSSEEvent {
				u.skip, u.buf = true, u.buf[:0]
			}
			return
		}
		if !u.skip {
			u.event(u.buf[:i])
		}
		u.skip = false
		u.buf = u.buf[:copy(u.buf, u.buf[i+len(eventSep):])]
	}
}

// event reads one server-sent event's data for a usage.
func (u *usageReader) event(ev []byte) {
	var data []byte
	for line := range bytes.SplitSeq(ev, []byte("\n")) {
		if rest, ok := bytes.CutPrefix(line, dataField); ok {
			data = append(data, bytes.TrimPrefix(rest, []byte(" "))...)
		}
	}
	if u.answer != nil && len(data) > 0 && !bytes.Equal(data, []byte("[DONE]")) {
		u.answer.Add(data)
	}
	if bytes.Contains(data, usageKey) {
		u.parse(data)
	}
}

func (u *usageReader) parse(b []byte) {
	var v struct {
		Usage *openai.Usage `json:"usage"`
	}
	if json.Unmarshal(b, &v) == nil && v.Usage != nil {
		u.usage = v.Usage
	}
}

// Whole returns the answer whole, once it has ended: a JSON answer as it came, a stream as
// the chat.completion it adds up to (when answer assembled it); false for an answer over the
// bound or a stream that did not finish.
func (u *usageReader) Whole() ([]byte, bool) {
	if u.sse {
		if u.answer == nil {
			return nil, false
		}
		return u.answer.Body()
	}
	if u.skip {
		return nil, false
	}
	return u.buf, true
}

// Usage returns the usage found, once the answer has ended; nil when it carried none.
func (u *usageReader) Usage() *openai.Usage {
	if !u.sse && !u.skip && u.usage == nil && bytes.Contains(u.buf, usageKey) {
		u.parse(u.buf)
	}
	return u.usage
}
