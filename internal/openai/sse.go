package openai

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/go-json-experiment/json/jsontext"
)

// SSEEvent is one server-sent event.
type SSEEvent struct {
	// Event is the "event:" field; empty for the default "message" type.
	Event string
	// Data is the event's data lines joined by newlines. It is valid until the next call to Next.
	Data []byte
}

// Done reports whether the event is the OpenAI end-of-stream marker "[DONE]".
func (e SSEEvent) Done() bool { return bytes.Equal(e.Data, doneMarker) }

var doneMarker = []byte("[DONE]")

// MaxSSEEventBytes bounds one event, so a misbehaving upstream cannot make the router buffer
// without limit.
const MaxSSEEventBytes = 8 << 20

// ErrSSEEventTooLarge is returned when an event exceeds MaxSSEEventBytes.
var ErrSSEEventTooLarge = errors.New("sse: event larger than 8 MiB")

// SSEReader decodes a text/event-stream body. It is not safe for concurrent use.
type SSEReader struct {
	r     *bufio.Reader
	data  []byte
	event string
	line  []byte
}

// sseBufferBytes is the read buffer of an SSEReader. A stream of tokens sends events of a few
// hundred bytes, and a longer line is assembled across reads, so the buffer stays small: a
// router holding thousands of streams keeps one per stream.
const sseBufferBytes = 1 << 10

// NewSSEReader returns a reader of the events in r.
func NewSSEReader(r io.Reader) *SSEReader {
	return &SSEReader{r: bufio.NewReaderSize(r, sseBufferBytes)}
}

// Next returns the next event with data. Comments, retry and id fields are skipped. At the
// end of the body it returns io.EOF; a body that ends inside an event returns
// io.ErrUnexpectedEOF, so a cut stream is never mistaken for a complete one.
func (s *SSEReader) Next() (SSEEvent, error) {
	s.data = s.data[:0]
	s.event = ""
	hasData := false
	for {
		line, err := s.readLine()
		if err != nil {
			if errors.Is(err, io.EOF) && (hasData || len(line) > 0) {
				return SSEEvent{}, io.ErrUnexpectedEOF
			}
			return SSEEvent{}, err
		}
		if len(line) == 0 {
			if hasData {
				return SSEEvent{Event: s.event, Data: s.data}, nil
			}
			s.event = ""
			continue
		}
		if line[0] == ':' {
			continue
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		if len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
		switch string(field) {
		case "data":
			if hasData {
				s.data = append(s.data, '\n')
			}
			if len(s.data)+len(value) > MaxSSEEventBytes {
				return SSEEvent{}, ErrSSEEventTooLarge
			}
			s.data = append(s.data, value...)
			hasData = true
		case "event":
			s.event = string(value)
		}
	}
}

// Buffered reports whether the next event with data is already whole in the reader's
// buffer, so that Next returns it without reading from the body. A relay that flushes only
// when Buffered is false sends events that arrived together in one write, and never holds
// one back while it waits for the next.
func (s *SSEReader) Buffered() bool {
	buf, _ := s.r.Peek(s.r.Buffered()) // never reads: what is buffered is all it asks for
	hasData := false
	for {
		i := bytes.IndexByte(buf, '\n')
		if i < 0 {
			return false
		}
		line := buf[:i]
		buf = buf[i+1:]
		if n := len(line); n > 0 && line[n-1] == '\r' {
			line = line[:n-1]
		}
		if len(line) == 0 {
			if hasData {
				return true
			}
			continue
		}
		// As Next reads it: a comment's field is empty, and "data" alone is a data line.
		if field, _, _ := bytes.Cut(line, []byte(":")); string(field) == "data" {
			hasData = true
		}
	}
}

// readLine returns one line without its terminator (\n, \r\n or \r is not supported alone,
// as no OpenAI-compatible server sends it).
func (s *SSEReader) readLine() ([]byte, error) {
	s.line = s.line[:0]
	for {
		chunk, err := s.r.ReadSlice('\n')
		s.line = append(s.line, chunk...)
		if len(s.line) > MaxSSEEventBytes {
			return nil, ErrSSEEventTooLarge
		}
		if err == nil {
			break
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if errors.Is(err, io.EOF) {
			return s.line, io.EOF
		}
		return nil, fmt.Errorf("sse: %w", err)
	}
	line := s.line[:len(s.line)-1]
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	return line, nil
}

// OneLine returns JSON data with its line breaks removed, so that it goes out as a single
// "data:" line. A server may write one event as several data lines, as SSE allows; the
// reader joins them with "\n", and a writer that put "data: " before the whole would send
// the lines after the first bare, as lines no client reads as data. In valid JSON a line
// break can only be a blank between tokens (a string holds it escaped), so the value stays
// the same. It edits data in place, and returns it as it is when it has no line break.
func OneLine(data []byte) []byte {
	if bytes.IndexByte(data, '\n') < 0 && bytes.IndexByte(data, '\r') < 0 {
		return data
	}
	return slices.DeleteFunc(data, func(c byte) bool { return c == '\n' || c == '\r' })
}

// IsObject reports whether data, after any leading blanks, is one JSON object: what a
// stream event's data must be. It reads JSON as encoding/json does (a repeated member name
// or invalid UTF-8 in a string is accepted), about twice as fast as encoding/json.Valid.
func IsObject(data []byte) bool {
	data = bytes.TrimLeft(data, " \t\r\n")
	return len(data) > 0 && data[0] == '{' && jsontext.Value(data).IsValid(jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
}
