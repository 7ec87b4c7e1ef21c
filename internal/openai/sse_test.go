package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"slices"
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

// parts is a body that arrives in the given pieces, one a Read, as a server's writes reach
// a client; reads counts the Reads made.
type parts struct {
	pieces [][]byte
	reads  int
}

func (p *parts) Read(b []byte) (int, error) {
	p.reads++
	if len(p.pieces) == 0 {
		return 0, io.EOF
	}
	n := copy(b, p.pieces[0])
	if p.pieces[0] = p.pieces[0][n:]; len(p.pieces[0]) == 0 {
		p.pieces = p.pieces[1:]
	}
	return n, nil
}

// readBuffered reads every event of pieces and returns, for each, whether Buffered said
// before it that it was whole in the buffer, and whether Next then read the body.
func readBuffered(pieces ...string) (buffered, read []bool) {
	p := &parts{}
	for _, s := range pieces {
		p.pieces = append(p.pieces, []byte(s))
	}
	r := NewSSEReader(p)
	for {
		b, before := r.Buffered(), p.reads
		if _, err := r.Next(); err != nil {
			return buffered, read
		}
		buffered, read = append(buffered, b), append(read, p.reads > before)
	}
}

func TestSSEReaderBuffered(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		pieces []string
		want   []bool // Buffered before each event
	}{
		{"one event a write", []string{"data: a\n\n", "data: b\n\n", "data: [DONE]\n\n"}, []bool{false, false, false}},
		{"events that arrive together", []string{"data: a\n\ndata: b\n\ndata: [DONE]\n\n"}, []bool{false, true, true}},
		{"the next event cut", []string{"data: a\n\ndata: b", "\n\n"}, []bool{false, false}},
		{"the next event without its blank line", []string{"data: a\n\ndata: b\n", "\n"}, []bool{false, false}},
		{"a comment is no event", []string{"data: a\n\n: keep-alive\n\n", "data: b\n\n"}, []bool{false, false}},
		{"a comment before an event", []string{"data: a\n\n: keep-alive\n\ndata: b\n\n"}, []bool{false, true}},
		{"fields that are not data", []string{"data: a\n\nevent: e\nid: 1\n\n", "data: b\n\n"}, []bool{false, false}},
		{"crlf lines and a bare data field", []string{"data: a\r\n\r\ndata\r\n\r\n"}, []bool{false, true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			buffered, read := readBuffered(tt.pieces...)
			if !slices.Equal(buffered, tt.want) {
				t.Errorf("Buffered before each event = %v, want %v", buffered, tt.want)
			}
			for i := range buffered {
				if buffered[i] == read[i] {
					t.Errorf("event %d: Buffered said %v, and Next read the body: %v", i, buffered[i], read[i])
				}
			}
		})
	}
}

// FuzzSSEReaderBuffered checks Buffered against Next on any body cut anywhere: it is true
// exactly when Next returns the next event without reading the body.
func FuzzSSEReaderBuffered(f *testing.F) {
	f.Add([]byte("data: a\n\ndata: b\n\n: c\n\ndata: [DONE]\n\n"), uint64(0x0f0f0f0f))
	f.Add([]byte("event: e\r\ndata: x\r\ndata\r\n\r\ndata: y\n\n"), uint64(3))
	f.Fuzz(func(t *testing.T, body []byte, cuts uint64) {
		// Each set bit of cuts ends a piece after that byte (modulo 64).
		var pieces []string
		start := 0
		for i := range body {
			if cuts&(1<<(i%64)) != 0 {
				pieces = append(pieces, string(body[start:i+1]))
				start = i + 1
			}
		}
		pieces = append(pieces, string(body[start:]))
		buffered, read := readBuffered(pieces...)
		for i := range buffered {
			if buffered[i] == read[i] {
				t.Fatalf("event %d of %q cut as %q: Buffered said %v, and Next read the body: %v", i, body, pieces, buffered[i], read[i])
			}
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
