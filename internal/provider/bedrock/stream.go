package bedrock

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream"

	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/provider"
)

// maxMessageBytes bounds one event-stream message. AWS documents 16 MiB; the SDK decoder
// trusts the length prefix, so the stream checks it first and a hostile or corrupt length
// cannot make the router allocate gigabytes.
const maxMessageBytes = 16 << 20

// chunker turns ConverseStream events into OpenAI chat.completion.chunk objects. It is pure
// (no I/O), so it can be fuzzed and benchmarked on its own.
type chunker struct {
	id, model    string
	created      int64
	includeUsage bool

	toolIndex map[int]int // Converse content block index -> OpenAI tool call index
	content   bool        // a chunk with more than the role was made
	stopped   bool        // messageStop seen: the answer is complete
	usage     *openai.Usage
}

// Converse stream event payloads.
type (
	blockStart struct {
		ContentBlockIndex int `json:"contentBlockIndex"`
		Start             struct {
			ToolUse *struct {
				ToolUseID string `json:"toolUseId"`
				Name      string `json:"name"`
			} `json:"toolUse"`
		} `json:"start"`
	}
	blockDelta struct {
		ContentBlockIndex int `json:"contentBlockIndex"`
		Delta             struct {
			Text    *string `json:"text"`
			ToolUse *struct {
				Input string `json:"input"`
			} `json:"toolUse"`
		} `json:"delta"`
	}
	messageStop struct {
		StopReason string `json:"stopReason"`
	}
	streamMetadata struct {
		Usage *usage `json:"usage"`
	}
)

// event translates one event. It returns nil when the event yields no chunk (a block stop,
// an event type this router does not know yet).
func (c *chunker) event(eventType string, payload []byte) ([]byte, error) {
	switch eventType {
	case "messageStart":
		// OpenAI streams open with the role, as Converse does.
		return c.chunk(openai.Delta{Role: "assistant"}, nil)
	case "contentBlockStart":
		var ev blockStart
		if err := json.Unmarshal(payload, &ev); err != nil {
			return nil, err
		}
		if ev.Start.ToolUse == nil {
			return nil, nil // a text block starts implicitly with its first delta
		}
		if c.toolIndex == nil {
			c.toolIndex = make(map[int]int)
		}
		// OpenAI numbers tool calls among themselves; Converse numbers all blocks, text
		// included, so the index is translated.
		idx := len(c.toolIndex)
		c.toolIndex[ev.ContentBlockIndex] = idx
		return c.chunk(openai.Delta{ToolCalls: []openai.ToolCall{{Index: &idx, ID: ev.Start.ToolUse.ToolUseID,
			Type: "function", Function: openai.FunctionCall{Name: ev.Start.ToolUse.Name}}}}, nil)
	case "contentBlockDelta":
		var ev blockDelta
		if err := json.Unmarshal(payload, &ev); err != nil {
			return nil, err
		}
		switch {
		case ev.Delta.Text != nil:
			if *ev.Delta.Text == "" {
				return nil, nil
			}
			return c.chunk(openai.Delta{Content: *ev.Delta.Text}, nil)
		case ev.Delta.ToolUse != nil:
			idx, ok := c.toolIndex[ev.ContentBlockIndex]
			if !ok {
				return nil, fmt.Errorf("tool input for content block %d, which did not start a tool use", ev.ContentBlockIndex)
			}
			return c.chunk(openai.Delta{ToolCalls: []openai.ToolCall{{Index: &idx,
				Function: openai.FunctionCall{Arguments: ev.Delta.ToolUse.Input}}}}, nil)
		}
		return nil, nil // reasoning and citation deltas have no OpenAI chunk form
	case "messageStop":
		// The finish comes here; usage follows in metadata, which OpenAI sends as a last
		// chunk without choices, and only to clients that asked for it.
		var ev messageStop
		if err := json.Unmarshal(payload, &ev); err != nil {
			return nil, err
		}
		c.stopped = true
		reason := finishReason(ev.StopReason)
		return c.chunk(openai.Delta{}, &reason)
	case "metadata":
		var ev streamMetadata
		if err := json.Unmarshal(payload, &ev); err != nil {
			return nil, err
		}
		c.usage = ev.Usage.openai()
		if !c.includeUsage || c.usage == nil {
			return nil, nil
		}
		return json.Marshal(openai.ChatChunk{ID: c.id, Object: openai.ObjectChatCompletionChunk, Created: c.created,
			Model: c.model, Choices: []openai.ChunkChoice{}, Usage: c.usage})
	}
	return nil, nil
}

func (c *chunker) chunk(d openai.Delta, finish *string) ([]byte, error) {
	if d.Role == "" {
		c.content = true
	}
	return json.Marshal(openai.ChatChunk{ID: c.id, Object: openai.ObjectChatCompletionChunk, Created: c.created,
		Model: c.model, Choices: []openai.ChunkChoice{{Delta: d, FinishReason: finish}}})
}

