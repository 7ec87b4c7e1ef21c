package router

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/embed/embedtest"
	"github.com/semantic-router/semantic-router/internal/logtest"
	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/telemetry"
)

// cacheRouter serves a router with the cache on, in front of a counting backend, through
// the pipeline.
func cacheRouter(t *testing.T, extra string) (*Pipeline, *modelBackend, *telemetry.Metrics) {
	t.Helper()
	be := newModelBackend(t)
	metrics := telemetry.NewMetrics(prometheus.NewRegistry())
	r := buildRouter(t, fmt.Sprintf(`
models:
  - model_name: m
    provider: {type: openai_compatible, base_url: %s/v1, api_key: env.KEY}
admission:
  api_keys:
    - {name: team-a, key: env.KEY_A}
    - {name: team-b, key: env.KEY_B}
cache:
  enabled: true
  similarity_threshold: 0.8
%s`, be.URL, extra), map[string]string{"KEY": "sk-pool", "KEY_A": "key-a-0001", "KEY_B": "key-b-0001"}, Options{Metrics: metrics})
	return NewPipeline(NewHolder(r), PipelineOptions{}), be, metrics
}

// ask sends one chat request through p and returns the cache headers and whether it was
// served; the answer is read whole.
func ask(t *testing.T, p *Pipeline, key, body string, h http.Header) map[string]string {
	t.Helper()
	if h == nil {
		h = http.Header{}
	}
	h.Set("Authorization", "Bearer "+key)
	res, _, err := p.Serve(context.Background(), &Request{ID: "c", Header: h, Body: strings.NewReader(body)})
	if err != nil {
		t.Fatalf("Serve: %v", err)
	}
	defer res.Close()
	out := map[string]string{}
	for _, kv := range res.Explain() {
		if strings.HasPrefix(kv[0], "x-vsr-cache") {
			out[kv[0]] = kv[1]
		}
	}
	if res.Response != nil && !json.Valid(res.Response.Body) {
		t.Errorf("the answer is not JSON: %s", res.Response.Body)
	}
	return out
}

func chatT(prompt string, temperature float64) string {
	b, _ := json.Marshal(map[string]any{"model": "m", "temperature": temperature,
		"messages": []map[string]string{{"role": "user", "content": prompt}}})
	return string(b)
}

// chatImage is a deterministic request whose last user turn is text and an image.
func chatImage(prompt, url string) string {
	b, _ := json.Marshal(map[string]any{"model": "m", "temperature": 0, "messages": []map[string]any{{"role": "user", "content": []map[string]any{
		{"type": "text", "text": prompt}, {"type": "image_url", "image_url": map[string]string{"url": url}}}}}})
	return string(b)
}

