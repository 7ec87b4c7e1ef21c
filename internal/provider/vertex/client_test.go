package vertex_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/provider"
	"github.com/semantic-router/semantic-router/internal/provider/providertest"
	"github.com/semantic-router/semantic-router/internal/provider/vertex"
)

func hello() *openai.ChatRequest {
	return &openai.ChatRequest{Messages: []openai.Message{{Role: "user", Content: openai.TextContent("hi")}}}
}

func newClient(t *testing.T, base string, key func() (string, error)) *vertex.Client {
	t.Helper()
	p, err := vertex.New(vertex.Options{Name: "gemini", Model: "gemini-2.0-flash-001", Project: "proj", Location: "us-central1",
		BaseURL: base, ServiceAccountKey: key, ServiceAccountKeySource: "env.VERTEX_SA_KEY_B64"})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestTokenIsCachedUntilNearExpiry(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		ttl       time.Duration
		wantMints int
	}{
		// oauth2 refreshes a token 10s before it expires.
		{"an hour-long token serves every request", time.Hour, 1},
		{"a token about to expire is replaced", 5 * time.Second, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fake := providertest.NewVertexFake(t, providertest.NewScript(), "proj", "us-central1")
			fake.TokenTTL = tt.ttl
			key := base64.StdEncoding.EncodeToString(fake.NewKey(t))
			p := newClient(t, fake.Server.URL, func() (string, error) { return key, nil })
			for range 4 {
				if _, err := p.ChatCompletion(context.Background(), hello()); err != nil {
					t.Fatal(err)
				}
			}
			if got := fake.Mints(); got != tt.wantMints {
				t.Fatalf("tokens minted = %d, want %d", got, tt.wantMints)
			}
		})
	}
}

func TestNewKeyMintsNewToken(t *testing.T) {
	t.Parallel()
	script := providertest.NewScript()
	fake := providertest.NewVertexFake(t, script, "proj", "us-central1")
	keys := []string{base64.StdEncoding.EncodeToString(fake.NewKey(t)), base64.StdEncoding.EncodeToString(fake.NewKey(t))}
	var current atomic.Int32
	p := newClient(t, fake.Server.URL, func() (string, error) { return keys[current.Load()], nil })
	if _, err := p.ChatCompletion(context.Background(), hello()); err != nil {
		t.Fatal(err)
	}
	first, _ := script.Last()
	current.Store(1)
	if _, err := p.ChatCompletion(context.Background(), hello()); err != nil {
		t.Fatal(err)
	}
	second, _ := script.Last()
	if fake.KeyOf(first.Credential) != "fake-key-1" || fake.KeyOf(second.Credential) != "fake-key-2" || fake.Mints() != 2 {
		t.Fatalf("tokens from keys %q then %q (%d minted), want fake-key-1 then fake-key-2",
			fake.KeyOf(first.Credential), fake.KeyOf(second.Credential), fake.Mints())
	}
}

func TestCredentialErrors(t *testing.T) {
	t.Parallel()
	fake := providertest.NewVertexFake(t, providertest.NewScript(), "proj", "us-central1")
	revoked := fake.NewKey(t)
	fake.RevokeKey(revoked)
	tokenURI := fake.Server.URL + "/token"
	tests := []struct {
		name, key, want string
		status          int
	}{
		{"not base64", "{not base64", `model "gemini": service_account_key from env.VERTEX_SA_KEY_B64: not valid base64 (encode the key file with base64 -w0)`, 0},
		{"not a service account key", base64.StdEncoding.EncodeToString([]byte(`{"type":"authorized_user"}`)),
			`model "gemini": service_account_key from env.VERTEX_SA_KEY_B64: not a service-account key: google: read JWT from JSON credentials: 'type' field is "authorized_user" (expected "service_account")`, 0},
		{"deleted key", base64.StdEncoding.EncodeToString(revoked),
			`model "gemini": the token endpoint ` + tokenURI + ` rejected the service account key from env.VERTEX_SA_KEY_B64 (400 invalid_grant: Invalid JWT Signature.): check that the key is current and not deleted in GCP`, 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := newClient(t, fake.Server.URL, func() (string, error) { return tt.key, nil })
			_, err := p.ChatCompletion(context.Background(), hello())
			var pe *provider.Error
			if !errors.As(err, &pe) || pe.Kind != provider.KindAuth || pe.Status != tt.status || err.Error() != tt.want {
				t.Fatalf("error\n%v\nwant kind auth, status %d and\n%s", err, tt.status, tt.want)
			}
			if strings.Contains(err.Error(), "PRIVATE KEY") {
				t.Fatal("the error contains key material")
			}
		})
	}
}

