package bedrock_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream"

	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/provider"
	"github.com/semantic-router/semantic-router/internal/provider/bedrock"
	"github.com/semantic-router/semantic-router/internal/provider/providertest"
)

func hello() *openai.ChatRequest {
	return &openai.ChatRequest{Messages: []openai.Message{{Role: "user", Content: openai.TextContent("hi")}}}
}

func newClient(t *testing.T, base, model string, creds func() aws.Credentials) *bedrock.Client {
	t.Helper()
	p, err := bedrock.New(bedrock.Options{Name: "claude", Model: model, Region: "us-east-1", BaseURL: base,
		AccessKeyID:           func() (string, error) { return creds().AccessKeyID, nil },
		SecretAccessKey:       func() (string, error) { return creds().SecretAccessKey, nil },
		SessionToken:          func() (string, error) { return creds().SessionToken, nil },
		AccessKeyIDSource:     "env.AWS_ACCESS_KEY_ID",
		SecretAccessKeySource: "env.AWS_SECRET_ACCESS_KEY",
		SessionTokenSource:    "env.AWS_SESSION_TOKEN"})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// An inference profile ARN holds ':' and '/', which must be escaped in the path and signed
// as AWS signs them; the fake recomputes the signature from what arrived.
func TestInferenceProfileARN(t *testing.T) {
	t.Parallel()
	const arn = "arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-3-5-haiku-20241022-v1:0"
	script := providertest.NewScript()
	creds := aws.Credentials{AccessKeyID: "AKID", SecretAccessKey: "secret"}
	fake := providertest.NewBedrockFake(t, script, "us-east-1", creds)
	p := newClient(t, fake.Server.URL, arn, func() aws.Credentials { return creds })
	if _, err := p.ChatCompletion(context.Background(), hello()); err != nil {
		t.Fatal(err)
	}
	if seen, _ := script.Last(); seen.Model != arn {
		t.Fatalf("upstream saw model %q, want %q", seen.Model, arn)
	}
}

func TestStatusErrors(t *testing.T) {
	t.Parallel()
	creds := aws.Credentials{AccessKeyID: "AKIDEXAMPLE", SecretAccessKey: "wJalrXUtnFEMI", SessionToken: "FwoGZXIvYXdzEXAMPLETOKEN"}
	tests := []struct {
		name, errType, msg string
		status             int
		kind               provider.Kind
		retry              time.Duration
		want               string
	}{
		{"signature mismatch, canonical request cut off", "InvalidSignatureException",
			"The request signature we calculated does not match the signature you provided.\n\nThe Canonical String for this request should have been\n'POST\n/model\nx-amz-security-token:FwoGZXIvYXdzEXAMPLETOKEN'",
			403, provider.KindAuth, 0,
			`model "claude": AWS rejected the request signature (403 InvalidSignatureException): check that env.AWS_SECRET_ACCESS_KEY holds the secret of the access key in env.AWS_ACCESS_KEY_ID, and that the router's clock is right: The request signature we calculated does not match the signature you provided.`},
		{"expired token", "ExpiredTokenException", "The security token included in the request is expired", 403, provider.KindAuth, 0,
			`model "claude": AWS says the credentials have expired (403 ExpiredTokenException): refresh the session token in env.AWS_SESSION_TOKEN, or use long-term keys: The security token included in the request is expired`},
		{"unknown key", "UnrecognizedClientException", "The security token included in the request is invalid.", 403, provider.KindAuth, 0,
			`model "claude": AWS does not know the access key id in env.AWS_ACCESS_KEY_ID (403 UnrecognizedClientException): check that the key is active in IAM; a new key can take a few seconds to propagate: The security token included in the request is invalid.`},
		{"access denied", "AccessDeniedException", "You don't have access to the model with the specified model ID.", 403, provider.KindAuth, 0,
			`model "claude": AWS denied the call (403 AccessDeniedException): allow bedrock:InvokeModel and bedrock:InvokeModelWithResponseStream on "anthropic.claude-v2" for the key in env.AWS_ACCESS_KEY_ID, and enable access to the model in us-east-1: You don't have access to the model with the specified model ID.`},
		{"throttled", "ThrottlingException", "Too many requests, please wait before trying again.", 429, provider.KindRateLimited, time.Second,
			`model "claude": Bedrock is throttling (429 ThrottlingException); retry after 1s: Too many requests, please wait before trying again.`},
		{"service quota", "ServiceQuotaExceededException", "Your request exceeds the service quota for your account.", 400, provider.KindRateLimited, time.Second,
			`model "claude": Bedrock quota exceeded (400 ServiceQuotaExceededException); retry after 1s: Your request exceeds the service quota for your account.`},
		{"model error", "ModelErrorException", "The model returned an error.", 424, provider.KindUpstream, 0,
			`model "claude": Bedrock failed (424 ModelErrorException): The model returned an error.`},
		{"model not ready", "ModelNotReadyException", "Model is not ready.", 429, provider.KindUpstream, 0,
			`model "claude": Bedrock failed (429 ModelNotReadyException): Model is not ready.`},
		{"validation", "ValidationException", "max_tokens must be at most 4096", 400, provider.KindBadRequest, 0,
			`model "claude": Bedrock rejected the request (400 ValidationException): max_tokens must be at most 4096`},
		{"unknown model", "ResourceNotFoundException", "Could not resolve the foundation model.", 404, provider.KindNotFound, 0,
			`model "claude": Bedrock in us-east-1 does not know model "anthropic.claude-v2" (404 ResourceNotFoundException): check provider.model (a model id or inference profile) and region: Could not resolve the foundation model.`},
		{"model timeout", "ModelTimeoutException", "Model has timed out in processing the request.", 408, provider.KindTimeout, 0,
			`model "claude": the model did not answer in time (408 ModelTimeoutException): Model has timed out in processing the request.`},
		{"unavailable", "ServiceUnavailableException", "Service is unavailable.", 503, provider.KindUpstream, 0,
			`model "claude": Bedrock failed (503 ServiceUnavailableException): Service is unavailable.`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("X-Amzn-Errortype", tt.errType+":http://internal.amazon.com/coral/com.amazon.bedrock/")
				w.WriteHeader(tt.status)
				_, _ = w.Write([]byte(`{"message":` + quoteJSON(tt.msg) + `}`))
			}))
			defer srv.Close()
			p := newClient(t, srv.URL, "anthropic.claude-v2", func() aws.Credentials { return creds })
			_, err := p.ChatCompletion(context.Background(), hello())
			var pe *provider.Error
			if !errors.As(err, &pe) || pe.Kind != tt.kind || pe.Status != tt.status || pe.RetryAfter != tt.retry || err.Error() != tt.want {
				t.Fatalf("error\n%v\n(%v, status %d, retry %v)\nwant\n%s", err, pe.Kind, pe.Status, pe.RetryAfter, tt.want)
			}
		})
	}
}

