package router

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"time"

	"github.com/semantic-router/semantic-router/internal/openai"
)

// maxCachedAnswer bounds the text of a streamed answer kept for the cache; a longer one is
// not cached.
const maxCachedAnswer = 4 << 20

// StreamAnswer assembles a streamed answer, event by event, into the whole answer the cache
// stores (a chat.completion), so that a non-streamed request can be answered from a streamed
// one and the other way round. Answers with several choices or tool calls are not kept.
type StreamAnswer struct {
	resp    openai.ChatResponse
	content strings.Builder
	finish  string
	spoiled bool
}

// Add takes one event's JSON data.
func (a *StreamAnswer) Add(data []byte) {
	if a.spoiled {
		return
	}
	var c openai.ChatChunk
	if json.Unmarshal(data, &c) != nil {
		a.spoiled = true
		return
	}
	if a.resp.ID == "" {
		a.resp.ID, a.resp.Created, a.resp.Model = c.ID, c.Created, c.Model
	}
	if c.Usage != nil {
		a.resp.Usage = c.Usage
	}
	for _, ch := range c.Choices {
		if ch.Index != 0 || len(ch.Delta.ToolCalls) > 0 {
			a.spoiled = true
			return
		}
		a.content.WriteString(ch.Delta.Content)
		if ch.FinishReason != nil {
			a.finish = *ch.FinishReason
		}
	}
	if a.content.Len() > maxCachedAnswer {
		a.spoiled = true
	}
}

// Body returns the whole answer as a chat.completion; false when the stream did not finish
// (no finish_reason) or cannot be kept.
func (a *StreamAnswer) Body() ([]byte, bool) {
	if a.spoiled || a.finish == "" {
		return nil, false
	}
	r := a.resp
	r.Object = "chat.completion"
	r.Choices = []openai.Choice{{Message: openai.Message{Role: "assistant", Content: openai.TextContent(a.content.String())}, FinishReason: a.finish}}
	b, err := json.Marshal(&r)
	return b, err == nil
}

// ReplayEvents returns the stream events that replay a cached whole answer: the role, the
// content, the finish; no usage, as a cached answer costs no tokens. False when body is not
// a one-choice chat.completion.
func ReplayEvents(body []byte) ([][]byte, bool) {
	var r openai.ChatResponse
	if json.Unmarshal(body, &r) != nil || len(r.Choices) != 1 {
		return nil, false
	}
	ch := r.Choices[0]
	chunk := func(d openai.Delta, finish *string) []byte {
		b, _ := json.Marshal(openai.ChatChunk{ID: r.ID, Object: "chat.completion.chunk", Created: r.Created, Model: r.Model,
			Choices: []openai.ChunkChoice{{Delta: d, FinishReason: finish}}})
		return b
	}
	finish := ch.FinishReason
	return [][]byte{
		chunk(openai.Delta{Role: "assistant"}, nil),
		chunk(openai.Delta{Content: ch.Message.Content.String()}, nil),
		chunk(openai.Delta{}, &finish),
	}, true
}

// replay is a provider stream over cached events.
type replay struct{ events [][]byte }

func (p *replay) Next() ([]byte, error) {
	if len(p.events) == 0 {
		return nil, io.EOF
	}
	e := p.events[0]
	p.events = p.events[1:]
	return e, nil
}

func (p *replay) Close() error { return nil }

// replayStream is a router stream that replays a cached answer to a streaming client.
func (r *Router) replayStream(ctx context.Context, model string, body []byte) (*Stream, bool) {
	events, ok := ReplayEvents(body)
	if !ok {
		return nil, false
	}
	r.inFlight(model, 1) // Close takes it back
	return &Stream{r: r, ctx: ctx, model: model, s: &replay{events: events}, start: time.Now(),
		cancel: func(error) {}, clientUsage: true, replayed: true}, true
}