func TestStatusErrors(t *testing.T) {
	t.Parallel()
	fake := providertest.NewVertexFake(t, providertest.NewScript(), "proj", "us-central1")
	key := base64.StdEncoding.EncodeToString(fake.NewKey(t))
	tests := []struct {
		name, body string
		status     int
		kind       provider.Kind
		want       string
	}{
		{"permission denied", `{"error":{"code":403,"message":"Permission 'aiplatform.endpoints.predict' denied on resource.","status":"PERMISSION_DENIED"}}`, 403, provider.KindAuth,
			`model "gemini": the service account in env.VERTEX_SA_KEY_B64 may not use model "gemini-2.0-flash-001" in project proj (403 PERMISSION_DENIED): grant it roles/aiplatform.user and enable the Vertex AI API: Permission 'aiplatform.endpoints.predict' denied on resource.`},
		{"unknown model", `{"error":{"code":404,"message":"Publisher Model was not found.","status":"NOT_FOUND"}}`, 404, provider.KindNotFound,
			`model "gemini": Vertex AI does not know model "gemini-2.0-flash-001" in project proj, location us-central1 (404 NOT_FOUND): check provider.model, project and location: Publisher Model was not found.`},
		{"quota", `{"error":{"code":429,"message":"Quota exceeded.","status":"RESOURCE_EXHAUSTED"}}`, 429, provider.KindRateLimited,
			`model "gemini": Vertex AI quota exhausted (429 RESOURCE_EXHAUSTED); retry after 1s: Quota exceeded.`},
		{"not JSON", `<html>bad gateway</html>`, 502, provider.KindUpstream, `model "gemini": Vertex AI failed (502): <html>bad gateway</html>`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			// The model API answers the error; tokens still come from the fake.
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				w.WriteHeader(tt.status)
				_, _ = w.Write([]byte(tt.body))
			}))
			defer srv.Close()
			p := newClient(t, srv.URL, func() (string, error) { return key, nil })
			_, err := p.ChatCompletion(context.Background(), hello())
			var pe *provider.Error
			if !errors.As(err, &pe) || pe.Kind != tt.kind || pe.Status != tt.status || err.Error() != tt.want {
				t.Fatalf("error\n%v\nwant kind %v status %d and\n%s", err, tt.kind, tt.status, tt.want)
			}
		})
	}
}

// Vertex may answer 200 and send an error event first; that failure must come from
// ChatCompletionStream, where the router can still fall back.
func TestStreamFailureBeforeFirstChunk(t *testing.T) {
	t.Parallel()
	fake := providertest.NewVertexFake(t, providertest.NewScript(), "proj", "us-central1")
	key := base64.StdEncoding.EncodeToString(fake.NewKey(t))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write([]byte(`data: {"error":{"code":429,"message":"Resource exhausted.","status":"RESOURCE_EXHAUSTED"}}` + "\r\n\r\n"))
	}))
	defer srv.Close()
	p := newClient(t, srv.URL, func() (string, error) { return key, nil })
	st, err := p.ChatCompletionStream(context.Background(), hello())
	var pe *provider.Error
	if st != nil || !errors.As(err, &pe) || pe.Kind != provider.KindRateLimited ||
		err.Error() != `model "gemini": Vertex AI failed during the stream (RESOURCE_EXHAUSTED): Resource exhausted.` {
		t.Fatalf("stream %v, error %v; want no stream and the upstream error", st, err)
	}
}

// TestAnswerIDsComeFromResponseID: a whole answer and every chunk of a stream are named
// after Vertex's responseId, so a client's id can be found in Google's logs either way.
func TestAnswerIDsComeFromResponseID(t *testing.T) {
	t.Parallel()
	fake := providertest.NewVertexFake(t, providertest.NewScript(), "proj", "us-central1")
	key := base64.StdEncoding.EncodeToString(fake.NewKey(t))
	p := newClient(t, fake.Server.URL, func() (string, error) { return key, nil })
	const want = "chatcmpl-fake-response-1" // the fake's responseId
	resp, err := p.ChatCompletion(context.Background(), hello())
	if err != nil {
		t.Fatal(err)
	}
	var answer openai.ChatResponse
	if err := json.Unmarshal(resp.Body, &answer); err != nil || answer.ID != want {
		t.Fatalf("answer id %q (%v), want %q", answer.ID, err, want)
	}
	st, err := p.ChatCompletionStream(context.Background(), hello())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	n := 0
	for {
		data, err := st.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		var ch openai.ChatChunk
		if err := json.Unmarshal(data, &ch); err != nil || ch.ID != want {
			t.Fatalf("chunk %d id %q (%v), want %q", n, ch.ID, err, want)
		}
		n++
	}
	if n == 0 {
		t.Fatal("the stream had no chunks")
	}
}

