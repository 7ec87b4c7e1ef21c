package e2e

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
)

// TestEchoedKeyIsRedacted runs the binary in front of a backend that echoes the
// Authorization header it received into a 401 and into a mid-stream error event. With the
// upstream's detail exposed to clients the echo is relayed, redacted; the log has the cause,
// redacted; the key itself appears nowhere.
func TestEchoedKeyIsRedacted(t *testing.T) {
	t.Parallel()
	const key = "sk-echoed-SECRET-5d2f"
	be := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth := r.Header.Get("Authorization")
		if strings.Contains(r.URL.Path, "chat") && r.Header.Get("Accept") == "text/event-stream" {
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"}}]}\n\n")
			fmt.Fprintf(w, "data: {\"error\":{\"message\":\"you sent %s\"}}\n\n", auth)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(401)
		fmt.Fprintf(w, `{"error":{"message":"you sent %s"}}`, auth)
	}))
	t.Cleanup(be.Close)
	cfg := strings.Replace(compatConfig(be.URL, "env.CHAT_KEY"), "routing:\n", "routing:\n  expose_upstream_errors: true\n", 1)
	r := startRouter(t, cfg, "CHAT_KEY="+key)
	var shown strings.Builder
	for _, body := range []string{chatBody, strings.Replace(chatBody, `{`, `{"stream":true,`, 1)} {
		_, out := do(t, "POST", r.Inference+"/v1/chat/completions", body)
		shown.Write(out)
	}
	if !strings.Contains(shown.String(), "you sent Bearer [redacted]") {
		t.Errorf("the exposed upstream text is missing or not redacted:\n%s", shown.String())
	}
	r.Stop()
	if !strings.Contains(r.logs.String(), "you sent Bearer [redacted]") {
		t.Errorf("the log lacks the redacted upstream text:\n%s", r.logs)
	}
	if strings.Contains(shown.String()+r.logs.String(), key) {
		t.Errorf("the key leaked:\n%s\n%s", shown.String(), r.logs)
	}
}

