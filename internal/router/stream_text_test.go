package router

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/semantic-router/semantic-router/internal/redact"
)

const textKey = "sk-held-SECRET-0042"

func textRedactor() *redact.Redactor {
	red := redact.New()
	red.NewSet().Replace([]string{textKey})
	return red
}

// joined sends chunks through a streamText and returns each choice's joined content, the
// events sent, and the joined arguments of tool call 0 of choice 0.
func joined(t *testing.T, chunks []string) (content map[int64]string, events int, args string) {
	t.Helper()
	st := newStreamText(textRedactor())
	content = map[int64]string{}
	read := func(ev []byte) {
		events++
		var c struct {
			Choices []struct {
				Index int64 `json:"index"`
				Delta struct {
					Content   string `json:"content"`
					ToolCalls []struct {
						Function struct {
							Arguments string `json:"arguments"`
						} `json:"function"`
					} `json:"tool_calls"`
				} `json:"delta"`
			} `json:"choices"`
		}
		if err := json.Unmarshal(ev, &c); err != nil {
			t.Fatalf("event %s: %v", ev, err)
		}
		for _, ch := range c.Choices {
			content[ch.Index] += ch.Delta.Content
			for _, tc := range ch.Delta.ToolCalls {
				args += tc.Function.Arguments
			}
		}
	}
	for _, c := range chunks {
		before, out := st.chunk([]byte(c))
		for _, ev := range before {
			read(ev)
		}
		read(out)
	}
	for _, ev := range st.end() {
		read(ev)
	}
	return content, events, args
}

func contentChunk(index int, text, finish string) string {
	q, _ := json.Marshal(text)
	fr := "null"
	if finish != "" {
		fr = `"` + finish + `"`
	}
	return fmt.Sprintf(`{"id":"c","object":"chat.completion.chunk","created":7,"model":"m","choices":[{"index":%d,"delta":{"content":%s},"finish_reason":%s}]}`, index, q, fr)
}

func TestStreamTextHoldsAValueAcrossEvents(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		chunks []string
		want   map[int64]string
		events int
	}{
		{"plain text passes as it came",
			[]string{contentChunk(0, "Hello", ""), contentChunk(0, " world", ""), contentChunk(0, "", "stop")},
			map[int64]string{0: "Hello world"}, 3},
		{"a key cut in three",
			[]string{contentChunk(0, "key sk-he", ""), contentChunk(0, "ld-SECRET", ""), contentChunk(0, "-0042 ok", ""), contentChunk(0, "", "stop")},
			map[int64]string{0: "key [redacted] ok"}, 4},
		{"held text goes out with the finishing event's own text",
			[]string{contentChunk(0, "a sk-held", ""), contentChunk(0, "-SEC", "length")},
			map[int64]string{0: "a [redacted]"}, 2},
		{"held text of a choice finished without text goes out before its finish",
			[]string{contentChunk(0, "ends with s", ""), `{"id":"c","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`},
			map[int64]string{0: "ends with s"}, 3},
		{"a stream that ends holding text sends it",
			[]string{contentChunk(0, "ends with sk-", "")},
			map[int64]string{0: "ends with sk-"}, 2},
		{"choices by their index, in separate events",
			[]string{contentChunk(1, "sk-held-", ""), contentChunk(0, "sk-held-", ""), contentChunk(1, "SECRET-0042", ""), contentChunk(0, "SECRETS", "stop"), contentChunk(1, "", "stop")},
			map[int64]string{0: "sk-held-SECRETS", 1: "[redacted]"}, 5},
		{"JSON escapes in the pieces",
			[]string{`{"choices":[{"index":0,"delta":{"content":"sk-h\u0065ld-SEC"}}]}`, `{"choices":[{"index":0,"delta":{"content":"RET-0042"},"finish_reason":"stop"}]}`},
			map[int64]string{0: "[redacted]"}, 2},
		{"an event that is not a chunk is left alone",
			[]string{`{"error":{"message":"x"}}`, `{"choices":null}`, contentChunk(0, "fine", "stop")},
			map[int64]string{0: "fine"}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, events, _ := joined(t, tt.chunks)
			for k, v := range tt.want {
				if got[k] != v {
					t.Errorf("choice %d: %q, want %q", k, got[k], v)
				}
			}
			if events != tt.events {
				t.Errorf("%d events, want %d", events, tt.events)
			}
		})
	}
}

