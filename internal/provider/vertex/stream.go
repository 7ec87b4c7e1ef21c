package vertex

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/provider"
)

// chunker turns streamGenerateContent events (each a whole GenerateContentResponse) into
// OpenAI chunks. It is pure, so it can be fuzzed and benchmarked on its own. Only the first
// candidate is streamed: OpenAI streams interleave choices, which no router client asks of
// a Gemini model.
type chunker struct {
	// id is every chunk's id: "chatcmpl-" and the responseId of the first event, as for a
	// whole answer; the id set at the start stands in when the first event has none.
	id, model    string
	created      int64
	includeUsage bool

	started  bool // the assistant role was sent
	calls    int  // tool calls sent so far
	finished bool // a finishReason arrived: the answer is complete
	usage    *openai.Usage
}

// event translates one SSE data payload into zero or more chunks.
func (c *chunker) event(data []byte) ([][]byte, error) {
	// A failure after the stream started comes as an event holding Google's error envelope.
	if bytes.HasPrefix(bytes.TrimSpace(data), []byte(`{"error"`)) {
		return nil, errStreamError
	}
	var r generateResponse
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, err
	}
	if r.UsageMetadata != nil {
		c.usage = r.UsageMetadata.openai() // cumulative: the last one counts
	}
	if !c.started && !c.finished && r.ResponseID != "" {
		c.id = "chatcmpl-" + r.ResponseID // before any chunk: all of a stream's share one id
	}
	var out [][]byte
	// OpenAI clients take the role from the first delta, whatever else it carries.
	emit := func(d openai.Delta, finish *string) error {
		if !c.started {
			d.Role, c.started = "assistant", true
		}
		b, err := json.Marshal(openai.ChatChunk{ID: c.id, Object: openai.ObjectChatCompletionChunk, Created: c.created,
			Model: c.model, Choices: []openai.ChunkChoice{{Delta: d, FinishReason: finish}}})
		out = append(out, b)
		return err
	}
	var finish string
	switch {
	case len(r.Candidates) > 0:
		cand := r.Candidates[0]
		if f := failedOutput(cand); f != nil {
			return nil, f
		}
		for _, p := range cand.Content.Parts {
			switch {
			case p.Thought && p.ThoughtSignature == "":
				// Thinking is not part of the answer, and OpenAI chunks have no field for it.
			case p.FunctionCall != nil:
				// Gemini sends a call whole in one event: one delta carries id, name and
				// all of the arguments.
				idx := c.calls
				c.calls++
				args := string(p.FunctionCall.Args)
				if args == "" || args == "null" {
					args = "{}"
				}
				if err := emit(openai.Delta{ToolCalls: []openai.ToolCall{{Index: &idx, ID: callID(), Type: "function",
					Function: openai.FunctionCall{Name: p.FunctionCall.Name, Arguments: args}, Extra: signatureExtra(p.ThoughtSignature)}}}, nil); err != nil {
					return nil, err
				}
			case p.Text != "" || p.ThoughtSignature != "":
				// Gemini may sign the text in a last part that has no text of its own.
				d := openai.Delta{Content: p.Text, ExtraContent: signatureContent(p.ThoughtSignature)}
				if p.Thought {
					d.Content = ""
				}
				if err := emit(d, nil); err != nil {
					return nil, err
				}
			}
		}
		if cand.FinishReason != "" {
			finish = finishReason(cand.FinishReason, c.calls > 0)
		}
	case r.PromptFeedback != nil && r.PromptFeedback.BlockReason != "":
		// A blocked prompt ends the stream without candidates.
		finish = "content_filter"
	}
	if finish != "" && !c.finished {
		c.finished = true
		if err := emit(openai.Delta{}, &finish); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// end returns the chunks due at the end of the stream: the usage chunk, when the client
// asked for one. It waits for the end because Gemini may report usage after the finish.
func (c *chunker) end() ([][]byte, error) {
	if !c.includeUsage || c.usage == nil {
		return nil, nil
	}
	b, err := json.Marshal(openai.ChatChunk{ID: c.id, Object: openai.ObjectChatCompletionChunk, Created: c.created,
		Model: c.model, Choices: []openai.ChunkChoice{}, Usage: c.usage})
	if err != nil {
		return nil, err
	}
	return [][]byte{b}, nil
}

var errStreamError = errors.New("error event")

// stream is a provider.Stream over a streamGenerateContent?alt=sse response.
type stream struct {
	c       *Client
	ctx     context.Context // the call's, to tell a timeout from a cancellation
	token   string          // the access token sent, redacted from errors
	body    io.ReadCloser
	sse     *openai.SSEReader
	ch      chunker
	pending [][]byte
	cancel  func()
	done    bool
}

// Buffered reports whether Next returns without reading from the connection: a chunk of the
// last Gemini event waits, or the stream has ended. (An event the buffer holds may yield no
// chunk, so it does not count.)
func (s *stream) Buffered() bool { return len(s.pending) > 0 || s.done }

// Next hands out one chunk per call; one Gemini event can yield several (text, a call, the
// finish), which wait in pending.
func (s *stream) Next() ([]byte, error) {
	for len(s.pending) == 0 {
		if s.done {
			return nil, io.EOF
		}
		ev, err := s.sse.Next()
		switch {
		case errors.Is(err, io.EOF):
			s.done = true
			if !s.ch.finished {
				return nil, s.c.protocolError("the stream ended before a finishReason", provider.ErrMalformedStream)
			}
			s.pending, _ = s.ch.end() // marshalling a chunk of plain values cannot fail
			continue
		case errors.Is(err, io.ErrUnexpectedEOF):
			s.done = true
			return nil, s.c.protocolError("the stream was cut in the middle of an event", fmt.Errorf("%w: %w", provider.ErrMalformedStream, err))
		case errors.Is(err, openai.ErrSSEEventTooLarge):
			s.done = true
			return nil, s.c.protocolError("a stream event is larger than 8 MiB", err)
		case err != nil:
			s.done = true
			return nil, s.c.transportError(s.ctx, err)
		}
		chunks, err := s.ch.event(ev.Data)
		var failed *outputFailure
		if errors.As(err, &failed) {
			s.done = true
			return nil, s.c.outputError(failed, s.token)
		}
		if errors.Is(err, errStreamError) {
			s.done = true
			status, detail := googleError(ev.Data, s.token)
			e := &provider.Error{Kind: provider.KindUpstream, Model: s.c.opts.Name,
				Message: fmt.Sprintf("Vertex AI failed during the stream (%s): %s", status, detail)}
			switch status {
			case "RESOURCE_EXHAUSTED":
				e.Kind, e.RetryAfter = provider.KindRateLimited, time.Second
			case "INVALID_ARGUMENT", "FAILED_PRECONDITION":
				e.Kind = provider.KindBadRequest
			}
			return nil, e
		}
		if err != nil {
			s.done = true
			return nil, s.c.protocolError("a stream event is not a GenerateContentResponse", fmt.Errorf("%w: %w", provider.ErrMalformedStream, err))
		}
		s.pending = chunks
	}
	data := s.pending[0]
	s.pending = s.pending[1:]
	return data, nil
}

func (s *stream) Close() error {
	s.done, s.pending = true, nil
	err := s.body.Close()
	s.cancel()
	return err
}

var _ provider.Stream = (*stream)(nil)
