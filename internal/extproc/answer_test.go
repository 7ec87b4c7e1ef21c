package extproc

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	extprocv3 "github.com/envoyproxy/go-control-plane/envoy/service/ext_proc/v3"
)

const (
	evContent   = "data: {\"choices\":[{\"delta\":{\"content\":\"hi\"}}]}\n\n"
	evUsage     = "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":6,\"completion_tokens\":9,\"total_tokens\":15}}\n\n"
	evBoth      = "data: {\"choices\":[{\"delta\":{}}],\"usage\":{\"prompt_tokens\":6,\"completion_tokens\":9,\"total_tokens\":15}}\n\n"
	evDone      = "data: [DONE]\n\n"
	evKeepAlive = ": keep-alive\n\n"
)

func TestUsageDropperFilter(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		chunks []string
		want   string
	}{
		{"event per chunk", []string{evContent, evUsage, evDone}, evContent + evDone},
		{"all in one chunk", []string{evContent + evUsage + evDone}, evContent + evDone},
		{"usage split across chunks", []string{evContent + evUsage[:30], evUsage[30:] + evDone}, evContent + evDone},
		{"split inside the blank line", []string{evContent + strings.TrimSuffix(evUsage, "\n"), "\n" + evDone}, evContent + evDone},
		{"CRLF line ends", []string{strings.ReplaceAll(evContent+evUsage, "\n", "\r\n"), "data: [DONE]\r", "\n\r\n"},
			strings.ReplaceAll(evContent, "\n", "\r\n") + "data: [DONE]\r\n\r\n"},
		{"usage beside a choice is removed, the choice kept", []string{evBoth, evDone}, "data: {\"choices\":[{\"delta\":{}}]}\n\n" + evDone},
		{"CRLF usage beside a choice", []string{strings.ReplaceAll(evBoth, "\n", "\r\n"), evDone},
			"data: {\"choices\":[{\"delta\":{}}]}\r\n\r\n" + evDone},
		{"an event of several data lines passes as it came", []string{"data: {\ndata: \"choices\":[]\ndata: }\n\n", evDone},
			"data: {\ndata: \"choices\":[]\ndata: }\n\n" + evDone},
		{"an event of several data lines is rewritten on one", []string{"data: {\"choices\":[{\"delta\":{}}],\ndata: \"usage\":{\"prompt_tokens\":6}\r\ndata: }\r\n\r\n", evDone},
			"data: {\"choices\":[{\"delta\":{}}]}\r\n\r\n" + evDone},
		{"a null usage stays", []string{"data: {\"choices\":[],\"usage\":null}\n\n", evDone}, "data: {\"choices\":[],\"usage\":null}\n\n" + evDone},
		{"comments and other events pass", []string{evKeepAlive, evContent, evKeepAlive + evUsage, evDone}, evKeepAlive + evContent + evKeepAlive + evDone},
		{"no usage at all", []string{evContent, evContent, evDone}, evContent + evContent + evDone},
		{"an unfinished last event is sent at the end", []string{evContent, "data: {\"cho"}, evContent + "data: {\"cho"},
		{"a usage without a final blank line is sent", []string{evContent, strings.TrimSuffix(evUsage, "\n\n")}, evContent + strings.TrimSuffix(evUsage, "\n\n")},
		{"malformed JSON with a usage key is kept", []string{"data: {\"usage\":{\"prompt_tokens\":1\n\n", evDone}, "data: {\"usage\":{\"prompt_tokens\":1\n\n" + evDone},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d := answerFilter{dropUsage: true, sse: true}
			var got strings.Builder
			for i, c := range tt.chunks {
				out, changed := d.filter([]byte(c), i == len(tt.chunks)-1)
				if !changed && string(out) != c {
					t.Fatalf("chunk %d: unchanged, but %q is not %q", i, out, c)
				}
				got.Write(out)
			}
			if got.String() != tt.want {
				t.Errorf("got  %q\nwant %q", got.String(), tt.want)
			}
		})
	}
}

