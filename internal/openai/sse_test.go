package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
)

func readEvents(t *testing.T, body string) ([]string, error) {
	t.Helper()
	r := NewSSEReader(strings.NewReader(body))
	var out []string
	for {
		ev, err := r.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return out, nil
			}
			return out, err
		}
		out = append(out, ev.Event+"|"+string(ev.Data))
	}
}

func TestSSEReader(t *testing.T) {
	tests := []struct {
		name, body string
		want       []string
		err        error
	}{
		{"openai stream", "data: {\"a\":1}\n\ndata: {\"a\":2}\n\ndata: [DONE]\n\n", []string{`|{"a":1}`, `|{"a":2}`, "|[DONE]"}, nil},
		{"crlf and comments", ": keep-alive\r\n\r\ndata: x\r\n\r\n", []string{"|x"}, nil},
		{"multi-line data and event names", "event: error\ndata: a\ndata: b\n\n", []string{"error|a\nb"}, nil},
		{"no space after colon, id and retry ignored", "id: 7\nretry: 10\ndata:x\n\n", []string{"|x"}, nil},
		{"cut inside an event", "data: {\"a\":1}\n\ndata: {\"a\"", []string{`|{"a":1}`}, io.ErrUnexpectedEOF},
		{"cut before the blank line", "data: x\n", nil, io.ErrUnexpectedEOF},
		{"empty body", "", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readEvents(t, tt.body)
			if !errors.Is(err, tt.err) && (err != nil || tt.err != nil) {
				t.Fatalf("err = %v, want %v", err, tt.err)
			}
			if strings.Join(got, ",") != strings.Join(tt.want, ",") {
				t.Errorf("events %q, want %q", got, tt.want)
			}
		})
	}
}

func TestSSEReaderBoundsEventSize(t *testing.T) {
	body := "data: " + strings.Repeat("x", MaxSSEEventBytes+1) + "\n\n"
	if _, err := readEvents(t, body); !errors.Is(err, ErrSSEEventTooLarge) {
		t.Errorf("err = %v, want ErrSSEEventTooLarge", err)
	}
}

// FuzzSSEReader checks that no input panics the decoder or makes it loop, and that events
// written by a conforming encoder come back unchanged.
func FuzzSSEReader(f *testing.F) {
	f.Add([]byte("data: {\"a\":1}\n\ndata: [DONE]\n\n"), "payload")
	f.Add([]byte(": c\r\nevent: e\r\ndata: x\r\n\r\n"), "")
	f.Fuzz(func(t *testing.T, raw []byte, payload string) {
		r := NewSSEReader(strings.NewReader(string(raw)))
		for i := 0; ; i++ {
			if _, err := r.Next(); err != nil {
				break
			}
			if i > len(raw) {
				t.Fatal("more events than input bytes")
			}
		}
		if strings.ContainsAny(payload, "\r\n") {
			return
		}
		got, err := readEvents(t, "data: "+payload+"\n\n")
		if err != nil || len(got) != 1 || got[0] != "|"+payload {
			t.Fatalf("encoded %q, decoded %q (%v)", payload, got, err)
		}
	})
}

func TestOneLine(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, data, want string }{
		{"one line stays", `{"a":"b c"}`, `{"a":"b c"}`},
		{"data lines joined", "{\n  \"a\": 1,\n  \"b\": \"x\\ny\"\n}", `{  "a": 1,  "b": "x\ny"}`},
		{"a lone carriage return", "{\"a\":\r1}", `{"a":1}`},
	}
	for _, tt := range tests {
		if got := string(OneLine([]byte(tt.data))); got != tt.want {
			t.Errorf("%s: OneLine(%q) = %q, want %q", tt.name, tt.data, got, tt.want)
		}
	}
}

// FuzzOneLine: a JSON value on one line is the same value.
func FuzzOneLine(f *testing.F) {
	f.Add([]byte("{\n\"a\": [1,\r\n2],\n\"b\": \"\\n\"}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var before any
		if json.Unmarshal(data, &before) != nil {
			return
		}
		want, _ := json.Marshal(before)
		out := OneLine(bytes.Clone(data))
		var after any
		if bytes.ContainsAny(out, "\r\n") || json.Unmarshal(out, &after) != nil {
			t.Fatalf("OneLine(%q) = %q", data, out)
		}
		if got, _ := json.Marshal(after); !bytes.Equal(got, want) {
			t.Fatalf("OneLine(%q) = %q, which reads as %s, not %s", data, out, got, want)
		}
	})
}

func TestIsObject(t *testing.T) {
	t.Parallel()
	tests := []struct {
		data string
		want bool
	}{
		{`{"choices":[{"delta":{"content":"hi"}}]}`, true},
		{" \r\n\t{}", true},
		{`{"a":1,"a":2}`, true},            // a repeated name, as encoding/json reads it
		{"{\"a\":\"\xff\xfe\"}", true},     // invalid UTF-8 inside a string
		{`{"a":"\ud800"}`, true},           // a lone surrogate escape
		{`{} `, true},                      // trailing blanks
		{`{} {}`, false},                   // two values
		{`{"a":1`, false},                  // cut
		{`[{"a":1}]`, false},               // an array
		{`"text"`, false},                  // a string
		{``, false},                        // nothing
		{`{"a":01}`, false},                // a number JSON does not allow
		{"{\"a\":\"line\nbreak\"}", false}, // a raw control character in a string
	}
	for _, tt := range tests {
		if got := IsObject([]byte(tt.data)); got != tt.want {
			t.Errorf("IsObject(%q) = %v, want %v", tt.data, got, tt.want)
		}
	}
}

// FuzzIsObject: IsObject agrees with encoding/json.Valid on every input that starts, after
// blanks, with an opening brace.
func FuzzIsObject(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,{"b":null}]}`, `{"a":"\ud800\udc00"}`, "{\"a\":\"\xff\"}", `{"a":1e400}`, `{"a" : true }`, `{"a":"\u00"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		trimmed := bytes.TrimLeft(data, " \t\r\n")
		want := len(trimmed) > 0 && trimmed[0] == '{' && json.Valid(data)
		if got := IsObject(data); got != want {
			t.Fatalf("IsObject(%q) = %v, encoding/json says %v", data, got, want)
		}
	})
}
