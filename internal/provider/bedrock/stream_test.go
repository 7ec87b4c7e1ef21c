package bedrock

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream"

	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/provider"
)

// frames encodes event-stream messages; each is {message-type, type header, payload}.
func frames(t testing.TB, msgs ...[3]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := eventstream.NewEncoder()
	for _, m := range msgs {
		var h eventstream.Headers
		h.Set(":message-type", eventstream.StringValue(m[0]))
		switch m[0] {
		case "event":
			h.Set(":event-type", eventstream.StringValue(m[1]))
		case "exception":
			h.Set(":exception-type", eventstream.StringValue(m[1]))
		case "error":
			h.Set(":error-code", eventstream.StringValue(m[1]))
			h.Set(":error-message", eventstream.StringValue(m[2]))
		}
		h.Set(":content-type", eventstream.StringValue("application/json"))
		if err := enc.Encode(&buf, eventstream.Message{Headers: h, Payload: []byte(m[2])}); err != nil {
			t.Fatal(err)
		}
	}
	return buf.Bytes()
}

var textStream = [][3]string{
	{"event", "messageStart", `{"role":"assistant","p":"abc"}`},
	{"event", "contentBlockDelta", `{"contentBlockIndex":0,"delta":{"text":"Hello"}}`},
	{"event", "contentBlockDelta", `{"contentBlockIndex":0,"delta":{"text":" world"}}`},
	{"event", "contentBlockStop", `{"contentBlockIndex":0}`},
	{"event", "contentBlockStart", `{"contentBlockIndex":1,"start":{"toolUse":{"toolUseId":"t1","name":"f"}}}`},
	{"event", "contentBlockDelta", `{"contentBlockIndex":1,"delta":{"toolUse":{"input":"{\"a\":"}}}`},
	{"event", "contentBlockDelta", `{"contentBlockIndex":1,"delta":{"toolUse":{"input":"1}"}}}`},
	{"event", "contentBlockStop", `{"contentBlockIndex":1}`},
	{"event", "messageStop", `{"stopReason":"tool_use"}`},
	{"event", "metadata", `{"usage":{"inputTokens":5,"outputTokens":7,"totalTokens":12},"metrics":{"latencyMs":3}}`},
}

func testStream(raw []byte, includeUsage bool) *stream {
	c := &Client{opts: Options{Name: "claude"}, base: "https://bedrock.test"}
	r := bytes.NewReader(raw)
	return &stream{c: c, body: io.NopCloser(r), events: newEventReader(r), cancel: func() {},
		ch: chunker{id: "chatcmpl-1", model: "m", created: 7, includeUsage: includeUsage}}
}

func drain(s *stream) ([]string, error) {
	var out []string
	for {
		data, err := s.Next()
		if err != nil {
			return out, err
		}
		out = append(out, string(data))
	}
}

func TestStreamTranslation(t *testing.T) {
	t.Parallel()
	got, err := drain(testStream(frames(t, textStream...), true))
	if !errors.Is(err, io.EOF) {
		t.Fatalf("end: %v", err)
	}
	pre := `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":7,"model":"m","choices":`
	want := []string{
		pre + `[{"index":0,"delta":{"role":"assistant"},"finish_reason":null}]}`,
		pre + `[{"index":0,"delta":{"content":"Hello"},"finish_reason":null}]}`,
		pre + `[{"index":0,"delta":{"content":" world"},"finish_reason":null}]}`,
		pre + `[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"t1","type":"function","function":{"name":"f","arguments":""}}]},"finish_reason":null}]}`,
		pre + `[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"a\":"}}]},"finish_reason":null}]}`,
		pre + `[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"1}"}}]},"finish_reason":null}]}`,
		pre + `[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`,
		pre + `[],"usage":{"prompt_tokens":5,"completion_tokens":7,"total_tokens":12}}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestStreamUsage checks the usage chunk made of ConverseStream's metadata event, whose
// usage counts the prompt cache apart from inputTokens as Converse's answer does.
func TestStreamUsage(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, metadata, want string }{
		{"no cache", `{"usage":{"inputTokens":5,"outputTokens":7,"totalTokens":12},"metrics":{"latencyMs":3}}`,
			`{"prompt_tokens":5,"completion_tokens":7,"total_tokens":12}`},
		{"cache read and written", `{"usage":{"inputTokens":5,"outputTokens":7,"totalTokens":1612,"cacheReadInputTokens":1500,"cacheWriteInputTokens":100},"metrics":{"latencyMs":3}}`,
			`{"prompt_tokens":1605,"completion_tokens":7,"total_tokens":1612,"prompt_tokens_details":{"cached_tokens":1500}}`},
		{"cache written", `{"usage":{"inputTokens":5,"outputTokens":7,"totalTokens":112,"cacheWriteInputTokens":100},"metrics":{"latencyMs":3}}`,
			`{"prompt_tokens":105,"completion_tokens":7,"total_tokens":112,"prompt_tokens_details":{"cached_tokens":0}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			events := append(textStream[:len(textStream)-1:len(textStream)-1], [3]string{"event", "metadata", tt.metadata})
			got, err := drain(testStream(frames(t, events...), true))
			if !errors.Is(err, io.EOF) {
				t.Fatalf("end: %v", err)
			}
			want := `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":7,"model":"m","choices":[],"usage":` + tt.want + `}`
			if last := got[len(got)-1]; last != want {
				t.Fatalf("usage chunk\n%s\nwant\n%s", last, want)
			}
		})
	}
}

