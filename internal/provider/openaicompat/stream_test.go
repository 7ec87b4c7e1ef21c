package openaicompat

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/provider"
)

func testStream(raw string) *stream {
	c := &Client{opts: Options{Name: "qwen", BaseURL: "http://vllm.test/v1"}}
	r := strings.NewReader(raw)
	return &stream{c: c, ctx: context.Background(), key: "sk-stream-secret", body: io.NopCloser(r), sse: openai.NewSSEReader(r), cancel: func() {}}
}

const cleanStream = "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Hi\"},\"finish_reason\":null}]}\n\n" +
	"data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"

func TestStreamEnds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, raw string
		want      string // the error after the chunks, "" for a clean end
	}{
		{"finish and [DONE]", cleanStream + "data: [DONE]\n\n", ""},
		{"finish without [DONE]", cleanStream, ""},
		{"[DONE] without finish", "data: {\"choices\":[{\"delta\":{\"content\":\"Hi\"}}]}\n\ndata: [DONE]\n\n", ""},
		{"neither finish nor [DONE]", "data: {\"choices\":[{\"delta\":{\"content\":\"Hi\"}}]}\n\n",
			`model "qwen": http://vllm.test/v1: the stream ended with neither a finish_reason nor [DONE]`},
		{"an event that is not JSON", "data: {\"choices\":[]}\n\ndata: {not json\n\n",
			`model "qwen": http://vllm.test/v1: stream event 2 is not a JSON object`},
		{"an error chunk echoing the key", "data: {\"error\":{\"message\":\"bad auth Bearer sk-stream-secret\"}}\n\n",
			`model "qwen": http://vllm.test/v1 failed during the stream: bad auth Bearer [redacted]`},
		{"no event", "", `model "qwen": http://vllm.test/v1: the stream ended without a single event`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := testStream(tt.raw)
			var err error
			for err == nil {
				_, err = s.Next()
			}
			if tt.want == "" {
				if !errors.Is(err, io.EOF) {
					t.Fatalf("end = %v, want io.EOF", err)
				}
				return
			}
			if err.Error() != tt.want {
				t.Fatalf("end = %v\nwant  %s", err, tt.want)
			}
		})
	}
}

// TestStreamPutsAnEventOnOneLine: an event written as several data lines comes out as one
// line of JSON, which the router writes after a single "data: ".
func TestStreamPutsAnEventOnOneLine(t *testing.T) {
	t.Parallel()
	s := testStream("data: {\ndata:   \"choices\": [{\"index\": 0, \"delta\": {\"content\": \"a\\nb\"},\r\ndata:   \"finish_reason\": \"stop\"}]\ndata: }\n\ndata: [DONE]\n\n")
	data, err := s.Next()
	if err != nil {
		t.Fatal(err)
	}
	if want := `{  "choices": [{"index": 0, "delta": {"content": "a\nb"},  "finish_reason": "stop"}]}`; string(data) != want {
		t.Errorf("chunk %q\nwant  %q", data, want)
	}
	if _, err := s.Next(); !errors.Is(err, io.EOF) {
		t.Errorf("end = %v, want io.EOF", err)
	}
}

func FuzzStream(f *testing.F) {
	f.Add(cleanStream + "data: [DONE]\n\n")
	f.Add("data: {\"error\":{\"message\":\"x\"}}\n\n")
	f.Add("event: error\ndata: {\"message\":\"x\"}\n\n")
	f.Add("data: {not json\n\n")
	f.Add(": keep-alive\n\ndata: {\"choices\":[{\"finish_reason\":\"length\"}]}\n\n")
	f.Add("data: {\ndata: \"choices\":[{\"finish_reason\":\"stop\"}]\ndata: }\n\n")
	f.Fuzz(func(t *testing.T, raw string) {
		s := testStream(raw)
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
				if strings.Contains(pe.Message, "sk-stream-secret") {
					t.Fatalf("error %q holds the key", pe.Message)
				}
				return
			}
			if !json.Valid(data) || strings.ContainsAny(string(data), "\r\n") {
				t.Fatalf("chunk %q is not JSON on one line", data)
			}
		}
		t.Fatal("the stream did not end")
	})
}

// BenchmarkStreamNext measures one chunk through the stream: SSE parsing plus the check
// that the chunk is JSON and whether it finishes the answer.
func BenchmarkStreamNext(b *testing.B) {
	const chunk = "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"word \"},\"finish_reason\":null}]}\n\n"
	raw := strings.Repeat(chunk, 1000)
	b.ReportAllocs()
	for b.Loop() {
		s := testStream(raw)
		for range 1000 {
			if _, err := s.Next(); err != nil {
				b.Fatal(err)
			}
		}
	}
}
