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
