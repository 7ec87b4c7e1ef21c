package providertest

import (
	"context"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/provider"
)

// hardeningCases are what a misbehaving backend does to a provider: every provider must
// turn each into a clean, typed error with nothing of its credentials in it.
var hardeningCases = []suiteCase{
	{name: "echoed credentials are redacted", run: func(t *testing.T, s Setup, sc *Script) {
		for _, status := range []int{400, 401, 500} {
			sc.SetReply(Reply{Misbehave: EchoCredentials, Status: status})
			errs := failBoth(t, s)
			checkRedacted(t, s, sc, errs)
		}
	}},
	{name: "echoed credentials in a stream are redacted", run: func(t *testing.T, s Setup, sc *Script) {
		sc.SetReply(Reply{Text: "One two three.", Misbehave: EchoInStream})
		err := streamError(t, s)
		checkRedacted(t, s, sc, []error{err})
	}},
	{name: "redirects are not followed", run: func(t *testing.T, s Setup, sc *Script) {
		for _, m := range []string{Redirect307, Redirect302} {
			sc.SetReply(Reply{Misbehave: m})
			errs := failBoth(t, s)
			status := 307
			if m == Redirect302 {
				status = 302
			}
			checkError(t, s, errs, provider.KindProtocol, status, "a redirect, which the router does not follow")
			for _, err := range errs {
				if !errors.Is(err, provider.ErrRedirect) || strings.Contains(err.Error(), FollowedPath) {
					t.Fatalf("%s: error %q: want provider.ErrRedirect and no Location in the message", m, err)
				}
			}
			if sc.Followed() {
				t.Fatalf("%s: the redirect was followed", m)
			}
		}
	}},
	{name: "an oversized answer is refused before it is read whole", run: func(t *testing.T, s Setup, sc *Script) {
		const size = 300 << 20
		sc.SetReply(Reply{Misbehave: HugeBody, BodyBytes: size})
		_, err := s.Provider.ChatCompletion(context.Background(), &openai.ChatRequest{Messages: []openai.Message{user("Big")}})
		checkError(t, s, []error{err}, provider.KindProtocol, -1, "larger than max_response_body_bytes (33554432 bytes)")
		if !errors.Is(err, provider.ErrResponseTooLarge) {
			t.Fatalf("error %v: want provider.ErrResponseTooLarge", err)
		}
		// The backend sees the router hang up long before it has written everything.
		waitUntil(func() bool { _, hungUp := sc.Huge(); return hungUp })
		written, hungUp := sc.Huge()
		if !hungUp || written >= size {
			t.Fatalf("backend wrote %d of %d bytes, hung up %v: want the client to hang up early", written, size, hungUp)
		}
		t.Logf("the backend wrote %d of %d bytes before the router hung up", written, size)
	}},
	{name: "a stream cut without its end is an error", run: func(t *testing.T, s Setup, sc *Script) {
		sc.SetReply(Reply{Text: "One two three.", Misbehave: StreamCut})
		checkMalformed(t, s, streamError(t, s))
	}},
	{name: "a stream event that is not JSON is an error", run: func(t *testing.T, s Setup, sc *Script) {
		sc.SetReply(Reply{Text: "One two three.", Misbehave: StreamGarbage})
		checkMalformed(t, s, streamError(t, s))
	}},
	{name: "a deadline of the caller is a timeout", run: func(t *testing.T, s Setup, sc *Script) {
		sc.SetReply(Reply{Hang: true})
		cause := &provider.DeadlineCause{Setting: "first_token_timeout", After: 2 * time.Second}
		var errs []error
		for i, stream := range []bool{false, true} {
			ctx, cancel := context.WithCancelCause(context.Background())
			go func() {
				waitUntil(func() bool { return len(sc.Seen()) > i })
				cancel(cause)
			}()
			req := &openai.ChatRequest{Messages: []openai.Message{user("Hang")}}
			var err error
			if stream {
				var st provider.Stream
				if st, err = s.Provider.ChatCompletionStream(ctx, req); st != nil {
					st.Close()
				}
			} else {
				_, err = s.Provider.ChatCompletion(ctx, req)
			}
			cancel(nil)
			errs = append(errs, err)
		}
		checkError(t, s, errs, provider.KindTimeout, 0, "first_token_timeout of 2s passed")
	}},
	{name: "a deadline of the caller mid-stream is a timeout", run: func(t *testing.T, s Setup, sc *Script) {
		sc.SetReply(Reply{Text: "One two three.", HoldAfterFirst: true})
		ctx, cancel := context.WithCancelCause(context.Background())
		defer cancel(nil)
		st, err := s.Provider.ChatCompletionStream(ctx, &openai.ChatRequest{Messages: []openai.Message{user("Count")}})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		nextChunk(t, st)
		cancel(&provider.DeadlineCause{Setting: "stream_idle_timeout", After: time.Second})
		for {
			if _, err = st.Next(); err != nil {
				break
			}
		}
		checkError(t, s, []error{err}, provider.KindTimeout, 0, "stream_idle_timeout of 1s passed")
	}},
}