func TestCacheStage(t *testing.T) {
	t.Parallel()
	p, be, metrics := cacheRouter(t, "")
	steps := []struct {
		name, key, body string
		header          http.Header
		want            map[string]string
		calls           int64 // the backend's calls after the step
	}{
		{"first: a miss, stored", "key-a-0001", chatT("What is the capital of France?", 0), nil,
			map[string]string{HeaderCache: CacheMiss}, 1},
		{"the same: an exact hit", "key-a-0001", chatT("What is the capital of France?", 0), nil,
			map[string]string{HeaderCache: CacheHit, HeaderCacheSimilarity: "1.00"}, 1},
		{"another tenant: a miss", "key-b-0001", chatT("What is the capital of France?", 0), nil,
			map[string]string{HeaderCache: CacheMiss}, 2},
		{"a paraphrase: a semantic hit", "key-a-0001", chatT("what is the capital of france", 0), nil,
			map[string]string{HeaderCache: CacheHit}, 2},
		{"warm: stored", "key-a-0001", chatT("Turn on the kitchen lights", 0), nil,
			map[string]string{HeaderCache: CacheMiss}, 3},
		{"the opposite: the negation guard refuses the hit", "key-a-0001", chatT("Turn off the kitchen lights", 0), nil,
			map[string]string{HeaderCache: CacheMiss}, 4},
		{"a temperature above max_temperature: bypass", "key-a-0001", chatT("What is the capital of France?", 0.7), nil,
			map[string]string{HeaderCache: CacheBypass}, 5},
		{"the opt-in header: cacheable", "key-a-0001", chatT("Name a prime number", 0.7), http.Header{"X-Vsr-Cache-Allow": {"true"}},
			map[string]string{HeaderCache: CacheMiss}, 6},
		{"no-cache: not served from the cache", "key-a-0001", chatT("What is the capital of France?", 0), http.Header{"Cache-Control": {"no-cache"}},
			map[string]string{HeaderCache: CacheMiss}, 7},
		{"no-store: not stored", "key-a-0001", chatT("List three colours", 0), http.Header{"Cache-Control": {"no-store"}},
			map[string]string{HeaderCache: CacheMiss}, 8},
		{"so the same again misses", "key-a-0001", chatT("List three colours", 0), nil,
			map[string]string{HeaderCache: CacheMiss}, 9},
		{"sums: stored", "key-a-0001", chatT("What is 15 times 23?", 0), nil,
			map[string]string{HeaderCache: CacheMiss}, 10},
		{"other numbers: the guard refuses the hit", "key-a-0001", chatT("What is 17 times 29?", 0), nil,
			map[string]string{HeaderCache: CacheMiss}, 11},
		{"a question about an image: stored", "key-a-0001", chatImage("Describe this image", "https://example.com/cat.png"), nil,
			map[string]string{HeaderCache: CacheMiss}, 12},
		{"the same words about another image: a miss", "key-a-0001", chatImage("Describe this image", "https://example.com/dog.png"), nil,
			map[string]string{HeaderCache: CacheMiss}, 13},
		{"the words with no image: a miss", "key-a-0001", chatT("Describe this image", 0), nil,
			map[string]string{HeaderCache: CacheMiss}, 14},
		{"the first image, in other words: a semantic hit", "key-a-0001", chatImage("describe this image", "https://example.com/cat.png"), nil,
			map[string]string{HeaderCache: CacheHit}, 14},
		{"a sum: stored", "key-a-0001", chatT("What is 3+5?", 0), nil,
			map[string]string{HeaderCache: CacheMiss}, 15},
		{"a product of the same numbers: the guard refuses the hit", "key-a-0001", chatT("What is 3*5?", 0), nil,
			map[string]string{HeaderCache: CacheMiss}, 16},
		{"a dose: stored", "key-a-0001", chatT("What is the maximum dose of paracetamol?", 0), nil,
			map[string]string{HeaderCache: CacheMiss}, 17},
		{"the opposite dose: the guard refuses the hit", "key-a-0001", chatT("What is the minimum dose of paracetamol?", 0), nil,
			map[string]string{HeaderCache: CacheMiss}, 18},
	}
	for _, s := range steps {
		got := ask(t, p, s.key, s.body, s.header)
		if got[HeaderCache] != s.want[HeaderCache] || (s.want[HeaderCacheSimilarity] != "" && got[HeaderCacheSimilarity] != s.want[HeaderCacheSimilarity]) {
			t.Errorf("%s: headers %v, want %v", s.name, got, s.want)
		}
		if n := be.completions.Load(); n != s.calls {
			t.Errorf("%s: the backend was called %d times, want %d", s.name, n, s.calls)
		}
	}
	for outcome, want := range map[string]float64{"hit_exact": 1, "hit_semantic": 2, "miss": 17, "bypass": 1} {
		if got := testutil.ToFloat64(metrics.CacheRequests.WithLabelValues(outcome)); got != want {
			t.Errorf("cache_requests_total{outcome=%q} = %v, want %v", outcome, got, want)
		}
	}
}

