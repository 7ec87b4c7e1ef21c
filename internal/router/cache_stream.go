package router

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"time"

	"github.com/semantic-router/semantic-router/internal/openai"
)

// maxCachedAnswer bounds an answer kept for the cache: a whole answer's body, or the text of
// a streamed one. A longer answer is not cached, so that entries of many megabytes cannot
// fill the memory max_entries allows.
const maxCachedAnswer = 4 << 20

// StreamAnswer assembles a streamed answer, event by event, into the whole answer the cache
// stores (a chat.completion), so that a non-streamed request can be answered from a streamed
// one and the other way round. Only what a replay gives back is kept: one choice of text
// that finished with stop or length. Tool calls, reasoning, refusals and log probabilities
// spoil it, and so does any other member of a delta that is not null.
type StreamAnswer struct {
	resp    openai.ChatResponse
	content strings.Builder
	finish  string
	spoiled bool
}

// answerChunk is the part of a stream event that StreamAnswer reads.
type answerChunk struct {
	ID      string        `json:"id"`
	Created int64         `json:"created"`
	Model   string        `json:"model"`
	Usage   *openai.Usage `json:"usage"`
	Choices []struct {
		Index        int                        `json:"index"`
		Delta        map[string]json.RawMessage `json:"delta"`
		Logprobs     json.RawMessage            `json:"logprobs"`
		FinishReason *string                    `json:"finish_reason"`
	} `json:"choices"`
}

// Add takes one event's JSON data.
func (a *StreamAnswer) Add(data []byte) {
	if a.spoiled {
		return
	}
	var c answerChunk
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
		if ch.Index != 0 || !empty(ch.Logprobs) {
			a.spoiled = true
			return
		}
		for name, v := range ch.Delta {
			switch name {
			case "role":
			case "content":
				var text *string
				if json.Unmarshal(v, &text) != nil {
					a.spoiled = true
					return
				}
				if text != nil {
					a.content.WriteString(*text)
				}
			default:
				if !empty(v) {
					a.spoiled = true
					return
				}
			}
		}
		if ch.FinishReason != nil {
			a.finish = *ch.FinishReason
		}
	}
	if a.content.Len() > maxCachedAnswer {
		a.spoiled = true
	}
}

// Body returns the whole answer as a chat.completion; false when the stream did not finish
// with stop or length, or cannot be kept.
func (a *StreamAnswer) Body() ([]byte, bool) {
	if a.spoiled || !replayableFinish(a.finish) {
		return nil, false
	}
	r := a.resp
	r.Object = "chat.completion"
	r.Choices = []openai.Choice{{Message: openai.Message{Role: "assistant", Content: openai.TextContent(a.content.String())}, FinishReason: a.finish}}
	b, err := json.Marshal(&r)
	return b, err == nil
}

// replayableFinish: an answer the model finished (stop) or cut at max_tokens (length). One
// it filtered, or that ended in tool calls, is not one to give the next client.
func replayableFinish(reason string) bool { return reason == "stop" || reason == "length" }

// empty reports whether a member's value says nothing: absent, null, [] or {}.
func empty(v json.RawMessage) bool {
	switch strings.TrimSpace(string(v)) {
	case "", "null", "[]", "{}":
		return true
	}
	return false
}

// replayableAnswer reports whether a whole answer is one the cache can give back, whole or
// as a stream, without losing anything: one choice whose message is text (its other members
// null or empty), without log probabilities, finished with stop or length, and at most
// maxCachedAnswer bytes.
func replayableAnswer(body []byte) bool {
	if len(body) > maxCachedAnswer {
		return false
	}
	var r struct {
		Choices []struct {
			Message      map[string]json.RawMessage `json:"message"`
			Logprobs     json.RawMessage            `json:"logprobs"`
			FinishReason string                     `json:"finish_reason"`
		} `json:"choices"`
	}
	if json.Unmarshal(body, &r) != nil || len(r.Choices) != 1 {
		return false
	}
	ch := r.Choices[0]
	if !replayableFinish(ch.FinishReason) || !empty(ch.Logprobs) {
		return false
	}
	for name, v := range ch.Message {
		switch name {
		case "role":
		case "content":
			var text string
			if json.Unmarshal(v, &text) != nil {
				return false
			}
		default:
			if !empty(v) {
				return false
			}
		}
	}
	return true
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

// ReplayUsage returns the event that ends a replayed answer for a client that asked for
// stream_options.include_usage: no choices, and the usage the stored answer reported (zeros
// when it reported none), as a whole answer from the cache shows it. False when body is not
// a chat.completion.
func ReplayUsage(body []byte) ([]byte, bool) {
	var r openai.ChatResponse
	if json.Unmarshal(body, &r) != nil {
		return nil, false
	}
	u := r.Usage
	if u == nil {
		u = &openai.Usage{}
	}
	b, err := json.Marshal(openai.ChatChunk{ID: r.ID, Object: "chat.completion.chunk", Created: r.Created, Model: r.Model,
		Choices: []openai.ChunkChoice{}, Usage: u})
	return b, err == nil
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

// Buffered is always true: the whole answer is in memory, and a replay leaves in as few
// writes as the front door's buffer allows.
func (p *replay) Buffered() bool { return true }

func (p *replay) Close() error { return nil }

// replayStream is a router stream that replays a cached answer to a streaming client, with
// the usage event when the client asked for it (includeUsage). The usage it reports is not
// charged: a cached answer costs no tokens.
func (r *Router) replayStream(ctx context.Context, model string, body []byte, includeUsage bool) (*Stream, bool) {
	events, ok := ReplayEvents(body)
	if !ok {
		return nil, false
	}
	if includeUsage {
		usage, ok := ReplayUsage(body)
		if !ok {
			return nil, false
		}
		events = append(events, usage)
	}
	r.inFlight(model, 1) // Close takes it back
	return &Stream{r: r, ctx: ctx, model: model, s: &replay{events: events}, start: time.Now(),
		cancel: func(error) {}, clientUsage: true, replayed: true}, true
}
