package redact

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"testing"
)

func TestString(t *testing.T) {
	t.Parallel()
	r := New()
	r.NewSet().Replace([]string{"sk-backend-1234", "sk-backend-1234-long", "short", ""})
	r.NewSet().Replace([]string{"client-key-9876"})
	tests := []struct {
		name, in, want string
	}{
		{"no value", "nothing to hide here", "nothing to hide here"},
		{"one value", "Bearer sk-backend-1234 was rejected", "Bearer [redacted] was rejected"},
		{"the longer value wins", "key sk-backend-1234-long", "key [redacted]"},
		{"values of two sets", "sk-backend-1234 and client-key-9876", "[redacted] and [redacted]"},
		{"too short to redact", "a short word", "a short word"},
		{"every occurrence", "client-key-9876client-key-9876", "[redacted][redacted]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := r.String(tt.in); got != tt.want {
				t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if got := string(r.Bytes([]byte(tt.in))); got != tt.want {
				t.Errorf("Bytes(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestRotationAndClose(t *testing.T) {
	t.Parallel()
	r := New()
	s := r.NewSet()
	s.Replace([]string{"old-secret-value"})
	s.Replace([]string{"new-secret-value"})
	if got := r.String("old-secret-value new-secret-value"); got != "old-secret-value [redacted]" {
		t.Errorf("after rotation: %q", got)
	}
	s.Close()
	if got := r.String("new-secret-value"); got != "new-secret-value" || r.Active() {
		t.Errorf("after Close: %q, active %v", got, r.Active())
	}
	var nilR *Redactor
	if nilR.String("x-secret-x") != "x-secret-x" || nilR.Active() {
		t.Error("a nil Redactor must redact nothing")
	}
	nilR.NewSet().Replace([]string{"anything"}) // must not panic
}

type stringer struct{}

func (stringer) String() string { return "stringer holds sk-backend-1234" }

func TestHandler(t *testing.T) {
	t.Parallel()
	r := New()
	r.NewSet().Replace([]string{"sk-backend-1234"})
	var buf bytes.Buffer
	log := slog.New(Handler(slog.NewJSONHandler(&buf, nil), r))
	log.With("bound", "sk-backend-1234").WithGroup("g").Info("message sk-backend-1234",
		"s", "upstream said sk-backend-1234",
		"err", errors.New("error sk-backend-1234"),
		"str", stringer{},
		"bytes", []byte("bytes sk-backend-1234"),
		"any", map[string]string{"k": "sk-backend-1234"},
		"clean", map[string]int{"n": 1},
		slog.Group("inner", "v", "sk-backend-1234"),
		"n", 42)
	got := buf.String()
	if strings.Contains(got, "sk-backend-1234") {
		t.Fatalf("a secret was logged: %s", got)
	}
	for _, want := range []string{
		`"msg":"message [redacted]"`, `"bound":"[redacted]"`, `"s":"upstream said [redacted]"`, `"err":"error [redacted]"`,
		`"str":"stringer holds [redacted]"`, `"bytes":"bytes [redacted]"`, `"any":"{\"k\":\"[redacted]\"}"`,
		`"clean":{"n":1}`, `"inner":{"v":"[redacted]"}`, `"n":42`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("log line lacks %s: %s", want, got)
		}
	}
}

// BenchmarkString is the cost per log attribute or relayed text with ten registered values:
// the common case finds none and must not allocate.
func BenchmarkString(b *testing.B) {
	r := New()
	var vals []string
	for i := range 10 {
		vals = append(vals, strings.Repeat("k", 20)+string(rune('a'+i)))
	}
	r.NewSet().Replace(vals)
	clean := strings.Repeat("upstream model server answered 500 Internal Server Error ", 4)
	dirty := clean + vals[3]
	b.Run("none found", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = r.String(clean)
		}
	})
	b.Run("one found", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = r.String(dirty)
		}
	})
}