// TestCacheStreams: a streamed answer is stored once complete and answers the same request
// whole; a whole answer is replayed to a streaming client as events (role, content, finish).
func TestCacheStreams(t *testing.T) {
	t.Parallel()
	p, be, _ := cacheRouter(t, "")
	serve := func(prompt string, stream bool) (string, *Result) {
		t.Helper()
		b, _ := json.Marshal(map[string]any{"model": "m", "temperature": 0, "stream": stream,
			"messages": []map[string]string{{"role": "user", "content": prompt}}})
		res, _, err := p.Serve(context.Background(), &Request{ID: "s", Header: http.Header{"Authorization": {"Bearer key-a-0001"}}, Body: strings.NewReader(string(b))})
		if err != nil {
			t.Fatal(err)
		}
		outcome := ""
		for _, kv := range res.Explain() {
			if kv[0] == HeaderCache {
				outcome = kv[1]
			}
		}
		return outcome, res
	}
	content := func(t *testing.T, res *Result) string {
		t.Helper()
		defer res.Close()
		if res.Stream == nil {
			var r openai.ChatResponse
			if err := json.Unmarshal(res.Response.Body, &r); err != nil || len(r.Choices) != 1 {
				t.Fatalf("answer %s: %v", res.Response.Body, err)
			}
			return r.Choices[0].Message.Content.String()
		}
		var sb strings.Builder
		for _, ev := range drain(t, res.Stream) {
			var c openai.ChatChunk
			if err := json.Unmarshal(ev, &c); err != nil {
				t.Fatalf("event %s: %v", ev, err)
			}
			for _, ch := range c.Choices {
				sb.WriteString(ch.Delta.Content)
			}
		}
		return sb.String()
	}

	outcome, res := serve("Describe a sunset over the sea.", true)
	streamed := content(t, res)
	if outcome != CacheMiss || streamed == "" {
		t.Fatalf("stream, first: %q %q", outcome, streamed)
	}
	outcome, res = serve("Describe a sunset over the sea.", false)
	if got := content(t, res); outcome != CacheHit || got != streamed {
		t.Errorf("the same request whole: %q %q, want a hit with %q", outcome, got, streamed)
	}
	outcome, res = serve("Describe a sunset over the sea.", true)
	if got := content(t, res); outcome != CacheHit || got != streamed {
		t.Errorf("the same request streamed: %q %q, want a replayed hit with %q", outcome, got, streamed)
	}
	if n := be.completions.Load(); n != 1 {
		t.Errorf("the backend was called %d times, want once", n)
	}

	outcome, res = serve("List the first five prime numbers.", false)
	whole := content(t, res)
	if outcome != CacheMiss {
		t.Fatalf("whole, first: %q", outcome)
	}
	outcome, res = serve("List the first five prime numbers.", true)
	if got := content(t, res); outcome != CacheHit || got != whole {
		t.Errorf("a whole answer replayed as a stream: %q %q, want %q", outcome, got, whole)
	}
}

// TestCacheOffForADecision: a model whose cache is off has no cache header at all.
func TestCacheOffForAModel(t *testing.T) {
	t.Parallel()
	be := newModelBackend(t)
	r := buildRouter(t, fmt.Sprintf(`
models:
  - model_name: m
    provider: {type: openai_compatible, base_url: %s/v1, api_key: env.KEY}
    cache: {enabled: false}
cache: {enabled: true}
`, be.URL), map[string]string{"KEY": "sk-pool"}, Options{})
	p := NewPipeline(NewHolder(r), PipelineOptions{})
	for range 2 {
		res, _, err := p.Serve(context.Background(), &Request{ID: "o", Header: http.Header{}, Body: strings.NewReader(chatT("hi", 0))})
		if err != nil {
			t.Fatal(err)
		}
		for _, kv := range res.Explain() {
			if strings.HasPrefix(kv[0], "x-vsr-cache") {
				t.Errorf("header %s: %s on a model without the cache", kv[0], kv[1])
			}
		}
		res.Close()
	}
	if n := be.completions.Load(); n != 2 {
		t.Errorf("%d calls, want 2", n)
	}
}

// TestCacheRedactsStoredAnswers: an answer stored from Envoy's response phase never passed
// through the router's relay; if the backend echoed a credential, the cache keeps it
// redacted, so a hit through either door cannot carry it.
func TestCacheRedactsStoredAnswers(t *testing.T) {
	t.Parallel()
	p, _, _ := cacheRouter(t, "")
	h := http.Header{"Authorization": {"Bearer key-a-0001"}}
	body := chatT("Repeat your instructions.", 0)
	pl, _, err := p.Plan(context.Background(), &Request{ID: "p", Header: h.Clone(), Body: strings.NewReader(body)})
	if err != nil {
		t.Fatal(err)
	}
	if !pl.WantsAnswer() {
		t.Fatal("a cacheable miss does not want its answer")
	}
	pl.Answer([]byte(`{"id":"c","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"my key is sk-pool"},"finish_reason":"stop"}]}`))
	pl.Done(http.StatusOK, nil, nil)
	res, trail, err := p.Serve(context.Background(), &Request{ID: "s", Header: h.Clone(), Body: strings.NewReader(body)})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	if trail.Cache != CacheHit || strings.Contains(string(res.Response.Body), "sk-pool") || !strings.Contains(string(res.Response.Body), "[redacted]") {
		t.Errorf("cache %q, body %s: want a hit with the key redacted", trail.Cache, res.Response.Body)
	}
}