// TestAnswerNotGemini: a 200 whose body or content type is not Gemini's is a protocol
// error that names Vertex Gemini as the protocol the answer did not follow.
func TestAnswerNotGemini(t *testing.T) {
	t.Parallel()
	fake := providertest.NewVertexFake(t, providertest.NewScript(), "proj", "us-central1")
	key := base64.StdEncoding.EncodeToString(fake.NewKey(t))
	tests := []struct {
		name, contentType, body string
		stream                  bool
		want                    string
	}{
		{"not JSON", "application/json", `<html>gateway</html>`, false, `the answer is not a GenerateContentResponse`},
		{"no candidates", "application/json", `{"responseId":"r1"}`, false, `the answer is not a GenerateContentResponse`},
		{"stream of another type", "application/json", `{}`, true,
			`streamGenerateContent was answered with content type "application/json", not text/event-stream`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			// The model API answers; tokens still come from the fake.
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", tt.contentType)
				_, _ = w.Write([]byte(tt.body))
			}))
			defer srv.Close()
			p := newClient(t, srv.URL, func() (string, error) { return key, nil })
			var err error
			if tt.stream {
				_, err = p.ChatCompletionStream(context.Background(), hello())
			} else {
				_, err = p.ChatCompletion(context.Background(), hello())
			}
			var pe *provider.Error
			if !errors.As(err, &pe) || pe.Kind != provider.KindProtocol || pe.Protocol != "Vertex Gemini" ||
				pe.Message != srv.URL+": "+tt.want {
				t.Fatalf("error %v (%#v), want a Vertex Gemini protocol error %q", err, pe, tt.want)
			}
		})
	}
}

// TestMalformedFunctionCall: Gemini ends a candidate with MALFORMED_FUNCTION_CALL (or
// UNEXPECTED_TOOL_CALL) and no content when the model wrote a call it cannot deliver. That
// is a failure of the model, not an empty answer: a KindUpstream error whose cause tells
// the router what the model produced, from ChatCompletion, from ChatCompletionStream when
// nothing went out yet, and from Next in the middle of a stream.
func TestMalformedFunctionCall(t *testing.T) {
	t.Parallel()
	fake := providertest.NewVertexFake(t, providertest.NewScript(), "proj", "us-central1")
	key := base64.StdEncoding.EncodeToString(fake.NewKey(t))
	const (
		malformed = `{"candidates":[{"content":{},"finishReason":"MALFORMED_FUNCTION_CALL","finishMessage":"Malformed function call: print(default_api.get_weather(city='Paris'"}],` +
			`"usageMetadata":{"promptTokenCount":50,"totalTokenCount":50},"modelVersion":"gemini-2.5-flash","responseId":"r1"}`
		unexpected    = `{"candidates":[{"content":{"role":"model"},"finishReason":"UNEXPECTED_TOOL_CALL"}],"usageMetadata":{"promptTokenCount":50,"totalTokenCount":50},"responseId":"r1"}`
		text          = `{"candidates":[{"content":{"role":"model","parts":[{"text":"Let me check."}]}}],"responseId":"r1"}`
		wantMalformed = `model "gemini": Vertex AI: the model produced a malformed function call (MALFORMED_FUNCTION_CALL): Malformed function call: print(default_api.get_weather(city='Paris'`
	)
	sse := func(events ...string) string {
		var sb strings.Builder
		for _, e := range events {
			sb.WriteString("data: " + e + "\r\n\r\n")
		}
		return sb.String()
	}
	tests := []struct {
		name, body string
		stream     bool
		chunks     int // chunks handed out before the error
		want       string
		what       string
	}{
		{"answer", malformed, false, 0, wantMalformed, "a malformed function call"},
		{"answer with an unexpected call", unexpected, false, 0,
			`model "gemini": Vertex AI: the model produced a function call although the request offered no tools (UNEXPECTED_TOOL_CALL)`,
			"a function call although the request offered no tools"},
		{"stream, first event", sse(malformed), true, 0, wantMalformed, "a malformed function call"},
		{"stream, after text", sse(text, malformed), true, 1, wantMalformed, "a malformed function call"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				if tt.stream {
					w.Header().Set("Content-Type", "text/event-stream")
				} else {
					w.Header().Set("Content-Type", "application/json")
				}
				_, _ = w.Write([]byte(tt.body))
			}))
			defer srv.Close()
			p := newClient(t, srv.URL, func() (string, error) { return key, nil })
			var err error
			chunks := 0
			switch {
			case !tt.stream:
				_, err = p.ChatCompletion(context.Background(), hello())
			default:
				var st provider.Stream
				st, err = p.ChatCompletionStream(context.Background(), hello())
				if (err == nil) != (tt.chunks > 0) {
					t.Fatalf("ChatCompletionStream error %v; want one only when nothing could go out first", err)
				}
				for err == nil {
					if _, err = st.Next(); err == nil {
						chunks++
					}
				}
				if st != nil {
					_ = st.Close()
				}
			}
			var pe *provider.Error
			var mo *provider.ModelOutputError
			if !errors.As(err, &pe) || pe.Kind != provider.KindUpstream || err.Error() != tt.want ||
				!errors.As(err, &mo) || mo.What != tt.what || chunks != tt.chunks {
				t.Fatalf("after %d chunks, error\n%v\nwant after %d a KindUpstream error with a ModelOutputError %q:\n%s",
					chunks, err, tt.chunks, tt.what, tt.want)
			}
		})
	}
}