// TestUsageDropperLeavesPlainChunksAlone: a chunk of whole events without a usage needs no
// mutation, so Envoy sends it as it came.
func TestUsageDropperLeavesPlainChunksAlone(t *testing.T) {
	t.Parallel()
	d := answerFilter{dropUsage: true, sse: true}
	for _, c := range []string{evContent, evKeepAlive + evContent, evDone} {
		if _, changed := d.filter([]byte(c), false); changed {
			t.Errorf("%q was changed", c)
		}
	}
}

// sent is what Envoy forwards for chunk after the processor's answer to it.
func sent(t *testing.T, resp *extprocv3.ProcessingResponse, chunk string) string {
	t.Helper()
	m := resp.GetResponseBody().GetResponse().GetBodyMutation()
	switch {
	case m == nil:
		return chunk
	case m.GetClearBody():
		return ""
	default:
		return string(m.GetBody())
	}
}

// TestProcessorDropsTheUsageNobodyAskedFor: the router asks every stream for its usage, for
// token limits; a client that did not ask does not get the usage-only chunk, and the tokens
// are charged either way. A client that asked gets it.
func TestProcessorDropsTheUsageNobodyAskedFor(t *testing.T) {
	t.Parallel()
	usage := "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":60,\"completion_tokens\":90,\"total_tokens\":150}}\n\n"
	chunks := []string{evContent, usage[:25], usage[25:] + evDone}
	tests := []struct {
		name, body string
		want       string
	}{
		{"not asked", `{"model":"general","stream":true,"messages":[{"role":"user","content":"hi"}]}`, evContent + evDone},
		{"asked", `{"model":"general","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"hi"}]}`,
			evContent + usage + evDone},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, keyed, map[string]string{"TEAM_A_KEY": teamKey})
			auth := hv("authorization", "Bearer "+teamKey)
			e := f.open(t)
			planned := e.planned(tt.body, auth).GetRequestBody().GetResponse().GetBodyMutation().GetBody()
			if !strings.Contains(string(planned), `"include_usage":true`) {
				t.Fatalf("the upstream request does not ask for the usage: %s", planned)
			}
			hr := e.send(responseHeaders(200, "text/event-stream")).GetResponseHeaders().GetResponse().GetHeaderMutation()
			removed := strings.Join(hr.GetRemoveHeaders(), ",")
			// The router holds client keys, so every answer is redacted and may change length.
			if removed != "content-length" {
				t.Errorf("headers removed: %q, want content-length", removed)
			}
			var got strings.Builder
			for i, c := range chunks {
				got.WriteString(sent(t, e.send(responseBody(c, i == len(chunks)-1)), c))
			}
			e.close()
			if got.String() != tt.want {
				t.Errorf("the client got  %q\nwant %q", got.String(), tt.want)
			}
			// 150 tokens were charged either way, of 100 a minute: the next request waits.
			if imm := f.open(t).planned(chatGeneral, auth).GetImmediateResponse(); imm.GetStatus().GetCode() != 429 {
				t.Errorf("after 150 tokens: %v", imm)
			}
		})
	}
}

// FuzzUsageDropper: however a stream is cut into chunks, the client gets the same bytes as
// when it comes in one piece, and nothing but usage-only events is removed.
func FuzzUsageDropper(f *testing.F) {
	f.Add(evContent+evUsage+evDone, 10)
	f.Add(strings.ReplaceAll(evKeepAlive+evUsage+evBoth, "\n", "\r\n"), 3)
	f.Add("data: x\n\ndata: {\"usage\":{}}\n\n", 0)
	f.Fuzz(func(t *testing.T, stream string, cut int) {
		if cut < 0 || cut > len(stream) {
			return
		}
		whole := answerFilter{dropUsage: true, sse: true}
		want, _ := whole.filter([]byte(stream), true)
		parts := answerFilter{dropUsage: true, sse: true}
		a, _ := parts.filter([]byte(stream[:cut]), false)
		b, _ := parts.filter([]byte(stream[cut:]), true)
		got := string(a) + string(b)
		if got != string(want) {
			t.Fatalf("in two chunks %q, in one %q", got, want)
		}
		if len(got) > len(stream) {
			t.Fatalf("output %q is longer than the stream %q", got, stream)
		}
	})
}