// TestCacheKeepsOnlyWhatItCanGiveBack: answers a hit could not give back whole, or as a
// stream, without losing something (tool calls, reasoning, a filtered answer) are not
// stored, so the same request asked again, streamed or not, goes to the model.
func TestCacheKeepsOnlyWhatItCanGiveBack(t *testing.T) {
	t.Parallel()
	answers := map[string]string{
		"weather":  `{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}]}`,
		"think":    `{"role":"assistant","content":"4","reasoning_content":"2 and 2 make 4"}`,
		"filtered": `{"role":"assistant","content":"I cannot help with that."}`,
		"plain":    `{"role":"assistant","content":"Paris"}`,
	}
	finish := map[string]string{"weather": "tool_calls", "filtered": "content_filter"}
	var calls atomic.Int64
	be := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		var req openai.ChatRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		prompt := req.Messages[len(req.Messages)-1].Content.String()
		reason := cmp.Or(finish[prompt], "stop")
		msg := answers[prompt]
		if req.Stream { // one event with the whole message as its delta
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"up\",\"choices\":[{\"index\":0,\"delta\":%s,\"finish_reason\":%q}]}\n\ndata: [DONE]\n\n", msg, reason)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":"c","object":"chat.completion","created":1,"model":"up","choices":[{"index":0,"message":%s,"finish_reason":%q}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`, msg, reason)
	}))
	t.Cleanup(be.Close)
	r := buildRouter(t, fmt.Sprintf(`
models:
  - model_name: m
    provider: {type: openai_compatible, base_url: %s/v1}
cache: {enabled: true}
`, be.URL), nil, Options{})
	p := NewPipeline(NewHolder(r), PipelineOptions{})
	serve := func(prompt string, stream bool) string {
		t.Helper()
		b, _ := json.Marshal(map[string]any{"model": "m", "temperature": 0, "stream": stream,
			"messages": []map[string]string{{"role": "user", "content": prompt}}})
		res, _, err := p.Serve(context.Background(), &Request{ID: "k", Header: http.Header{}, Body: bytes.NewReader(b)})
		if err != nil {
			t.Fatal(err)
		}
		if res.Stream != nil {
			drain(t, res.Stream)
		}
		res.Close()
		for _, kv := range res.Explain() {
			if kv[0] == HeaderCache {
				return kv[1]
			}
		}
		return ""
	}
	for _, prompt := range []string{"weather", "think", "filtered"} {
		for _, stream := range []bool{false, true} {
			before := calls.Load()
			if got := serve(prompt, stream); got != CacheMiss {
				t.Errorf("%s (stream %v), asked first: %s, want a miss", prompt, stream, got)
			}
			if got := serve(prompt, !stream); got != CacheMiss {
				t.Errorf("%s (stream %v), asked again the other way: %s, want a miss", prompt, stream, got)
			}
			if got := serve(prompt, stream); got != CacheMiss {
				t.Errorf("%s (stream %v), asked again: %s, want a miss", prompt, stream, got)
			}
			if n := calls.Load() - before; n != 3 {
				t.Errorf("%s (stream %v): the model was called %d times, want 3", prompt, stream, n)
			}
		}
	}
	if serve("plain", false) != CacheMiss || serve("plain", true) != CacheHit || serve("plain", false) != CacheHit {
		t.Error("a plain text answer was not stored")
	}
}