func TestStreamTextToolArguments(t *testing.T) {
	t.Parallel()
	args := `{"k":"` + textKey + `"}`
	var chunks []string
	for i := 0; i < len(args); i += 4 {
		q, _ := json.Marshal(args[i:min(i+4, len(args))])
		chunks = append(chunks, fmt.Sprintf(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":%s}}]}}]}`, q))
	}
	chunks = append(chunks, `{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`)
	if _, _, got := joined(t, chunks); got != `{"k":"[redacted]"}` {
		t.Errorf("arguments %q", got)
	}
}

// TestStreamTextLegacyFunctionCallAndAudioTranscript: the deprecated function_call's
// arguments and an audio answer's transcript are joined by clients as content is, so a key
// cut across their events is masked too, and what was held goes out under the same field.
func TestStreamTextLegacyFunctionCallAndAudioTranscript(t *testing.T) {
	t.Parallel()
	text := `{"k":"` + textKey + `"} and more`
	for _, field := range []struct{ object, member string }{{"function_call", "arguments"}, {"audio", "transcript"}} {
		t.Run(field.object, func(t *testing.T) {
			t.Parallel()
			st := newStreamText(textRedactor())
			var got strings.Builder
			read := func(ev []byte) {
				var c struct {
					Choices []struct {
						Delta map[string]map[string]any `json:"delta"`
					} `json:"choices"`
				}
				if err := json.Unmarshal(ev, &c); err != nil {
					t.Fatalf("event %s: %v", ev, err)
				}
				for _, ch := range c.Choices {
					if v, ok := ch.Delta[field.object][field.member].(string); ok {
						got.WriteString(v)
					}
				}
			}
			for i := 0; i < len(text); i += 3 {
				q, _ := json.Marshal(text[i:min(i+3, len(text))])
				before, out := st.chunk(fmt.Appendf(nil, `{"choices":[{"index":0,"delta":{%q:{%q:%s}}}]}`, field.object, field.member, q))
				for _, ev := range before {
					read(ev)
				}
				read(out)
			}
			for _, ev := range st.end() {
				read(ev)
			}
			if want := `{"k":"[redacted]"} and more`; got.String() != want {
				t.Errorf("joined %q, want %q", got.String(), want)
			}
		})
	}
}

// FuzzStreamText cuts a text holding the key at fuzzed places: the joined content never holds
// the key and reads as the whole text redacted at once, and a chunk of any bytes is either a
// chunk or returned as it came.
func FuzzStreamText(f *testing.F) {
	f.Add("before "+textKey+" after", []byte{3, 5, 1})
	f.Add(textKey+textKey[:9], []byte{1, 1, 1, 1})
	f.Add("x", []byte{})
	f.Fuzz(func(t *testing.T, text string, cuts []byte) {
		text = strings.ToValidUTF8(text, "?")
		var chunks []string
		rest := text
		for _, c := range cuts {
			n := min(int(c)%8+1, len(rest))
			for n < len(rest) && !utf8.RuneStart(rest[n]) { // a backend cuts between characters
				n++
			}
			chunks = append(chunks, contentChunk(0, rest[:n], ""))
			rest = rest[n:]
		}
		chunks = append(chunks, contentChunk(0, rest, "stop"), text)
		got, _, _ := joined(t, chunks[:len(chunks)-1])
		if strings.Contains(got[0], textKey) {
			t.Fatalf("%q cut at %v joined to %q", text, cuts, got[0])
		}
		// Joined, the pieces read as the whole text redacted at once, unless it ends with
		// enough of the key to be masked as unfinished.
		endsWithKey := false
		for k := redact.MinLength; k < len(textKey); k++ {
			endsWithKey = endsWithKey || strings.HasSuffix(text, textKey[:k])
		}
		if want := textRedactor().String(text); !endsWithKey && got[0] != want {
			t.Fatalf("%q cut at %v joined to %q, want %q", text, cuts, got[0], want)
		}
		st := newStreamText(textRedactor())
		_, _ = st.chunk([]byte(text))
	})
}

func BenchmarkStreamText(b *testing.B) {
	st := newStreamText(textRedactor())
	chunk := []byte(contentChunk(0, " token", ""))
	b.ReportAllocs()
	for b.Loop() {
		_, _ = st.chunk(chunk)
	}
}

// TestStreamTextDropsTheLogprobsThatSpellAValue: the tokens of a choice's logprobs spell its
// text as the backend sent it, so the events that carry a value, or hold enough of one to
// tell, go without them; the others keep theirs.
func TestStreamTextDropsTheLogprobsThatSpellAValue(t *testing.T) {
	t.Parallel()
	st := newStreamText(textRedactor())
	event := func(text string) string {
		q, _ := json.Marshal(text)
		return fmt.Sprintf(`{"choices":[{"index":0,"delta":{"content":%s},"logprobs":{"content":[{"token":%s,"logprob":-0.1,"bytes":[1]}]},"finish_reason":null}]}`, q, q)
	}
	for _, tt := range []struct {
		text     string
		logprobs bool
	}{
		// The key is whole after "-0042", and held in case a longer value goes on from it:
		// it goes out, masked, with " done".
		{"Hello", true}, {" s", true}, {"k-he", true}, {"ld-SECRET", false}, {"-0042", false}, {" done", false}, {" more", true},
	} {
		_, out := st.chunk([]byte(event(tt.text)))
		var c struct {
			Choices []struct {
				Logprobs json.RawMessage `json:"logprobs"`
			} `json:"choices"`
		}
		if err := json.Unmarshal(out, &c); err != nil {
			t.Fatalf("%q: %s: %v", tt.text, out, err)
		}
		if has := string(c.Choices[0].Logprobs) != "null"; has != tt.logprobs {
			t.Errorf("%q: logprobs %s, want them kept %v", tt.text, c.Choices[0].Logprobs, tt.logprobs)
		}
	}
}

func TestRedactAnswerDropsTheLogprobsOfAnAnswerThatHeldAValue(t *testing.T) {
	t.Parallel()
	red := textRedactor()
	const lp = `"logprobs":{"content":[{"token":"sk-held","logprob":-0.1},{"token":"-SECRET-0042","logprob":-0.2}]}`
	clean := `{"choices":[{"index":0,"message":{"role":"assistant","content":"hello"},` + lp + `}]}`
	if got := string(redactAnswer(red, []byte(clean))); got != clean {
		t.Errorf("an answer without a value changed: %s", got)
	}
	held := `{"choices":[{"index":0,"message":{"role":"assistant","content":"` + textKey + `"},` + lp + `,"finish_reason":"stop"}]}`
	want := `{"choices":[{"index":0,"message":{"role":"assistant","content":"[redacted]"},"logprobs":null,"finish_reason":"stop"}]}`
	if got := string(redactAnswer(red, []byte(held))); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