// TestHandlerPassesCleanRecords checks that a line without a registered value comes out as
// it would without redaction: passed on as it came, or rebuilt when an error or a LogValuer
// had to be turned into its text.
func TestHandlerPassesCleanRecords(t *testing.T) {
	t.Parallel()
	r := New()
	r.NewSet().Replace([]string{"sk-backend-1234"})
	noTime := &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey {
			return slog.Attr{}
		}
		return a
	}}
	for name, args := range map[string][]any{
		"as it came": {"request_id", "req-1", "status", 200, "latency_ms", 1.5, "stream", true,
			"model", "auto", "any", map[string]int{"n": 1}, slog.Group("g", "k", "v")},
		"rebuilt": {"request_id", "req-1", "valuer", level{}, "err", errors.New("upstream said no")},
	} {
		var plain, red bytes.Buffer
		slog.New(slog.NewJSONHandler(&plain, noTime)).Info("request", args...)
		slog.New(Handler(slog.NewJSONHandler(&red, noTime), r)).Info("request", args...)
		if plain.String() != red.String() {
			t.Errorf("%s: the redacted line differs without a secret in it:\n%s%s", name, red.String(), plain.String())
		}
	}
}

// sink takes the encoded lines and keeps nothing, so that the benchmark counts the encoding.
type sink struct{}

func (sink) Write(p []byte) (int, error) { return len(p), nil }

// level is a LogValuer.
type level struct{}

func (level) LogValue() slog.Value { return slog.StringValue("resolved") }

// BenchmarkHandler is the cost of an access log line with nine attributes through the
// redacting handler, against the same handler without it.
func BenchmarkHandler(b *testing.B) {
	r := New()
	r.NewSet().Replace([]string{"sk-backend-1234", "sk-other-5678"})
	for _, tc := range []struct {
		name string
		h    slog.Handler
	}{
		{"plain", slog.NewJSONHandler(sink{}, nil)},
		{"redacting", Handler(slog.NewJSONHandler(sink{}, nil), r)},
	} {
		log := slog.New(tc.h)
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				log.LogAttrs(context.Background(), slog.LevelInfo, "request", slog.String("request_id", "0b6c4f1e2a7d"),
					slog.String("method", "POST"), slog.String("path", "/v1/chat/completions"), slog.Int("status", 200),
					slog.Float64("latency_ms", 1.25), slog.String("model", "auto"), slog.String("selected_model", "qwen3-8b"),
					slog.Bool("stream", false), slog.String("client", "team-a"))
			}
		})
	}
}