// eventReader reads AWS event-stream messages with the SDK's decoder.
type eventReader struct {
	src *trackingReader
	r   *bufio.Reader
	dec *eventstream.Decoder
	buf []byte
}

func newEventReader(r io.Reader) *eventReader {
	src := &trackingReader{r: r}
	return &eventReader{src: src, r: bufio.NewReaderSize(src, 32<<10), dec: eventstream.NewDecoder()}
}

// trackingReader remembers the body's read error, so that a failed read (a reset, a
// timeout) is told apart from a malformed message, which the decoder reports as a plain
// error.
type trackingReader struct {
	r   io.Reader
	err error
}

func (t *trackingReader) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if err != nil && !errors.Is(err, io.EOF) {
		t.err = err
	}
	return n, err
}

// next returns the next message. It returns io.EOF at a clean end between messages and
// io.ErrUnexpectedEOF inside one.
func (e *eventReader) next() (eventstream.Message, error) {
	prelude, err := e.r.Peek(8)
	if len(prelude) == 0 && errors.Is(err, io.EOF) {
		return eventstream.Message{}, io.EOF
	}
	if err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return eventstream.Message{}, err
	}
	total, headers := binary.BigEndian.Uint32(prelude), binary.BigEndian.Uint32(prelude[4:])
	if total > maxMessageBytes || uint64(headers)+16 > uint64(total) {
		return eventstream.Message{}, fmt.Errorf("event-stream message with length %d and headers length %d", total, headers)
	}
	msg, err := e.dec.Decode(e.r, e.buf[:0])
	if err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return eventstream.Message{}, err
	}
	e.buf = msg.Payload
	return msg, nil
}

func header(m eventstream.Message, name string) string {
	if v := m.Headers.Get(name); v != nil {
		if s, ok := v.(eventstream.StringValue); ok {
			return string(s)
		}
	}
	return ""
}

// stream is a provider.Stream over a ConverseStream response.
type stream struct {
	c      *Client
	ctx    context.Context // the call's, to tell a timeout from a cancellation
	creds  aws.Credentials // the request was signed with; redacted from errors
	body   io.ReadCloser
	events *eventReader
	ch     chunker
	cancel func()
	done   bool
	primed [][]byte // the chunks read by prime, handed out first
}

// prime reads up to the first chunk with content (text, a tool call, the finish), so that
// a failure before it is known at once. The role chunk of messageStart does not count: AWS
// sends messageStart before it throttles or rejects a request, and a client that was sent
// the role can no longer be given another model's answer.
func (s *stream) prime() error {
	for !s.ch.content {
		data, err := s.read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		s.primed = append(s.primed, data)
	}
	return nil
}

// Next hands out the chunks prime read, then reads on.
func (s *stream) Next() ([]byte, error) {
	if len(s.primed) > 0 {
		data := s.primed[0]
		s.primed = s.primed[1:]
		return data, nil
	}
	return s.read()
}

// read reads event-stream messages until one yields a chunk. Exceptions AWS sends inside
// the stream end it with a *provider.Error; a stream that ends before messageStop was cut.
func (s *stream) read() ([]byte, error) {
	for !s.done {
		msg, err := s.events.next()
		switch {
		case errors.Is(err, io.EOF):
			s.done = true
			if !s.ch.stopped {
				return nil, s.c.protocolError("the stream ended before messageStop", provider.ErrMalformedStream)
			}
			return nil, io.EOF
		case errors.Is(err, io.ErrUnexpectedEOF):
			s.done = true
			return nil, s.c.protocolError("the stream was cut in the middle of an event", fmt.Errorf("%w: %w", provider.ErrMalformedStream, err))
		case s.events.src.err != nil:
			s.done = true
			return nil, s.c.transportError(s.ctx, s.events.src.err)
		case err != nil:
			s.done = true
			return nil, s.c.protocolError("the event stream is corrupt: "+err.Error(), fmt.Errorf("%w: %w", provider.ErrMalformedStream, err))
		}
		switch header(msg, ":message-type") {
		case "event":
			data, err := s.ch.event(header(msg, ":event-type"), msg.Payload)
			if err != nil {
				s.done = true
				return nil, s.c.protocolError(fmt.Sprintf("event %s does not parse", header(msg, ":event-type")), fmt.Errorf("%w: %w", provider.ErrMalformedStream, err))
			}
			if data != nil {
				return data, nil
			}
		case "exception":
			s.done = true
			return nil, s.c.streamException(header(msg, ":exception-type"), msg.Payload, s.creds)
		case "error":
			s.done = true
			return nil, s.c.streamException(header(msg, ":error-code"), []byte(`{"message":`+quote(header(msg, ":error-message"))+`}`), s.creds)
		}
	}
	return nil, io.EOF
}

func (s *stream) Close() error {
	s.done, s.primed = true, nil
	err := s.body.Close()
	s.cancel()
	return err
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

var _ provider.Stream = (*stream)(nil)
