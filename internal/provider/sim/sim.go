// Package sim is a simulated model: it answers chat completions in the real OpenAI wire
// format, plain and streamed, after a configurable latency. The demo configuration runs on
// it, so the router works offline; the same generator served over HTTP is the mock backend
// of tests and benchmarks.
package sim

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"time"

	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/provider"
)

// Options configure a simulated model.
type Options struct {
	// Model is the model id the answers carry.
	Model string
	// FirstTokenLatency is the delay before the first token (and before a non-streamed answer
	// starts to be counted).
	FirstTokenLatency time.Duration
	// TokenLatency is the delay between tokens.
	TokenLatency time.Duration
	// Reply is the answer; "{model}" and "{prompt}" are replaced by the model id and the last
	// user message (shortened to 200 bytes).
	Reply string
	// Timeout bounds a whole call, streaming included, as it does a served model's. Zero
	// means no limit.
	Timeout time.Duration
}

// Model is a simulated model. It is safe for concurrent use.
type Model struct {
	opts Options
	seq  atomic.Uint64
}

// New returns a simulated model.
func New(o Options) *Model {
	if o.Reply == "" {
		o.Reply = "This is {model} answering: {prompt}"
	}
	return &Model{opts: o}
}

// answer is the reply to one request, split into streamable tokens.
type answer struct {
	id      string
	created int64
	model   string
	tokens  []string
	usage   openai.Usage
}

func (m *Model) answer(req *openai.ChatRequest, model string) answer {
	prompt := req.LastUserText()
	if len(prompt) > 200 {
		prompt = prompt[:200]
	}
	text := strings.NewReplacer("{model}", model, "{prompt}", prompt).Replace(m.opts.Reply)
	words := strings.Fields(text)
	tokens := make([]string, len(words))
	for i, w := range words {
		if i < len(words)-1 {
			w += " "
		}
		tokens[i] = w
	}
	promptTokens := 0
	for _, msg := range req.Messages {
		promptTokens += len(strings.Fields(msg.Content.String())) + 4
	}
	return answer{
		id:      fmt.Sprintf("chatcmpl-sim-%d", m.seq.Add(1)),
		created: time.Now().Unix(),
		model:   model,
		tokens:  tokens,
		usage:   openai.Usage{PromptTokens: promptTokens, CompletionTokens: len(tokens), TotalTokens: promptTokens + len(tokens)},
	}
}

// ChatCompletion implements provider.Provider: it waits as long as streaming the whole answer
// would take, then returns it.
func (m *Model) ChatCompletion(ctx context.Context, req *openai.ChatRequest) (*provider.Response, error) {
	ctx, cancel := provider.WithTimeout(ctx, m.opts.Timeout)
	defer cancel()
	a := m.answer(req, m.opts.Model)
	if err := sleep(ctx, m.opts.FirstTokenLatency+time.Duration(len(a.tokens))*m.opts.TokenLatency); err != nil {
		return nil, err
	}
	body, err := json.Marshal(a.response())
	if err != nil {
		return nil, err
	}
	return &provider.Response{Body: body, Usage: &a.usage}, nil
}

// ChatCompletionStream implements provider.Provider.
func (m *Model) ChatCompletionStream(ctx context.Context, req *openai.ChatRequest) (provider.Stream, error) {
	ctx, cancel := provider.WithTimeout(ctx, m.opts.Timeout)
	a := m.answer(req, m.opts.Model)
	withUsage := req.StreamOptions != nil && req.StreamOptions.IncludeUsage
	return &stream{ctx: ctx, cancel: cancel, m: m, a: a, usage: withUsage}, nil
}

func (a answer) response() openai.ChatResponse {
	return openai.ChatResponse{
		ID: a.id, Object: openai.ObjectChatCompletion, Created: a.created, Model: a.model,
		Choices: []openai.Choice{{
			Message:      openai.Message{Role: "assistant", Content: openai.TextContent(strings.Join(a.tokens, ""))},
			FinishReason: "stop",
		}},
		Usage: &a.usage,
	}
}

// stream yields a role chunk, one chunk per token, a finish chunk and, if asked, a usage chunk.
type stream struct {
	ctx    context.Context
	cancel context.CancelFunc // ends Timeout's deadline; called by Close
	m      *Model
	a      answer
	usage  bool
	next   int // index of the next event: 0 role, 1..n tokens, n+1 finish, n+2 usage
}

func (s *stream) Next() ([]byte, error) {
	n := len(s.a.tokens)
	if s.next > n+1 && (!s.usage || s.next > n+2) {
		return nil, io.EOF
	}
	delay := s.m.opts.TokenLatency
	if s.next == 0 {
		delay = s.m.opts.FirstTokenLatency
	} else if s.next > n {
		delay = 0
	}
	if err := sleep(s.ctx, delay); err != nil {
		return nil, err
	}
	c := openai.ChatChunk{ID: s.a.id, Object: openai.ObjectChatCompletionChunk, Created: s.a.created, Model: s.a.model}
	switch {
	case s.next == 0:
		c.Choices = []openai.ChunkChoice{{Delta: openai.Delta{Role: "assistant"}}}
	case s.next <= n:
		c.Choices = []openai.ChunkChoice{{Delta: openai.Delta{Content: s.a.tokens[s.next-1]}}}
	case s.next == n+1:
		stop := "stop"
		c.Choices = []openai.ChunkChoice{{FinishReason: &stop}}
	default:
		c.Choices = []openai.ChunkChoice{}
		c.Usage = &s.a.usage
	}
	s.next++
	return json.Marshal(c)
}

func (s *stream) Close() error {
	s.next = len(s.a.tokens) + 3
	s.usage = false
	s.cancel()
	return nil
}

func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		if ctx.Err() != nil {
			return ended(ctx)
		}
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ended(ctx)
	case <-t.C:
		return nil
	}
}

// ended is the error of a call whose ctx ended, told apart as a served model's is: a time
// limit (the model's timeout, routing.request_budget, first_token_timeout) is a timeout
// naming it; anything else, such as the client leaving, a cancellation.
func ended(ctx context.Context) error {
	cause := context.Cause(ctx)
	var dc *provider.DeadlineCause
	switch {
	case errors.As(cause, &dc):
		return &provider.Error{Kind: provider.KindTimeout, Err: cause,
			Message: fmt.Sprintf("no answer in time: %s of %s passed", dc.Setting, dc.After)}
	case errors.Is(cause, context.DeadlineExceeded):
		return &provider.Error{Kind: provider.KindTimeout, Err: cause, Message: "no answer in time"}
	}
	return &provider.Error{Kind: provider.KindCanceled, Message: "the request was canceled", Err: cause}
}

var _ provider.Provider = (*Model)(nil)
