package providertest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/provider"
)

// Config is what the suite asks of a Factory for one case.
type Config struct {
	// Script drives the fake upstream.
	Script *Script
	// Timeout is the provider's per-call timeout; zero means none.
	Timeout time.Duration
	// WrongCredential makes the provider use a credential the fake does not accept.
	WrongCredential bool
}

// Setup is a provider under test.
type Setup struct {
	Provider provider.Provider
	// Model is the router's name for the model, which every error must name.
	Model string
	// CredentialRef is where the credential comes from (such as "env.API_KEY"); an
	// authentication error must name it.
	CredentialRef string
	// Secrets are credential values that must never appear in an error.
	Secrets []string
	// NoReasoningCount says that the service counts reasoning only within its output tokens
	// (Bedrock Converse), so usage has no completion_tokens_details.
	NoReasoningCount bool
	// Refuses names the request fields (the names of fieldCases) that the provider's
	// service has no equivalent for: the provider refuses them with a bad request.
	Refuses []string
}

// Factory starts a fake upstream for c.Script and returns a provider pointed at it. It
// registers its cleanup with t.
type Factory func(t *testing.T, c Config) Setup

// Run runs every behaviour of the suite against the providers that f builds.
func Run(t *testing.T, f Factory) {
	for _, tc := range slices.Concat(cases, hardeningCases) {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := Config{Script: NewScript(), Timeout: tc.timeout, WrongCredential: tc.wrongCred}
			s := f(t, c)
			tc.run(t, s, c.Script)
		})
	}
}

var temp02 = 0.2

type suiteCase struct {
	name      string
	timeout   time.Duration
	wrongCred bool
	run       func(t *testing.T, s Setup, sc *Script)
}