func TestStreamFailures(t *testing.T) {
	t.Parallel()
	start := textStream[:2:2] // full slice expression: appends must not write into textStream
	good := frames(t, start...)
	corrupt := bytes.Clone(good)
	corrupt[len(corrupt)-1] ^= 0xff // the last message's CRC
	huge := append(bytes.Clone(good), 0x7f, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0)
	tests := []struct {
		name  string
		raw   []byte
		kind  provider.Kind
		want  string
		retry bool
	}{
		{"throttled mid-stream", frames(t, append(start, [3]string{"exception", "throttlingException", `{"message":"Too many tokens, please wait."}`})...),
			provider.KindRateLimited, `model "claude": Bedrock failed during the stream (throttlingException): Too many tokens, please wait.`, true},
		{"model stream error", frames(t, append(start, [3]string{"exception", "modelStreamErrorException", `{"message":"The model failed."}`})...),
			provider.KindUpstream, `model "claude": Bedrock failed during the stream (modelStreamErrorException): The model failed.`, false},
		{"error message", frames(t, append(start, [3]string{"error", "InternalFailure", "boom"})...),
			provider.KindUpstream, `model "claude": Bedrock failed during the stream (InternalFailure): boom`, false},
		{"ends before messageStop", good, provider.KindProtocol, `model "claude": https://bedrock.test: the stream ended before messageStop`, false},
		{"cut inside a message", good[:len(good)-3], provider.KindProtocol, `model "claude": https://bedrock.test: the stream was cut in the middle of an event`, false},
		{"bad checksum", corrupt, provider.KindProtocol, `model "claude": https://bedrock.test: the event stream is corrupt: message checksum mismatch`, false},
		{"absurd length", huge, provider.KindProtocol, `model "claude": https://bedrock.test: the event stream is corrupt: event-stream message with length 2147483647 and headers length 0`, false},
		{"payload is not JSON", frames(t, [3]string{"event", "contentBlockDelta", `{"delta":`}), provider.KindProtocol,
			`model "claude": https://bedrock.test: event contentBlockDelta does not parse`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := drain(testStream(tt.raw, false))
			var pe *provider.Error
			if !errors.As(err, &pe) || pe.Kind != tt.kind || err.Error() != tt.want || (pe.RetryAfter > 0) != tt.retry {
				t.Fatalf("error %v (%#v), want kind %v %q", err, pe, tt.kind, tt.want)
			}
		})
	}
}

// FuzzEventStream feeds arbitrary bytes through the event-stream decoding and translation:
// it must never panic, every chunk must be JSON, and every failure a *provider.Error.
func FuzzEventStream(f *testing.F) {
	f.Add(frames(f, textStream...))
	f.Add(frames(f, textStream[:3]...))
	f.Add(frames(f, [3]string{"exception", "validationException", `{"message":"x"}`}))
	f.Add([]byte{0, 0, 0, 16, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, raw []byte) {
		s := testStream(raw, true)
		for range 10000 {
			data, err := s.Next()
			if errors.Is(err, io.EOF) {
				return
			}
			if err != nil {
				var pe *provider.Error
				if !errors.As(err, &pe) {
					t.Fatalf("error %T %v, want *provider.Error", err, err)
				}
				return
			}
			var ch openai.ChatChunk
			if err := json.Unmarshal(data, &ch); err != nil {
				t.Fatalf("chunk %q is not JSON: %v", data, err)
			}
		}
		t.Fatal("the stream did not end")
	})
}

// BenchmarkStreamDecode measures event-stream bytes in, OpenAI chunks out, per event.
func BenchmarkStreamDecode(b *testing.B) {
	msgs := [][3]string{textStream[0]}
	for range 100 {
		msgs = append(msgs, [3]string{"event", "contentBlockDelta", `{"contentBlockIndex":0,"delta":{"text":" token"},"p":"abcdefghij"}`})
	}
	msgs = append(msgs, textStream[8], textStream[9])
	raw := frames(b, msgs...)
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := drain(testStream(raw, true)); !errors.Is(err, io.EOF) {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(msgs)), "ns/event")
}
