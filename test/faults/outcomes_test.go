package faults

import (
	"strings"
	"testing"
)

// TestFaultOutcomes is the table of documented outcomes: for each misbehaviour of the primary
// model's backend, what the client sees, with a healthy fallback configured or not.
func TestFaultOutcomes(t *testing.T) {
	tests := []struct {
		name     string
		script   []fault // the primary backend's answers, in order
		refused  bool    // the primary's address has no server at all
		extra    string  // more YAML for the primary model
		fallback bool    // a healthy "backup" model is configured as fallback
		stream   bool

		wantStatus   int
		wantServed   string
		wantCalls    int64  // requests the primary backend received
		wantInBody   string // part of the body (or the last event of a stream)
		wantFinished bool
		wantEvents   int
		wantRetry    string // Retry-After to the client
	}{
		{name: "connection refused falls back", refused: true, fallback: true,
			wantStatus: 200, wantServed: "backup", wantInBody: "one two three four"},
		{name: "connection refused without fallback is a 502 that says so", refused: true,
			wantStatus: 502, wantServed: "primary", wantInBody: "could not be reached (request id "},
		{name: "500 is retried and then succeeds", script: []fault{status500, ok}, extra: "    retry: {max_attempts: 3, initial_backoff: 1ms}\n",
			wantStatus: 200, wantServed: "primary", wantCalls: 2, wantInBody: "one two three four"},
		{name: "500 after every retry falls back", script: []fault{status500}, extra: "    retry: {max_attempts: 2, initial_backoff: 1ms}\n", fallback: true,
			wantStatus: 200, wantServed: "backup", wantCalls: 2, wantInBody: "one two three four"},
		{name: "429 honours Retry-After, then succeeds", script: []fault{status429, ok}, extra: "    retry: {max_attempts: 2, initial_backoff: 1ms}\n",
			wantStatus: 200, wantServed: "primary", wantCalls: 2, wantInBody: "one two three four"},
		{name: "429 without retries or fallback keeps the status", script: []fault{status429},
			wantStatus: 429, wantServed: "primary", wantCalls: 1, wantInBody: "answered 429 Too Many Requests (request id ", wantRetry: "1"},
		{name: "hang hits the timeout and falls back", script: []fault{hang}, extra: "    timeout: 200ms\n", fallback: true,
			wantStatus: 200, wantServed: "backup", wantCalls: 1, wantInBody: "one two three four"},
		{name: "hang without fallback is a 504", script: []fault{hang}, extra: "    timeout: 200ms\n",
			wantStatus: 504, wantServed: "primary", wantCalls: 1, wantInBody: "did not answer in time (request id "},
		{name: "malformed JSON answer falls back", script: []fault{malformedJSON}, fallback: true,
			wantStatus: 200, wantServed: "backup", wantCalls: 1, wantInBody: "one two three four"},
		{name: "malformed JSON answer without fallback is a 502", script: []fault{malformedJSON},
			wantStatus: 502, wantServed: "primary", wantCalls: 1, wantInBody: "sent an answer that is not the OpenAI protocol (request id "},
		{name: "an answer cut short falls back", script: []fault{cutAnswer}, fallback: true,
			wantStatus: 200, wantServed: "backup", wantCalls: 1, wantInBody: "one two three four"},
		{name: "an answer cut short without fallback is a 502 that says so", script: []fault{cutAnswer},
			wantStatus: 502, wantServed: "primary", wantCalls: 1, wantInBody: "cut its answer short (request id "},

		{name: "stream: cut before the first event falls back", script: []fault{cutBefore}, fallback: true, stream: true,
			wantStatus: 200, wantServed: "backup", wantCalls: 1, wantFinished: true, wantEvents: 6},
		{name: "stream: cut before the first event without fallback is a 502", script: []fault{cutBefore}, stream: true,
			wantStatus: 502, wantServed: "primary", wantCalls: 1, wantInBody: "cut its answer short (request id "},
		{name: "stream: cut mid-stream ends with an error event", script: []fault{cutMidStream}, fallback: true, stream: true,
			wantStatus: 200, wantServed: "primary", wantCalls: 1, wantEvents: 3, wantInBody: `cut its answer short (request id `},
		{name: "stream: slow drip within the idle timeout completes", script: []fault{drip}, extra: "    stream_idle_timeout: 2s\n", stream: true,
			wantStatus: 200, wantServed: "primary", wantCalls: 1, wantFinished: true, wantEvents: 5},
		{name: "stream: silence after the first event hits the idle timeout", script: []fault{silentAfter}, extra: "    stream_idle_timeout: 150ms\n", stream: true,
			wantStatus: 200, wantServed: "primary", wantCalls: 1, wantEvents: 2, wantInBody: "stopped sending events in the middle of the stream (request id "},
		{name: "stream: no first token in time falls back", script: []fault{hang}, extra: "    first_token_timeout: 500ms\n", fallback: true, stream: true,
			wantStatus: 200, wantServed: "backup", wantCalls: 1, wantFinished: true, wantEvents: 6},
		{name: "stream: no first token in time without fallback is a 504", script: []fault{hang}, extra: "    first_token_timeout: 500ms\n", stream: true,
			wantStatus: 504, wantServed: "primary", wantCalls: 1, wantInBody: "sent no first event in time (request id "},
		{name: "stream: not SSE at all falls back", script: []fault{notSSE}, fallback: true, stream: true,
			wantStatus: 200, wantServed: "backup", wantCalls: 1, wantFinished: true, wantEvents: 6},
		{name: "429 with a Retry-After over max_retry_after falls back at once", script: []fault{status429Long},
			extra: "    retry: {max_attempts: 3, initial_backoff: 1ms}\n", fallback: true,
			wantStatus: 200, wantServed: "backup", wantCalls: 1, wantInBody: "one two three four"},
		{name: "429 with a Retry-After over max_retry_after and no fallback is a 429 at once", script: []fault{status429Long},
			extra:      "    retry: {max_attempts: 3, initial_backoff: 1ms}\n",
			wantStatus: 429, wantServed: "primary", wantCalls: 1, wantInBody: "answered 429 Too Many Requests", wantRetry: "300"},
		{name: "503's Retry-After over max_retry_after falls back at once", script: []fault{status503},
			extra: "    retry: {max_attempts: 3, initial_backoff: 1ms, max_retry_after: 500ms}\n", fallback: true,
			wantStatus: 200, wantServed: "backup", wantCalls: 1, wantInBody: "one two three four"},
		{name: "503 honours Retry-After, then succeeds", script: []fault{status503, ok}, extra: "    retry: {max_attempts: 2, initial_backoff: 1ms}\n",
			wantStatus: 200, wantServed: "primary", wantCalls: 2, wantInBody: "one two three four"},
		{name: "503 without retries or fallback passes its Retry-After on", script: []fault{status503},
			wantStatus: 502, wantServed: "primary", wantCalls: 1, wantInBody: "answered 503 Service Unavailable", wantRetry: "1"},

		{name: "stream: an event that is not JSON ends with an error event", script: []fault{notJSON}, fallback: true, stream: true,
			wantStatus: 200, wantServed: "primary", wantCalls: 1, wantEvents: 2, wantInBody: `sent a malformed stream (request id `},
		{name: "stream: an end with neither finish_reason nor [DONE] ends with an error event", script: []fault{noFinish}, stream: true,
			wantStatus: 200, wantServed: "primary", wantCalls: 1, wantEvents: 3, wantInBody: "sent a malformed stream (request id "},
		{name: "stream: a first event that is not JSON falls back", script: []fault{notJSONFirst}, fallback: true, stream: true,
			wantStatus: 200, wantServed: "backup", wantCalls: 1, wantFinished: true, wantEvents: 6},
		{name: "stream: a first event that is not JSON without fallback is a 502", script: []fault{notJSONFirst}, stream: true,
			wantStatus: 502, wantServed: "primary", wantCalls: 1, wantInBody: `sent a malformed stream (request id `},
		{name: "stream: 500 is retried, then streams", script: []fault{status500, ok}, extra: "    retry: {max_attempts: 2, initial_backoff: 1ms}\n", stream: true,
			wantStatus: 200, wantServed: "primary", wantCalls: 2, wantFinished: true, wantEvents: 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var primaryURL string
			var be *badBackend
			if tt.refused {
				primaryURL = refusedURL(t)
			} else {
				be = newBadBackend(t, tt.script...)
				primaryURL = be.URL
			}
			models := model("primary", primaryURL, tt.extra)
			if tt.fallback {
				good := newBadBackend(t, ok)
				models += "    fallbacks: [backup]\n" + model("backup", good.URL, "")
			}
			rt, _ := startRouter(t, models)
			o := call(t, rt.URL, tt.stream)

			if o.status != tt.wantStatus || o.served != tt.wantServed {
				t.Fatalf("status %d served by %q, want %d by %q; body %s %q", o.status, o.served, tt.wantStatus, tt.wantServed, o.body, o.events)
			}
			if wantFrom := map[bool]string{true: "primary"}[tt.wantServed == "backup"]; o.from != wantFrom {
				t.Errorf("x-vsr-fallback-from = %q, want %q", o.from, wantFrom)
			}
			if be != nil && be.calls.Load() != tt.wantCalls {
				t.Errorf("primary backend got %d requests, want %d", be.calls.Load(), tt.wantCalls)
			}
			got := o.body
			if tt.stream && o.status == 200 {
				if len(o.events) != tt.wantEvents || o.finished != tt.wantFinished {
					t.Errorf("stream: %d events, finished %v; want %d, %v: %q", len(o.events), o.finished, tt.wantEvents, tt.wantFinished, o.events)
				}
				got = strings.Join(o.events, "\n")
				if len(o.events) > 0 {
					got = o.events[len(o.events)-1]
				}
			}
			if o.retry != tt.wantRetry {
				t.Errorf("Retry-After = %q, want %q", o.retry, tt.wantRetry)
			}
			if !strings.Contains(got, tt.wantInBody) {
				t.Errorf("body %q lacks %q", got, tt.wantInBody)
			}
			// The client learns the kind of failure, never where the backend is.
			if strings.Contains(o.body+strings.Join(o.events, "\n"), "127.0.0.1") {
				t.Errorf("the answer names the backend's address: %s %q", o.body, o.events)
			}
		})
	}
}