// TestUsageDropperBoundsWhatItHolds: an event longer than maxSSEEvent is passed on as it
// comes, not held whole, and the usage-only event after it is still dropped.
func TestUsageDropperBoundsWhatItHolds(t *testing.T) {
	t.Parallel()
	half := "data: " + strings.Repeat("x", maxSSEEvent/2)
	chunks := []string{evContent + half, half, half, "\n\n" + evUsage, evDone}
	d := answerFilter{dropUsage: true, sse: true}
	var got strings.Builder
	for i, c := range chunks {
		out, _ := d.filter([]byte(c), i == len(chunks)-1)
		got.Write(out)
		if len(d.held) > maxSSEEvent {
			t.Fatalf("after chunk %d the dropper holds %d bytes", i, len(d.held))
		}
	}
	if want := evContent + half + half + half + "\n\n" + evDone; got.String() != want {
		t.Errorf("got %d bytes, want %d; usage dropped: %v", got.Len(), len(want), !strings.Contains(got.String(), `"usage"`))
	}
}

// TestProcessorRedactsEchoedKeys: Envoy relays the model server's answer, so the processor
// redacts it as the HTTP listener does. A server that streams the key it was sent back a few
// characters per event, with events cut across Envoy's chunks, and one that echoes it in an
// error body cut in two, give the client "[redacted]" and never the key.
func TestProcessorRedactsEchoedKeys(t *testing.T) {
	t.Parallel()
	f := defaultFixture(t)
	const prove = `{"model":"reasoning","stream":%t,"messages":[{"role":"user","content":"prove that the square root of two is irrational"}]}`

	e := f.open(t)
	e.planned(fmt.Sprintf(prove, true))
	if rm := e.send(responseHeaders(200, "text/event-stream")).GetResponseHeaders().GetResponse().GetHeaderMutation().GetRemoveHeaders(); !slices.Contains(rm, "content-length") {
		t.Errorf("headers removed %v: want content-length, the body changes", rm)
	}
	echo := "you sent Bearer " + backendKey + ", ok"
	var stream strings.Builder
	for i := 0; i < len(echo); i += 3 {
		q, _ := json.Marshal(echo[i:min(i+3, len(echo))])
		fmt.Fprintf(&stream, "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":%s}}]}\n\n", q)
	}
	stream.WriteString("data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n" + evDone)
	var got strings.Builder
	raw := stream.String()
	for i := 0; i < len(raw); i += 70 { // Envoy's chunks cut events anywhere
		c := raw[i:min(i+70, len(raw))]
		got.WriteString(sent(t, e.send(responseBody(c, i+70 >= len(raw))), c))
	}
	e.close()
	var text strings.Builder
	for ev := range strings.SplitSeq(got.String(), "\n\n") {
		data, ok := strings.CutPrefix(ev, "data: ")
		if !ok || data == "[DONE]" {
			continue
		}
		var c struct {
			Choices []struct {
				Delta struct{ Content string } `json:"delta"`
			} `json:"choices"`
		}
		if err := json.Unmarshal([]byte(data), &c); err != nil {
			t.Fatalf("event %q: %v", data, err)
		}
		for _, ch := range c.Choices {
			text.WriteString(ch.Delta.Content)
		}
	}
	if text.String() != "you sent Bearer [redacted], ok" || !strings.HasSuffix(got.String(), evDone) {
		t.Errorf("the client joined %q from\n%s", text.String(), got.String())
	}

	e = f.open(t)
	e.planned(fmt.Sprintf(prove, false))
	e.send(responseHeaders(401, "application/json"))
	body := `{"error":{"message":"you sent Bearer ` + backendKey + `"}}`
	got.Reset()
	for i, c := range []string{body[:30], body[30:]} {
		got.WriteString(sent(t, e.send(responseBody(c, i == 1)), c))
	}
	e.close()
	if want := `{"error":{"message":"you sent Bearer [redacted]"}}`; got.String() != want {
		t.Errorf("the client got %s, want %s", got.String(), want)
	}
}