// streamError starts a stream and reads it to its end, which must be an error (returned
// by ChatCompletionStream or by Next).
func streamError(t *testing.T, s Setup) error {
	t.Helper()
	st, err := s.Provider.ChatCompletionStream(context.Background(), &openai.ChatRequest{Messages: []openai.Message{user("Count")}})
	if err != nil {
		return err
	}
	defer st.Close()
	for {
		if _, err := st.Next(); err != nil {
			if errors.Is(err, io.EOF) {
				t.Fatal("the stream ended cleanly, want an error")
			}
			return err
		}
	}
}

func checkMalformed(t *testing.T, s Setup, err error) {
	t.Helper()
	checkError(t, s, []error{err}, provider.KindProtocol, -1, "")
	if !errors.Is(err, provider.ErrMalformedStream) {
		t.Fatalf("error %v: want provider.ErrMalformedStream", err)
	}
}

// checkRedacted checks that errors for an echoing backend hold "[redacted]" where the
// backend put the credential the request carried, and not the credential itself.
func checkRedacted(t *testing.T, s Setup, sc *Script, errs []error) {
	t.Helper()
	cred := last(t, sc).Credential
	for i, err := range errs {
		var pe *provider.Error
		if !errors.As(err, &pe) {
			t.Fatalf("call %d: error %v (%T), want *provider.Error", i, err, err)
		}
		msg := err.Error()
		if !strings.Contains(msg, provider.Redacted) {
			t.Fatalf("call %d: message %q: want the echoed credential replaced by %s", i, msg, provider.Redacted)
		}
		for _, secret := range append([]string{cred}, s.Secrets...) {
			if secret != "" && strings.Contains(msg, secret) {
				t.Fatalf("call %d: message %q contains a credential", i, msg)
			}
		}
	}
}

// fieldCases are request fields beyond messages, sampling and tools; each provider sends
// them on in its service's terms or refuses them (Setup.Refuses), never drops them.
var fieldCases = []struct {
	name, field, value, seen string
}{
	{"seed", "seed", `42`, `42`},
	{"seed 0", "seed", `0`, `0`},
	{"parallel_tool_calls false", "parallel_tool_calls", `false`, `false`},
	{"presence_penalty", "presence_penalty", `0.5`, `0.5`},
	{"frequency_penalty", "frequency_penalty", `-0.25`, `-0.25`},
	{"logprobs", "logprobs", `true`, `true`},
	{"top_logprobs", "top_logprobs", `2`, `2`},
	{"n", "n", `2`, `2`},
	{"top_k", "top_k", `40`, `40`},
	{"json_object", "response_format", `{"type":"json_object"}`, `"json_object"`},
	{"json_schema", "response_format", `{"type":"json_schema","json_schema":{"name":"a","schema":{"type":"object","properties":{"a":{"type":"string"}}}}}`,
		`{"properties":{"a":{"type":"string"}},"type":"object"}`},
}

func init() {
	hardeningCases = append(hardeningCases, suiteCase{name: "request fields are sent or refused", run: func(t *testing.T, s Setup, sc *Script) {
		for _, fc := range fieldCases {
			var req openai.ChatRequest
			mustUnmarshal(t, `{"model":"m","messages":[{"role":"user","content":"Hi"}],"`+fc.field+`":`+fc.value+`}`, &req)
			before := len(sc.Seen())
			_, err := s.Provider.ChatCompletion(context.Background(), &req)
			if slices.Contains(s.Refuses, fc.name) {
				var pe *provider.Error
				if !errors.As(err, &pe) || pe.Kind != provider.KindBadRequest || pe.Param != fc.field ||
					!strings.Contains(pe.Message, fc.field) || !errors.Is(err, provider.ErrUnsupportedField) {
					t.Fatalf("%s: error %v, want a bad request about %q", fc.name, err, fc.field)
				}
				if len(sc.Seen()) != before {
					t.Fatalf("%s: a refused request reached the upstream", fc.name)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s: %v", fc.name, err)
			}
			if got := last(t, sc).Fields[fc.field]; got != fc.seen {
				t.Fatalf("%s: upstream saw %s = %q, want %q", fc.name, fc.field, got, fc.seen)
			}
		}
	}})
}