// A request signed while a mounted Secret was half updated (new access key id, old
// secret) is rejected; the client sends it once more with the credentials read afresh.
func TestRetryAfterCredentialChange(t *testing.T) {
	t.Parallel()
	oldCreds := aws.Credentials{AccessKeyID: "AKIDOLD", SecretAccessKey: "old"}
	newCreds := aws.Credentials{AccessKeyID: "AKIDNEW", SecretAccessKey: "new"}
	script := providertest.NewScript()
	fake := providertest.NewBedrockFake(t, script, "us-east-1", newCreds)
	var reads atomic.Int32
	p := newClient(t, fake.Server.URL, "m", func() aws.Credentials {
		// The first request reads the old credentials (three getters per read).
		if reads.Add(1) <= 3 {
			return oldCreds
		}
		return newCreds
	})
	if _, err := p.ChatCompletion(context.Background(), hello()); err != nil {
		t.Fatalf("the request was not retried with the new credentials: %v", err)
	}
	// Unchanged credentials are not retried: the 403 is the answer.
	fake.SetCredentials(oldCreds)
	before := reads.Load()
	_, err := p.ChatCompletion(context.Background(), hello())
	var pe *provider.Error
	if !errors.As(err, &pe) || pe.Kind != provider.KindAuth {
		t.Fatalf("error %v, want an auth error", err)
	}
	if n := reads.Load() - before; n != 6 {
		t.Fatalf("credentials read %d times, want 6 (sign once, check once)", n)
	}
}