var cases = []suiteCase{
	{name: "simple chat", run: func(t *testing.T, s Setup, sc *Script) {
		maxTokens := 50
		req := &openai.ChatRequest{Model: "client-name", Messages: []openai.Message{user("Hello")},
			MaxTokens: &maxTokens, Temperature: &temp02, Stop: openai.Stop{Values: []string{"END"}}}
		resp := complete(t, s, req)
		checkText(t, resp, "Hello from the fake.", "stop")
		seen := last(t, sc)
		want := Seen{Turns: []Turn{{Role: "user", Text: "Hello"}}, MaxTokens: 50, Temperature: &temp02, Stop: []string{"END"}}
		checkSeen(t, seen, want)
	}},
	{name: "system prompt", run: func(t *testing.T, s Setup, sc *Script) {
		req := &openai.ChatRequest{Messages: []openai.Message{
			{Role: "system", Content: openai.TextContent("Answer in one word.")}, user("Hi")}}
		complete(t, s, req)
		checkSeen(t, last(t, sc), Seen{System: "Answer in one word.", Turns: []Turn{{Role: "user", Text: "Hi"}}})
	}},
	{name: "multi-turn", run: func(t *testing.T, s Setup, sc *Script) {
		req := &openai.ChatRequest{Messages: []openai.Message{user("What is 2+2?"),
			{Role: "assistant", Content: openai.TextContent("4")}, user("And 3+3?")}}
		complete(t, s, req)
		checkSeen(t, last(t, sc), Seen{Turns: []Turn{{Role: "user", Text: "What is 2+2?"},
			{Role: "assistant", Text: "4"}, {Role: "user", Text: "And 3+3?"}}})
	}},
	{name: "image part", run: func(t *testing.T, s Setup, sc *Script) {
		var m openai.Message
		mustUnmarshal(t, `{"role":"user","content":[{"type":"text","text":"What is this?"},`+
			`{"type":"image_url","image_url":{"url":"data:image/png;base64,iVBORw0KGgo="}}]}`, &m)
		complete(t, s, &openai.ChatRequest{Messages: []openai.Message{m}})
		checkSeen(t, last(t, sc), Seen{Turns: []Turn{{Role: "user", Text: "What is this?", Images: 1}}})
	}},
	{name: "usage", run: func(t *testing.T, s Setup, sc *Script) {
		sc.SetReply(Reply{Text: "Counted.", PromptTokens: 11, CompletionTokens: 3})
		checkUsage(t, s, openai.Usage{PromptTokens: 11, CompletionTokens: 3, TotalTokens: 14})
	}},
	{name: "usage with prompt cache and reasoning", run: func(t *testing.T, s Setup, sc *Script) {
		sc.SetReply(Reply{Text: "Counted.", PromptTokens: 2000, CachedTokens: 1500, CacheWriteTokens: 400,
			CompletionTokens: 30, ReasoningTokens: 20})
		want := openai.Usage{PromptTokens: 2000, CompletionTokens: 30, TotalTokens: 2030,
			PromptTokensDetails:     &openai.PromptTokensDetails{CachedTokens: 1500},
			CompletionTokensDetails: &openai.CompletionTokensDetails{ReasoningTokens: 20}}
		if s.NoReasoningCount {
			want.CompletionTokensDetails = nil
		}
		checkUsage(t, s, want)
	}},
	{name: "streaming order and termination", run: func(t *testing.T, s Setup, sc *Script) {
		sc.SetReply(Reply{Text: "One two three four.", PromptTokens: 1, CompletionTokens: 4, HoldAfterFirst: true})
		st, err := s.Provider.ChatCompletionStream(context.Background(), &openai.ChatRequest{Messages: []openai.Message{user("Count")}})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		// The upstream holds back everything after its first word until released: a
		// provider that buffered would never hand out the first words here.
		var text strings.Builder
		var chunks []openai.ChatChunk
		for !strings.Contains(text.String(), "One") {
			ch := nextChunk(t, st)
			chunks = append(chunks, ch)
			for _, c := range ch.Choices {
				text.WriteString(c.Delta.Content)
			}
		}
		if sc.Released() {
			t.Fatal("the first words arrived only after the upstream was released")
		}
		sc.Release()
		for {
			data, err := st.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("Next: %v", err)
			}
			var ch openai.ChatChunk
			mustUnmarshal(t, string(data), &ch)
			chunks = append(chunks, ch)
		}
		checkChunks(t, chunks, "One two three four.", "stop")
		if _, err := st.Next(); !errors.Is(err, io.EOF) {
			t.Fatalf("Next after the end = %v, want io.EOF", err)
		}
		if err := st.Close(); err != nil {
			t.Fatalf("Close: %v", err)
		}
		if err := st.Close(); err != nil {
			t.Fatalf("second Close: %v", err)
		}
		if seen := last(t, sc); !seen.Stream {
			t.Fatal("the upstream was not asked for a stream")
		}
	}},
	{name: "tool call round trip", run: func(t *testing.T, s Setup, sc *Script) {
		toolRoundTrip(t, s, sc, false)
	}},
	{name: "streamed tool call", run: func(t *testing.T, s Setup, sc *Script) {
		toolRoundTrip(t, s, sc, true)
	}},
	{name: "upstream 4xx", run: func(t *testing.T, s Setup, sc *Script) {
		sc.SetReply(Reply{Status: 400})
		checkError(t, s, failBoth(t, s), provider.KindBadRequest, 400, FailureMessage)
	}},
	{name: "upstream 429", run: func(t *testing.T, s Setup, sc *Script) {
		sc.SetReply(Reply{Status: 429})
		checkError(t, s, failBoth(t, s), provider.KindRateLimited, 429, FailureMessage)
	}},
	{name: "upstream 5xx", run: func(t *testing.T, s Setup, sc *Script) {
		sc.SetReply(Reply{Status: 500})
		checkError(t, s, failBoth(t, s), provider.KindUpstream, 500, FailureMessage)
	}},
	{name: "rejected credentials", wrongCred: true, run: func(t *testing.T, s Setup, sc *Script) {
		errs := failBoth(t, s)
		// The status is the upstream's: 401 or 403 from a model API, 400 invalid_grant from an
		// OAuth token endpoint; the kind is what the router acts on.
		checkError(t, s, errs, provider.KindAuth, -1, s.CredentialRef)
	}},
	{name: "timeout", timeout: 300 * time.Millisecond, run: func(t *testing.T, s Setup, sc *Script) {
		sc.SetReply(Reply{Hang: true})
		checkError(t, s, failBoth(t, s), provider.KindTimeout, 0, "in time")
	}},
	{name: "cancelled context", run: func(t *testing.T, s Setup, sc *Script) {
		sc.SetReply(Reply{Hang: true})
		var errs []error
		for i, stream := range []bool{false, true} {
			ctx, cancel := context.WithCancel(context.Background())
			go func() {
				// Cancel once the upstream holds the request, as a client hanging up would.
				waitUntil(func() bool { return len(sc.Seen()) > i })
				cancel()
			}()
			req := &openai.ChatRequest{Messages: []openai.Message{user("Hang")}}
			var err error
			if stream {
				var st provider.Stream
				if st, err = s.Provider.ChatCompletionStream(ctx, req); st != nil {
					st.Close()
				}
			} else {
				_, err = s.Provider.ChatCompletion(ctx, req)
			}
			cancel()
			errs = append(errs, err)
		}
		checkError(t, s, errs, provider.KindCanceled, 0, "canceled")
	}},
}

