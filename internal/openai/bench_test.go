package openai

import (
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
)

var benchBody = []byte(`{"model":"auto","messages":[{"role":"system","content":"You are a helpful assistant."},` +
	`{"role":"user","content":"` + strings.Repeat("Explain how a B-tree keeps itself balanced. ", 20) + `"}],` +
	`"temperature":0.7,"max_tokens":512,"stream":true,"top_k":20}`)

// BenchmarkParseChatRequest is the per-request decoding cost of a ~1 KB body.
func BenchmarkParseChatRequest(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(benchBody)))
	for b.Loop() {
		if _, err := ParseChatRequest(benchBody); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseChatRequestBaseline decodes the same body into a plain map, the least any
// gateway that rewrites the model must do; the ratio to BenchmarkParseChatRequest is the cost
// of typed fields plus passthrough of unknown ones.
func BenchmarkParseChatRequestBaseline(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(benchBody)))
	for b.Loop() {
		var m map[string]any
		if err := json.Unmarshal(benchBody, &m); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMarshalChatRequest is the cost of re-encoding the request for the upstream.
func BenchmarkMarshalChatRequest(b *testing.B) {
	req, apiErr := ParseChatRequest(benchBody)
	if apiErr != nil {
		b.Fatal(apiErr)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := req.Encode(); err != nil {
			b.Fatal(err)
		}
	}
}

// largeBody is an agent's request at turn forty: a ~121 KB conversation of 41 messages
// whose text has quotes and line breaks, as code and prose in chat do.
var largeBody = func() []byte {
	var b strings.Builder
	b.WriteString(`{"model":"auto","messages":[{"role":"system","content":"You are a helpful assistant."}`)
	turn := strings.Repeat(`Explain how a B-tree keeps itself \"balanced\" on insert,\nthen on delete. `, 40)
	for i := range 40 {
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		b.WriteString(`,{"role":"` + role + `","content":"` + turn + `"}`)
	}
	b.WriteString(`],"temperature":0.7,"max_tokens":512}`)
	return []byte(b.String())
}()

// BenchmarkParseChatRequestLarge is BenchmarkParseChatRequest on largeBody: what the
// router's decoding costs per kilobyte of conversation, which the proxy copying the same
// bytes does not pay.
func BenchmarkParseChatRequestLarge(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(largeBody)))
	for b.Loop() {
		if _, err := ParseChatRequest(largeBody); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMarshalChatRequestLarge re-encodes largeBody for the upstream.
func BenchmarkMarshalChatRequestLarge(b *testing.B) {
	req, apiErr := ParseChatRequest(largeBody)
	if apiErr != nil {
		b.Fatal(apiErr)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(largeBody)))
	for b.Loop() {
		if _, err := req.Encode(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSSEReader decodes a 100-event stream.
func BenchmarkSSEReader(b *testing.B) {
	var sb strings.Builder
	for range 100 {
		sb.WriteString(`data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"word "}}]}` + "\n\n")
	}
	sb.WriteString("data: [DONE]\n\n")
	stream := sb.String()
	b.ReportAllocs()
	b.SetBytes(int64(len(stream)))
	for b.Loop() {
		r := NewSSEReader(strings.NewReader(stream))
		for {
			if _, err := r.Next(); errors.Is(err, io.EOF) {
				break
			} else if err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkCheckKeys is the part of BenchmarkParseChatRequest that looks for smuggled keys.
func BenchmarkCheckKeys(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(benchBody)))
	for b.Loop() {
		if err := checkKeys(benchBody); err != nil {
			b.Fatal(err)
		}
	}
}
