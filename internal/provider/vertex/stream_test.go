package vertex

import (
	"encoding/json"
	"errors"
	"io"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/provider"
)

func testStream(raw string, includeUsage bool) *stream {
	c := &Client{opts: Options{Name: "gemini"}, base: "https://vertex.test"}
	r := strings.NewReader(raw)
	return &stream{c: c, body: io.NopCloser(r), sse: openai.NewSSEReader(r), cancel: func() {},
		ch: chunker{id: "chatcmpl-1", model: "m", created: 7, includeUsage: includeUsage}}
}

func drain(s *stream) ([]string, error) {
	var out []string
	for {
		data, err := s.Next()
		if err != nil {
			return out, err
		}
		out = append(out, callIDs.ReplaceAllString(string(data), "call_X"))
	}
}

const sseText = "data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"Hello\"}]}}],\"usageMetadata\":{\"promptTokenCount\":3}}\r\n\r\n" +
	"data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\" world\"},{\"functionCall\":{\"name\":\"f\",\"args\":{\"a\":1}}}]},\"finishReason\":\"STOP\"}]}\r\n\r\n" +
	"data: {\"usageMetadata\":{\"promptTokenCount\":3,\"candidatesTokenCount\":5,\"totalTokenCount\":8}}\r\n\r\n"

func TestStreamTranslation(t *testing.T) {
	t.Parallel()
	got, err := drain(testStream(sseText, true))
	if !errors.Is(err, io.EOF) {
		t.Fatalf("end: %v", err)
	}
	pre := `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":7,"model":"m","choices":`
	want := []string{
		pre + `[{"index":0,"delta":{"role":"assistant","content":"Hello"},"finish_reason":null}]}`,
		pre + `[{"index":0,"delta":{"content":" world"},"finish_reason":null}]}`,
		pre + `[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_X","type":"function","function":{"name":"f","arguments":"{\"a\":1}"}}]},"finish_reason":null}]}`,
		pre + `[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`,
		pre + `[],"usage":{"prompt_tokens":3,"completion_tokens":5,"total_tokens":8}}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestStreamBuffered: the chunks one Gemini event yields are handed out without a read, and
// so is the end once the body has ended; another event may yield no chunk, so a whole event
// in the buffer does not count.
func TestStreamBuffered(t *testing.T) {
	t.Parallel()
	s := testStream(sseText, true)
	var got []bool
	for {
		if _, err := s.Next(); err != nil {
			break
		}
		got = append(got, s.Buffered())
	}
	// "Hello"; " world", the call and the finish (one event); the usage, at the end.
	if want := []bool{false, true, true, false, true}; !slices.Equal(got, want) {
		t.Errorf("Buffered after each chunk = %v, want %v", got, want)
	}
}

// TestStreamCarriesThoughtSignatures: a signed call carries its signature in extra_content,
// and so does the delta of a signed text part, even one without text.
func TestStreamCarriesThoughtSignatures(t *testing.T) {
	t.Parallel()
	raw := "data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"functionCall\":{\"name\":\"f\",\"args\":{}},\"thoughtSignature\":\"c2lnQQ==\"}]}}]}\r\n\r\n" +
		"data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"Done.\"},{\"text\":\"\",\"thoughtSignature\":\"dGV4dA==\"}]},\"finishReason\":\"STOP\"}]}\r\n\r\n"
	got, err := drain(testStream(raw, false))
	if !errors.Is(err, io.EOF) {
		t.Fatalf("end: %v", err)
	}
	pre := `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":7,"model":"m","choices":`
	want := []string{
		pre + `[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"call_X","type":"function","function":{"name":"f","arguments":"{}"},"extra_content":{"google":{"thought_signature":"c2lnQQ=="}}}]},"finish_reason":null}]}`,
		pre + `[{"index":0,"delta":{"content":"Done."},"finish_reason":null}]}`,
		pre + `[{"index":0,"delta":{"extra_content":{"google":{"thought_signature":"dGV4dA=="}}},"finish_reason":null}]}`,
		pre + `[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestStreamChunkIDs: chunks take their id from Vertex's responseId, as a whole answer
// does, and keep the one they started with.
func TestStreamChunkIDs(t *testing.T) {
	t.Parallel()
	ev := func(responseID, text, finish string) string {
		e := `{"candidates":[{"content":{"role":"model","parts":[{"text":"` + text + `"}]}` + finish + `}]` + responseID + `}`
		return "data: " + e + "\r\n\r\n"
	}
	const stop = `,"finishReason":"STOP"`
	tests := []struct{ name, raw, want string }{
		{"responseId on every event", ev(`,"responseId":"r-42"`, "Hi", "") + ev(`,"responseId":"r-42"`, "!", stop), "chatcmpl-r-42"},
		{"responseId first, then another", ev(`,"responseId":"r-1"`, "Hi", "") + ev(`,"responseId":"r-2"`, "!", stop), "chatcmpl-r-1"},
		{"no responseId", ev("", "Hi", "") + ev("", "!", stop), "chatcmpl-1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := drain(testStream(tt.raw, false))
			if !errors.Is(err, io.EOF) || len(got) != 3 {
				t.Fatalf("chunks %q, end %v; want 3 and EOF", got, err)
			}
			for i, c := range got {
				var ch openai.ChatChunk
				if err := json.Unmarshal([]byte(c), &ch); err != nil || ch.ID != tt.want {
					t.Fatalf("chunk %d id %q (%v), want %q", i, ch.ID, err, tt.want)
				}
			}
		})
	}
}

// TestCompletionID: an answer without a responseId gets an id of its own, not one shaped
// like a tool call's.
func TestCompletionID(t *testing.T) {
	t.Parallel()
	id := completionID()
	if !regexp.MustCompile(`^chatcmpl-[A-Z2-7]{20}$`).MatchString(id) || id == completionID() {
		t.Fatalf("completionID() = %q, want chatcmpl- and 20 random base32 characters", id)
	}
}

func TestStreamFailures(t *testing.T) {
	t.Parallel()
	first := "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"Hi\"}]}}]}\n\n"
	tests := []struct {
		name, raw, want string
		kind            provider.Kind
	}{
		{"error event", first + `data: {"error":{"code":503,"message":"The model is overloaded.","status":"UNAVAILABLE"}}` + "\n\n",
			`model "gemini": Vertex AI failed during the stream (UNAVAILABLE): The model is overloaded.`, provider.KindUpstream},
		{"ends before a finishReason", first, `model "gemini": https://vertex.test: the stream ended before a finishReason`, provider.KindProtocol},
		{"cut inside an event", first + `data: {"candi`, `model "gemini": https://vertex.test: the stream was cut in the middle of an event`, provider.KindProtocol},
		{"not JSON", "data: hello\n\n", `model "gemini": https://vertex.test: a stream event is not a GenerateContentResponse`, provider.KindProtocol},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := drain(testStream(tt.raw, false))
			var pe *provider.Error
			if !errors.As(err, &pe) || pe.Kind != tt.kind || err.Error() != tt.want {
				t.Fatalf("error %v, want kind %v %q", err, tt.kind, tt.want)
			}
		})
	}
}