func toolRoundTrip(t *testing.T, s Setup, sc *Script, stream bool) {
	weather := openai.Tool{Type: "function", Function: openai.FunctionSpec{Name: "get_weather",
		Description: "Current weather for a city",
		Parameters:  json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`)}}
	msgs := []openai.Message{user("Weather in Paris?")}
	sc.SetReply(Reply{Call: &Call{Name: "get_weather", Arguments: `{"city":"Paris"}`}, PromptTokens: 20, CompletionTokens: 9})
	req := &openai.ChatRequest{Messages: msgs, Tools: []openai.Tool{weather}}
	var call openai.ToolCall
	if stream {
		call = streamedCall(t, streamAll(t, s, req))
	} else {
		resp := complete(t, s, req)
		if len(resp.Choices) != 1 || len(resp.Choices[0].Message.ToolCalls) != 1 || resp.Choices[0].FinishReason != "tool_calls" {
			t.Fatalf("choices = %+v, want one tool call and finish_reason tool_calls", resp.Choices)
		}
		call = resp.Choices[0].Message.ToolCalls[0]
	}
	if call.ID == "" || call.Type != "function" || call.Function.Name != "get_weather" || !jsonEqual(call.Function.Arguments, `{"city":"Paris"}`) {
		t.Fatalf("tool call = %+v, want an id, type function, get_weather({\"city\":\"Paris\"})", call)
	}
	if seen := last(t, sc); len(seen.Tools) != 1 || seen.Tools[0] != "get_weather" {
		t.Fatalf("upstream saw tools %v, want [get_weather]", seen.Tools)
	}

	// Second leg: the client runs the tool and sends the result back.
	call.Index = nil
	msgs = append(msgs,
		openai.Message{Role: "assistant", Content: openai.Content{IsNull: true}, ToolCalls: []openai.ToolCall{call}},
		openai.Message{Role: "tool", ToolCallID: call.ID, Content: openai.TextContent(`{"temp_c":21}`)})
	sc.SetReply(Reply{Text: "It is 21 C in Paris.", PromptTokens: 30, CompletionTokens: 6})
	req = &openai.ChatRequest{Messages: msgs, Tools: []openai.Tool{weather}}
	if stream {
		checkChunks(t, streamAll(t, s, req), "It is 21 C in Paris.", "stop")
	} else {
		checkText(t, complete(t, s, req), "It is 21 C in Paris.", "stop")
	}
	seen := last(t, sc)
	if len(seen.Turns) != 3 {
		t.Fatalf("upstream saw turns %+v, want user, assistant call, tool result", seen.Turns)
	}
	a, r := seen.Turns[1], seen.Turns[2]
	if a.Role != "assistant" || len(a.Calls) != 1 || a.Calls[0].Name != "get_weather" || !jsonEqual(a.Calls[0].Arguments, `{"city":"Paris"}`) {
		t.Fatalf("upstream saw assistant turn %+v, want the get_weather call", a)
	}
	if a.Calls[0].ID != "" && a.Calls[0].ID != call.ID {
		t.Fatalf("upstream saw call id %q, want %q", a.Calls[0].ID, call.ID)
	}
	if r.Role != "user" || len(r.Results) != 1 || !jsonEqual(r.Results[0].Content, `{"temp_c":21}`) {
		t.Fatalf("upstream saw result turn %+v, want the tool result", r)
	}
	if res := r.Results[0]; res.CallID != call.ID && res.Name != "get_weather" {
		t.Fatalf("tool result %+v is linked neither to call id %q nor to get_weather", res, call.ID)
	}
}

func user(text string) openai.Message {
	return openai.Message{Role: "user", Content: openai.TextContent(text)}
}

func complete(t *testing.T, s Setup, req *openai.ChatRequest) openai.ChatResponse {
	t.Helper()
	resp, err := s.Provider.ChatCompletion(context.Background(), req)
	if err != nil {
		t.Fatalf("ChatCompletion: %v", err)
	}
	var out openai.ChatResponse
	mustUnmarshal(t, string(resp.Body), &out)
	if out.Object != openai.ObjectChatCompletion || out.ID == "" {
		t.Fatalf("response object %q id %q, want chat.completion with an id", out.Object, out.ID)
	}
	return out
}

// checkUsage checks the usage of an answer (in Response.Usage and in its body) and of a
// stream's last chunk, which carries nothing else: each must be want exactly.
func checkUsage(t *testing.T, s Setup, want openai.Usage) {
	t.Helper()
	resp, err := s.Provider.ChatCompletion(context.Background(), &openai.ChatRequest{Messages: []openai.Message{user("Count")}})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Usage == nil || !reflect.DeepEqual(*resp.Usage, want) {
		t.Fatalf("Response.Usage = %s, want %s", usageString(resp.Usage), usageString(&want))
	}
	var body openai.ChatResponse
	mustUnmarshal(t, string(resp.Body), &body)
	if body.Usage == nil || !reflect.DeepEqual(*body.Usage, want) {
		t.Fatalf("body usage = %s, want %s", usageString(body.Usage), usageString(&want))
	}
	chunks := streamAll(t, s, &openai.ChatRequest{Messages: []openai.Message{user("Count")},
		StreamOptions: &openai.StreamOptions{IncludeUsage: true}})
	lastChunk := chunks[len(chunks)-1]
	if lastChunk.Usage == nil || !reflect.DeepEqual(*lastChunk.Usage, want) || len(lastChunk.Choices) != 0 {
		t.Fatalf("last streamed chunk has %d choices and usage %s, want none and usage %s",
			len(lastChunk.Choices), usageString(lastChunk.Usage), usageString(&want))
	}
}

// usageString shows a usage as its JSON, details and all.
func usageString(u *openai.Usage) string {
	b, err := json.Marshal(u)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

func checkText(t *testing.T, resp openai.ChatResponse, text, finish string) {
	t.Helper()
	if len(resp.Choices) != 1 {
		t.Fatalf("got %d choices, want 1", len(resp.Choices))
	}
	c := resp.Choices[0]
	if c.Message.Role != "assistant" || c.Message.Content.String() != text || c.FinishReason != finish {
		t.Fatalf("choice = role %q content %q finish %q, want assistant %q %q", c.Message.Role, c.Message.Content.String(), c.FinishReason, text, finish)
	}
}

func streamAll(t *testing.T, s Setup, req *openai.ChatRequest) []openai.ChatChunk {
	t.Helper()
	st, err := s.Provider.ChatCompletionStream(context.Background(), req)
	if err != nil {
		t.Fatalf("ChatCompletionStream: %v", err)
	}
	defer st.Close()
	var out []openai.ChatChunk
	for {
		data, err := st.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		var ch openai.ChatChunk
		mustUnmarshal(t, string(data), &ch)
		out = append(out, ch)
	}
}

func nextChunk(t *testing.T, st provider.Stream) openai.ChatChunk {
	t.Helper()
	data, err := st.Next()
	if err != nil {
		t.Fatalf("Next: %v", err)
	}
	var ch openai.ChatChunk
	mustUnmarshal(t, string(data), &ch)
	return ch
}

// checkChunks checks a complete stream: chunk objects with one id, the assistant role
// first, the text in order, one finish_reason on the last chunk with choices.
func checkChunks(t *testing.T, chunks []openai.ChatChunk, text, finish string) {
	t.Helper()
	var sb strings.Builder
	var finishes []string
	role := ""
	withChoices := 0
	for i, ch := range chunks {
		if ch.Object != openai.ObjectChatCompletionChunk || ch.ID != chunks[0].ID || ch.ID == "" {
			t.Fatalf("chunk %d: object %q id %q, want chat.completion.chunk and one id", i, ch.Object, ch.ID)
		}
		for _, c := range ch.Choices {
			withChoices = i
			if role == "" {
				role = c.Delta.Role
			}
			sb.WriteString(c.Delta.Content)
			if c.FinishReason != nil {
				finishes = append(finishes, *c.FinishReason)
			}
		}
	}
	if role != "assistant" {
		t.Fatalf("first delta role %q, want assistant", role)
	}
	if sb.String() != text {
		t.Fatalf("streamed text %q, want %q", sb.String(), text)
	}
	if len(finishes) != 1 || finishes[0] != finish || chunks[withChoices].Choices[0].FinishReason == nil {
		t.Fatalf("finish reasons %q (last chunk with choices %d of %d), want one %q on it", finishes, withChoices, len(chunks), finish)
	}
}

// streamedCall assembles the one tool call of a stream from its deltas.
func streamedCall(t *testing.T, chunks []openai.ChatChunk) openai.ToolCall {
	t.Helper()
	var call openai.ToolCall
	var args strings.Builder
	finish := ""
	for _, ch := range chunks {
		for _, c := range ch.Choices {
			for _, tc := range c.Delta.ToolCalls {
				if tc.Index == nil || *tc.Index != 0 {
					t.Fatalf("tool call delta %+v, want index 0", tc)
				}
				if tc.ID != "" {
					call.ID, call.Type = tc.ID, tc.Type
				}
				if tc.Function.Name != "" {
					call.Function.Name = tc.Function.Name
				}
				// Members beyond OpenAI's (a thought signature) go back with the call.
				for k, v := range tc.Extra {
					if call.Extra == nil {
						call.Extra = map[string]json.RawMessage{}
					}
					call.Extra[k] = v
				}
				args.WriteString(tc.Function.Arguments)
			}
			if c.FinishReason != nil {
				finish = *c.FinishReason
			}
		}
	}
	if finish != "tool_calls" {
		t.Fatalf("finish_reason %q, want tool_calls", finish)
	}
	call.Function.Arguments = args.String()
	return call
}

// failBoth sends the same request plain and streamed and returns both errors.
func failBoth(t *testing.T, s Setup) []error {
	t.Helper()
	req := &openai.ChatRequest{Messages: []openai.Message{user("Fail")}}
	_, err1 := s.Provider.ChatCompletion(context.Background(), req)
	st, err2 := s.Provider.ChatCompletionStream(context.Background(), req)
	if st != nil {
		st.Close()
		t.Fatal("ChatCompletionStream returned a stream for a failed request")
	}
	return []error{err1, err2}
}

// checkError checks that each error is a *provider.Error of kind, with status (unless -1),
// naming the model and containing detail, with no secret in it.
func checkError(t *testing.T, s Setup, errs []error, kind provider.Kind, status int, detail string) {
	t.Helper()
	for i, err := range errs {
		var pe *provider.Error
		if !errors.As(err, &pe) {
			t.Fatalf("call %d: error %v (%T), want *provider.Error", i, err, err)
		}
		if pe.Kind != kind || (status >= 0 && pe.Status != status) {
			t.Fatalf("call %d: kind %v status %d (%v), want %v %d", i, pe.Kind, pe.Status, err, kind, status)
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, `model "`+s.Model+`": `) || !strings.Contains(msg, detail) {
			t.Fatalf("call %d: message %q, want it to name model %q and contain %q", i, msg, s.Model, detail)
		}
		for _, secret := range s.Secrets {
			if secret != "" && strings.Contains(msg, secret) {
				t.Fatalf("call %d: message %q contains a credential", i, msg)
			}
		}
	}
}

func last(t *testing.T, sc *Script) Seen {
	t.Helper()
	seen, ok := sc.Last()
	if !ok {
		t.Fatal("the upstream received no request")
	}
	return seen
}

func checkSeen(t *testing.T, got, want Seen) {
	t.Helper()
	got.Credential, got.Stream, got.Model = "", false, ""
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if !bytes.Equal(g, w) {
		t.Fatalf("upstream saw\n%s\nwant\n%s", g, w)
	}
}

func jsonEqual(a, b string) bool {
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return bytes.Equal(xa, ya)
}

func mustUnmarshal(t *testing.T, data string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(data), v); err != nil {
		t.Fatalf("decoding %s: %v", data, err)
	}
}

// waitUntil polls cond for up to 5s.
func waitUntil(cond func() bool) {
	deadline := time.Now().Add(5 * time.Second)
	for !cond() && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
}