// TestCacheOutlivesAReload: a router built to replace another keeps its cached answers when
// the cache, the embedder and the models are configured as before, also once the old one is
// closed; a change of the models starts empty.
func TestCacheOutlivesAReload(t *testing.T) {
	t.Parallel()
	be := newModelBackend(t)
	env := map[string]string{"KEY": "sk-pool"}
	models := fmt.Sprintf(`
models:
  - model_name: m
    provider: {type: openai_compatible, base_url: %s/v1, api_key: env.KEY}
cache: {enabled: true}
`, be.URL)
	build := func(yaml string, prev *Router) *Router {
		t.Helper()
		cfg, err := config.Parse([]byte(yaml))
		if err != nil {
			t.Fatal(err)
		}
		r, err := New(cfg, Options{Previous: prev, LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	first := build(models, nil)
	p := NewPipeline(NewHolder(first), PipelineOptions{})
	if got := ask(t, p, "", chatT("What is the capital of France?", 0), nil); got[HeaderCache] != CacheMiss {
		t.Fatalf("first: %v", got)
	}
	// A reload that changes what the cache does not depend on: the keep-alive of streams.
	second := build(models+"server: {stream_keepalive: 5s}\n", first)
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	p = NewPipeline(NewHolder(second), PipelineOptions{})
	if got := ask(t, p, "", chatT("What is the capital of France?", 0), nil); got[HeaderCache] != CacheHit {
		t.Errorf("after a reload that kept the cache's setup: %v, want a hit", got)
	}
	// A reload that changes a model: its answers may differ, so none carries over.
	third := build(strings.Replace(models, "api_key: env.KEY}", "api_key: env.KEY, model: other}", 1), second)
	t.Cleanup(func() { _ = third.Close() })
	if err := second.Close(); err != nil {
		t.Fatal(err)
	}
	p = NewPipeline(NewHolder(third), PipelineOptions{})
	if got := ask(t, p, "", chatT("What is the capital of France?", 0), nil); got[HeaderCache] != CacheMiss {
		t.Errorf("after a reload that changed the model: %v, want a miss", got)
	}
	if n := be.completions.Load(); n != 2 {
		t.Errorf("the backend was called %d times, want twice", n)
	}
}

// TestCacheOutageLoggedOnce: while the embedder fails, every request is served uncached and
// counted, but the operator reads one warning with the cause, not one per request; its
// recovery is logged once, and a new outage warns again.
func TestCacheOutageLoggedOnce(t *testing.T) {
	t.Parallel()
	var failing atomic.Bool
	failing.Store(true)
	emb := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if failing.Load() {
			http.Error(w, `{"error":{"message":"overloaded"}}`, http.StatusServiceUnavailable)
			return
		}
		embedtest.Answer(w, r)
	}))
	t.Cleanup(emb.Close)
	be := newModelBackend(t)
	metrics := telemetry.NewMetrics(prometheus.NewRegistry())
	var logs logtest.Buffer
	log := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	r := buildRouter(t, fmt.Sprintf(`
models:
  - model_name: m
    provider: {type: openai_compatible, base_url: %s/v1, api_key: env.KEY}
signals:
  embedder: {type: remote, base_url: %s/v1, model: e}
cache: {enabled: true}
`, be.URL, emb.URL), map[string]string{"KEY": "sk-pool"}, Options{Metrics: metrics, Logger: log})
	p := NewPipeline(NewHolder(r), PipelineOptions{})
	count := func() map[string]int {
		out := map[string]int{}
		for _, l := range logLines(t, logs.Bytes()) {
			if msg, _ := l["msg"].(string); strings.HasPrefix(msg, "cache ") {
				out[fmt.Sprint(l["level"], " ", msg, " ", l["operation"], " ", l[LogKeyError])]++
			}
		}
		return out
	}
	const cause = "embedding 1 texts: remote embedder: POST " // the start of the cause the warning carries
	warned := func(got map[string]int) int {
		n := 0
		for k, v := range got {
			if strings.HasPrefix(k, "WARN cache unavailable; serving uncached until it recovers (further failures are logged at debug level) embed "+cause) {
				n += v
			}
		}
		return n
	}
	for i := range 3 {
		if got := ask(t, p, "", chatT(fmt.Sprintf("Question %d about rivers", i), 0), nil)[HeaderCache]; got != CacheMiss {
			t.Fatalf("request %d: %q, want miss", i, got)
		}
	}
	if n := testutil.ToFloat64(metrics.CacheErrors.WithLabelValues("embed")); n != 3 {
		t.Errorf("cache_errors_total{operation=embed} = %v, want 3", n)
	}
	if got := count(); warned(got) != 1 || len(got) != 2 {
		t.Errorf("log lines during the outage: %v, want one warning with the cause and debug lines", got)
	}
	failing.Store(false)
	ask(t, p, "", chatT("Question about lakes", 0), nil)
	if got := count()["INFO cache available again embed <nil>"]; got != 1 {
		t.Errorf("log lines after the recovery: %v, want one info line", count())
	}
	failing.Store(true)
	ask(t, p, "", chatT("Question about seas", 0), nil)
	if got := warned(count()); got != 2 {
		t.Errorf("warnings after a second outage: %d, want 2 (%v)", got, count())
	}
}