// FuzzSSE feeds arbitrary bytes through the SSE reading and Gemini translation: it must
// never panic, every chunk must be JSON, and every failure a *provider.Error.
func FuzzSSE(f *testing.F) {
	f.Add(sseText)
	f.Add("data: {\"promptFeedback\":{\"blockReason\":\"SAFETY\"}}\n\n")
	f.Add("data: {\"error\":{}}\n\n")
	f.Add("data: {\"candidates\":[]}\n\ndata: [DONE]\n\n")
	f.Fuzz(func(t *testing.T, raw string) {
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

// BenchmarkStreamDecode measures SSE bytes in, OpenAI chunks out, per event.
func BenchmarkStreamDecode(b *testing.B) {
	var sb strings.Builder
	const events = 100
	for range events - 1 {
		sb.WriteString("data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\" token\"}]}}],\"modelVersion\":\"gemini-2.0-flash-001\"}\r\n\r\n")
	}
	sb.WriteString("data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\".\"}]},\"finishReason\":\"STOP\"}],\"usageMetadata\":{\"promptTokenCount\":3,\"candidatesTokenCount\":100,\"totalTokenCount\":103}}\r\n\r\n")
	raw := sb.String()
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		s := testStream(raw, true)
		for {
			if _, err := s.Next(); err != nil {
				if !errors.Is(err, io.EOF) {
					b.Fatal(err)
				}
				break
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*events), "ns/event")
}