func TestNewErrors(t *testing.T) {
	t.Parallel()
	get := func() (string, error) { return "x", nil }
	tests := []struct {
		name string
		o    bedrock.Options
		want string
	}{
		{"no model", bedrock.Options{Region: "r", AccessKeyID: get, SecretAccessKey: get}, "bedrock: model is required"},
		{"no region", bedrock.Options{Model: "m", AccessKeyID: get, SecretAccessKey: get}, "bedrock: region is required"},
		{"no secret", bedrock.Options{Model: "m", Region: "r", AccessKeyID: get}, "bedrock: access_key_id and secret_access_key are required"},
	}
	for _, tt := range tests {
		if _, err := bedrock.New(tt.o); err == nil || err.Error() != tt.want {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.want)
		}
	}
}

func quoteJSON(s string) string {
	b := []byte{'"'}
	for _, r := range s {
		switch r {
		case '\n':
			b = append(b, '\\', 'n')
		case '"', '\\':
			b = append(b, '\\', byte(r))
		default:
			b = append(b, string(r)...)
		}
	}
	return string(append(b, '"'))
}

// A corrected secret for the same access key id must take effect: the SDK signer caches
// the derived signing key by access key id and day, so the client must not reuse a signer
// across a change of secret.
func TestChangedSecretSameKeyID(t *testing.T) {
	t.Parallel()
	good := aws.Credentials{AccessKeyID: "AKID", SecretAccessKey: "right"}
	fake := providertest.NewBedrockFake(t, providertest.NewScript(), "us-east-1", good)
	var secret atomic.Value
	secret.Store("wrong")
	p := newClient(t, fake.Server.URL, "m", func() aws.Credentials {
		return aws.Credentials{AccessKeyID: "AKID", SecretAccessKey: secret.Load().(string)}
	})
	if _, err := p.ChatCompletion(context.Background(), hello()); err == nil {
		t.Fatal("a wrong secret was accepted")
	}
	secret.Store("right")
	if _, err := p.ChatCompletion(context.Background(), hello()); err != nil {
		t.Fatalf("the corrected secret was not used: %v", err)
	}
}

// AWS may answer a ConverseStream with 200 and an exception as the first event, or right
// after messageStart; that failure must come from ChatCompletionStream, where the router
// can still fall back, and not after a role chunk the client was already sent.
func TestStreamFailureBeforeFirstChunk(t *testing.T) {
	t.Parallel()
	event := func(typ, payload string) eventstream.Message {
		var h eventstream.Headers
		h.Set(":message-type", eventstream.StringValue("event"))
		h.Set(":event-type", eventstream.StringValue(typ))
		return eventstream.Message{Headers: h, Payload: []byte(payload)}
	}
	exception := func(typ, msg string) eventstream.Message {
		var h eventstream.Headers
		h.Set(":message-type", eventstream.StringValue("exception"))
		h.Set(":exception-type", eventstream.StringValue(typ))
		return eventstream.Message{Headers: h, Payload: []byte(`{"message":` + quoteJSON(msg) + `}`)}
	}
	start := event("messageStart", `{"role":"assistant"}`)
	tests := []struct {
		name string
		msgs []eventstream.Message
		kind provider.Kind
		want string
	}{
		{"throttled first", []eventstream.Message{exception("throttlingException", "Too many requests.")}, provider.KindRateLimited,
			`model "claude": Bedrock failed during the stream (throttlingException): Too many requests.`},
		{"throttled after messageStart", []eventstream.Message{start, exception("throttlingException", "Too many tokens.")}, provider.KindRateLimited,
			`model "claude": Bedrock failed during the stream (throttlingException): Too many tokens.`},
		{"rejected after messageStart", []eventstream.Message{start, exception("validationException", "Input is too long for requested model.")}, provider.KindBadRequest,
			`model "claude": Bedrock failed during the stream (validationException): Input is too long for requested model.`},
		{"cut after messageStart", []eventstream.Message{start}, provider.KindProtocol,
			`model "claude": BASE: the stream ended before messageStop`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "application/vnd.amazon.eventstream")
				for _, m := range tt.msgs {
					_ = eventstream.NewEncoder().Encode(w, m)
				}
			}))
			defer srv.Close()
			p := newClient(t, srv.URL, "m", func() aws.Credentials { return aws.Credentials{AccessKeyID: "a", SecretAccessKey: "b"} })
			st, err := p.ChatCompletionStream(context.Background(), hello())
			var pe *provider.Error
			if st != nil || !errors.As(err, &pe) || pe.Kind != tt.kind || err.Error() != strings.ReplaceAll(tt.want, "BASE", srv.URL) {
				t.Fatalf("stream %v, error %v; want no stream and %v %q", st, err, tt.kind, tt.want)
			}
		})
	}
}