// TestProcessorRewritesAnswersWithoutHeaders: with response_header_mode SKIP Envoy sends the
// answer's body but not its headers; the processor still redacts the credentials it holds,
// drops the usage the client did not ask for and charges the tokens, telling a stream from
// a JSON answer by its first chunk.
func TestProcessorRewritesAnswersWithoutHeaders(t *testing.T) {
	t.Parallel()
	const modelKey = "sk-model-general-55aa"
	f := newFixture(t, `
models:
  - model_name: general
    provider: {type: openai_compatible, base_url: http://vllm:8000/v1, api_key: env.GENERAL_KEY}
admission:
  api_keys:
    - {name: team-a, key: env.TEAM_A_KEY, tokens_per_minute: 100}
`, map[string]string{"TEAM_A_KEY": teamKey, "GENERAL_KEY": modelKey})
	auth := hv("authorization", "Bearer "+teamKey)
	usage := "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":60,\"completion_tokens\":90,\"total_tokens\":150}}\n\n"
	tests := []struct {
		name, body string
		chunks     []string
		want       string
		charged    bool
	}{
		{"json", chatGeneral,
			[]string{`{"error":{"message":"you sent Bearer sk-mod`, `el-general-55aa"}}`},
			`{"error":{"message":"you sent Bearer [redacted]"}}`, false},
		{"stream", `{"model":"general","stream":true,"messages":[{"role":"user","content":"hi"}]}`,
			[]string{"data: {\"choices\":[{\"delta\":{\"content\":\"key sk-model\"}}]}\n\n", "data: {\"choices\":[{\"delta\":{\"content\":\"-general-55aa ok\"}}]}\n\n" + usage + evDone},
			// "ok" could begin a value (its letters occur in the key): held to the end of the
			// stream, it goes out in an event of its own.
			"data: {\"choices\":[{\"delta\":{\"content\":\"key \"}}]}\n\ndata: {\"choices\":[{\"delta\":{\"content\":\"[redacted] \"}}]}\n\n" +
				"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"ok\"},\"finish_reason\":null}]}\n\n" + evDone, true},
	}
	for _, tt := range tests { // in order: the stream spends the key's tokens
		t.Run(tt.name, func(t *testing.T) {
			e := f.open(t)
			if p := e.planned(tt.body, auth); p.GetImmediateResponse() != nil {
				t.Fatalf("refused: %v", p)
			}
			var got strings.Builder
			for i, c := range tt.chunks {
				got.WriteString(sent(t, e.send(responseBody(c, i == len(tt.chunks)-1)), c))
			}
			e.close()
			if got.String() != tt.want {
				t.Errorf("the client got  %q\nwant %q", got.String(), tt.want)
			}
			if !tt.charged {
				return
			}
			// 150 tokens charged of 100 a minute: the next request waits.
			if imm := f.open(t).planned(chatGeneral, auth).GetImmediateResponse(); imm.GetStatus().GetCode() != 429 {
				t.Errorf("after 150 tokens: %v", imm)
			}
		})
	}
}

func TestLooksLikeEvents(t *testing.T) {
	t.Parallel()
	for chunk, want := range map[string]bool{
		evContent: true, evKeepAlive: true, "event: x\n": true, "\r\ndata: {}": true,
		`{"id":"c"}`: false, " \n{": false, `[{"error":{}}]`: false, "": false,
	} {
		if got := looksLikeEvents([]byte(chunk)); got != want {
			t.Errorf("looksLikeEvents(%q) = %v, want %v", chunk, got, want)
		}
	}
}