// TestKeyEchoedTokenByTokenIsRedacted runs the binary in front of a backend that streams the
// Authorization header it received back a few bytes per event, as a model repeating it
// would: in the content, in the reasoning and in a tool call's arguments, with the finish on
// an event of its own; and, on a second request, stopped past the middle of the key with no
// finish at all. What the official SDK assembles holds "[redacted]" and never the key, nor
// its longer half, and the rest of the text arrives whole and in order.
func TestKeyEchoedTokenByTokenIsRedacted(t *testing.T) {
	t.Parallel()
	const key = "sk-echoed-SECRET-9a7c3e"
	var calls atomic.Int64
	be := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		echo := "you sent " + r.Header.Get("Authorization") + ", ok"
		event := func(delta string, finish string) {
			fr := "null"
			if finish != "" {
				fr = `"` + finish + `"`
			}
			fmt.Fprintf(w, "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"up\",\"choices\":[{\"index\":0,\"delta\":%s,\"finish_reason\":%s}]}\n\n", delta, fr)
		}
		quote := func(s string) string { b, _ := json.Marshal(s); return string(b) }
		if calls.Add(1) == 2 { // stopped in the middle of the key
			cut := strings.Index(echo, "SECRET-") + len("SECRET-") // more than half of the key
			for i := 0; i < cut; i += 4 {
				event(`{"content":`+quote(echo[i:min(i+4, cut)])+`}`, "")
			}
			fmt.Fprint(w, "data: [DONE]\n\n")
			return
		}
		for i := 0; i < len(echo); i += 3 {
			event(`{"content":`+quote(echo[i:min(i+3, len(echo))])+`}`, "")
		}
		for i := 0; i < len(echo); i += 2 {
			event(`{"reasoning_content":`+quote(echo[i:min(i+2, len(echo))])+`}`, "")
		}
		args := `{"note":"` + echo + `"}`
		event(`{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"save","arguments":""}}]}`, "")
		for i := 0; i < len(args); i += 5 {
			event(`{"tool_calls":[{"index":0,"function":{"arguments":`+quote(args[i:min(i+5, len(args))])+`}}]}`, "")
		}
		event(`{}`, "tool_calls")
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(be.Close)
	r := startRouter(t, compatConfig(be.URL, "env.CHAT_KEY"), "CHAT_KEY="+key)
	client := sdk(r)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	params := openai.ChatCompletionNewParams{Model: "chat", Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("echo")}}

	stream := client.Chat.Completions.NewStreaming(ctx, params)
	var acc openai.ChatCompletionAccumulator
	var reasoning strings.Builder
	for stream.Next() {
		c := stream.Current()
		acc.AddChunk(c)
		if len(c.Choices) > 0 {
			if v, ok := c.Choices[0].Delta.JSON.ExtraFields["reasoning_content"]; ok {
				var s string
				_ = json.Unmarshal([]byte(v.Raw()), &s)
				reasoning.WriteString(s)
			}
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	const want = "you sent Bearer [redacted], ok"
	msg := acc.Choices[0].Message
	if msg.Content != want || reasoning.String() != want {
		t.Errorf("content %q\nreasoning %q\nwant %q for both", msg.Content, reasoning.String(), want)
	}
	if len(msg.ToolCalls) != 1 || msg.ToolCalls[0].Function.Arguments != `{"note":"`+want+`"}` || acc.Choices[0].FinishReason != "tool_calls" {
		t.Errorf("tool calls %+v, finish %q: want one with the arguments redacted", msg.ToolCalls, acc.Choices[0].FinishReason)
	}

	stream = client.Chat.Completions.NewStreaming(ctx, params)
	var cut strings.Builder
	for stream.Next() {
		if c := stream.Current(); len(c.Choices) > 0 {
			cut.WriteString(c.Choices[0].Delta.Content)
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	if cut.String() != "you sent Bearer [redacted]" {
		t.Errorf("a stream stopped inside the key: %q, want its start masked", cut.String())
	}
	r.Stop()
	if strings.Contains(r.logs.String(), "sk-echoed") {
		t.Errorf("the log holds the key:\n%s", r.logs)
	}
}

// TestEncodedKeyIsRedacted runs the binary in front of a backend that answers with the
// Authorization header it received base64 and hex encoded, in an answer and in a stream cut
// into small events. What the official SDK receives holds none of the encodings, nor the
// key, which a client would decode from them at once.
func TestEncodedKeyIsRedacted(t *testing.T) {
	t.Parallel()
	const key = "sk-encoded-SECRET-4b1d9e"
	be := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		auth := []byte(r.Header.Get("Authorization"))
		echo := "b64 " + base64.StdEncoding.EncodeToString(auth) + " hex " + hex.EncodeToString(auth) + " ok"
		quote := func(s string) string { b, _ := json.Marshal(s); return string(b) }
		if r.Header.Get("Accept") != "text/event-stream" {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"id":"c1","object":"chat.completion","created":1,"model":"up","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":%s}}]}`, quote(echo))
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for i := 0; i < len(echo); i += 3 {
			fmt.Fprintf(w, "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"up\",\"choices\":[{\"index\":0,\"delta\":{\"content\":%s}}]}\n\n", quote(echo[i:min(i+3, len(echo))]))
		}
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(be.Close)
	r := startRouter(t, compatConfig(be.URL, "env.CHAT_KEY"), "CHAT_KEY="+key)
	client := sdk(r)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	params := openai.ChatCompletionNewParams{Model: "chat", Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("echo")}}
	const want = "b64 QmVhcmVyIH[redacted]Q== hex 42656172657220[redacted] ok"

	answer, err := client.Chat.Completions.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	if got := answer.Choices[0].Message.Content; got != want {
		t.Errorf("answer %q, want %q", got, want)
	}
	stream := client.Chat.Completions.NewStreaming(ctx, params)
	var streamed strings.Builder
	for stream.Next() {
		if c := stream.Current(); len(c.Choices) > 0 {
			streamed.WriteString(c.Choices[0].Delta.Content)
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	if streamed.String() != want {
		t.Errorf("stream %q, want %q", streamed.String(), want)
	}
}