// The chunks read while looking for the first content are all handed out, in order.
func TestStreamStartsWithTheRole(t *testing.T) {
	t.Parallel()
	script := providertest.NewScript()
	script.SetReply(providertest.Reply{Text: "Hi there"})
	creds := aws.Credentials{AccessKeyID: "AKID", SecretAccessKey: "secret"}
	fake := providertest.NewBedrockFake(t, script, "us-east-1", creds)
	p := newClient(t, fake.Server.URL, "m", func() aws.Credentials { return creds })
	st, err := p.ChatCompletionStream(context.Background(), hello())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var deltas []string
	for {
		data, err := st.Next()
		if err != nil {
			break
		}
		var ch openai.ChatChunk
		if err := json.Unmarshal(data, &ch); err != nil || len(ch.Choices) != 1 {
			t.Fatalf("chunk %s: %v", data, err)
		}
		d := ch.Choices[0].Delta
		deltas = append(deltas, d.Role+"|"+d.Content)
	}
	if got := strings.Join(deltas, ","); got != "assistant|,|Hi ,|there,|" {
		t.Fatalf("deltas %q, want the role, the words and the finish", got)
	}
}

// TestAnswerNotConverse: a 200 whose body or content type is not Converse's is a protocol
// error that names Bedrock Converse as the protocol the answer did not follow.
func TestAnswerNotConverse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, contentType, body string
		stream                  bool
		want                    string
	}{
		{"not JSON", "application/json", `<html>gateway</html>`, false,
			`the answer is not a Converse response`},
		{"no output message", "application/json", `{"output":{}}`, false,
			`the answer is not a Converse response`},
		{"stream of another type", "application/json", `{}`, true,
			`ConverseStream was answered with content type "application/json", not application/vnd.amazon.eventstream`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", tt.contentType)
				_, _ = w.Write([]byte(tt.body))
			}))
			defer srv.Close()
			p := newClient(t, srv.URL, "anthropic.claude-3-5-haiku-20241022-v1:0", func() aws.Credentials {
				return aws.Credentials{AccessKeyID: "AKID", SecretAccessKey: "secret"}
			})
			var err error
			if tt.stream {
				_, err = p.ChatCompletionStream(context.Background(), hello())
			} else {
				_, err = p.ChatCompletion(context.Background(), hello())
			}
			var pe *provider.Error
			if !errors.As(err, &pe) || pe.Kind != provider.KindProtocol || pe.Protocol != "Bedrock Converse" ||
				pe.Message != srv.URL+": "+tt.want {
				t.Fatalf("error %v (%#v), want a Bedrock Converse protocol error %q", err, pe, tt.want)
			}
		})
	}
}