// TestJSONFindsEscapedValues: a value written with JSON escapes inside a string, which a
// client's decoder would read back as the value, is replaced too; everything else stays.
func TestJSONFindsEscapedValues(t *testing.T) {
	t.Parallel()
	r := New()
	r.NewSet().Replace([]string{"sk-LEAKCHECK-0123"})
	for _, tt := range []struct{ in, want string }{
		{`{"content":"k=sk-LEAKCHECK-012\u0033"}`, `{"content":"k=[redacted]"}`},
		{`{"a":"\u0073\u006b-LEAKCHECK-0123 and \"quoted\"","b":[1,"x\\y"]}`, `{"a":"[redacted] and \"quoted\"","b":[1,"x\\y"]}`},
		{`{"sk-LEAKCHECK-012\u0033":1}`, `{"[redacted]":1}`},
		{`{"content":"sk-LEAKCHECK-0123"}`, `{"content":"[redacted]"}`},
		{`{"content":"a\nb","n":null}`, `{"content":"a\nb","n":null}`},
		{`{"content":"sk-LEAKCHECK-012\u0033`, `{"content":"sk-LEAKCHECK-012\u0033`},
	} {
		if got := string(r.JSON([]byte(tt.in))); got != tt.want {
			t.Errorf("JSON(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// TestSplit sends text in pieces as a stream does and checks what a reader who joins them
// sees: every value replaced however the pieces cut it, and all other text, in order.
func TestSplit(t *testing.T) {
	t.Parallel()
	r := New()
	r.NewSet().Replace([]string{"sk-backend-1234", "sk-backend-1234-long", "ya29.token-abc", "tok-abcdef", "secret-xyz", "abcdef-secret"})
	tests := []struct {
		name   string
		pieces []string
		want   string
	}{
		{"no value", []string{"Sure, ", "here ", "it is."}, "Sure, here it is."},
		{"a value in one piece", []string{"key: sk-backend-1234 ok"}, "key: [redacted] ok"},
		{"a value cut in three", []string{"key: sk-", "backend-", "1234 ok"}, "key: [redacted] ok"},
		{"one byte per piece", strings.Split("a sk-backend-1234!", ""), "a [redacted]!"},
		{"the longer value across pieces", []string{"sk-backend-1234", "-long."}, "[redacted]."},
		{"a beginning that goes elsewhere", []string{"ask", "s-", "k then sk-back", "stage"}, "asks-k then sk-backstage"},
		{"two values", []string{"ya29.tok", "en-abcsk-backend", "-1234"}, "[redacted][redacted]"},
		{"a short unfinished beginning is sent", []string{"see ya2"}, "see ya2"},
		{"a value cut where another begins", []string{"tok-abcdef-secret", "-xyz"}, "[redacted]-[redacted]"},
		{"a value that would be cut is held whole", []string{"tok-abcdef-secret", "-xy", "z"}, "[redacted]-[redacted]"},
		{"a long unfinished beginning is masked", []string{"key sk-back", "end-12"}, "key [redacted]"},
		{"a public prefix at the end is text", []string{"Hi a", "sk-bac"}, "Hi ask-bac"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var got strings.Builder
			held := ""
			for _, p := range tt.pieces {
				var send string
				send, held = r.Split(held + p)
				got.WriteString(send)
			}
			got.WriteString(r.Unfinished(held))
			if got.String() != tt.want {
				t.Errorf("joined %q, want %q", got.String(), tt.want)
			}
		})
	}
	if send, held := (*Redactor)(nil).Split("sk-"); send != "sk-" || held != "" {
		t.Errorf("a nil Redactor held %q", held)
	}
}

// TestSplitTellsNothingOfAGuess: a client that has a model repeat its guesses at a value,
// one character more each time, sees each guess arrive the same way whether its last
// character is right or wrong: what Split holds depends on which bytes occur in values,
// never on whether the text begins one. Only a whole value, or (Unfinished) a telling
// beginning at the end of a stream, half of the value, which a guesser would have to know
// already, is masked.
func TestSplitTellsNothingOfAGuess(t *testing.T) {
	t.Parallel()
	const key = "sk-filekey-CCCC3333DDDD444"
	const other = "ADMINtok-9f8e7d6c5b4"
	r := New()
	r.NewSet().Replace([]string{key, other})
	for n := 1; n < len(key); n++ {
		// The wrong character is one that occurs in a value too: a guesser tries those.
		right := key[:n+1]
		wrong := key[:n] + string(other[n%len(other)])
		if right == wrong {
			wrong = key[:n] + string(other[(n+1)%len(other)])
		}
		for _, after := range []string{"", "|", " next", "Z"} {
			type cut struct{ send, held int }
			var cuts [2][]cut
			for i, guess := range []string{right, wrong} {
				held := ""
				for _, piece := range []string{"guess: ", guess, after} {
					var send string
					send, held = r.Split(held + piece)
					cuts[i] = append(cuts[i], cut{len(send), len(held)})
				}
			}
			if n+1 < len(key) && !slices.Equal(cuts[0], cuts[1]) {
				t.Fatalf("guess %q then %q: pieces sent and held %v, a wrong last character %v", right, after, cuts[0], cuts[1])
			}
		}
	}
}

// TestUnfinished: at the end of a stream, held text goes out with its whole values and a
// telling beginning at its end masked, wherever in it they start.
func TestUnfinished(t *testing.T) {
	t.Parallel()
	r := New()
	r.NewSet().Replace([]string{"sk-backend-1234", "tok-abcdef"})
	for _, tt := range []struct{ held, want string }{
		{"", ""},
		{"abc", "abc"},
		{"sk-back", "sk-back"},
		{"sk-backe", "[redacted]"},
		{"xsk-backend-12", "x[redacted]"},
		{"tok-abcdef-sk-backend-1", "[redacted]-[redacted]"},
		{"tok-abcdef", "[redacted]"},
	} {
		if got := r.Unfinished(tt.held); got != tt.want {
			t.Errorf("Unfinished(%q) = %q, want %q", tt.held, got, tt.want)
		}
	}
}

func BenchmarkSplit(b *testing.B) {
	r := New()
	r.NewSet().Replace([]string{"sk-backend-1234567890abcdef", "client-key-9876543210", "mgmt-token-abcdef"})
	for b.Loop() {
		r.Split(" the answer")
	}
}
