// Package bedrock calls models on AWS Bedrock through the Converse and ConverseStream APIs,
// translating OpenAI chat requests and answers both ways. Requests are signed with SigV4 by
// the AWS SDK's signer; credentials are read through getters on every request, so a
// rotated key takes effect without a restart.
package bedrock

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"

	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/provider"
	"github.com/semantic-router/semantic-router/internal/provider/transport"
)

// SigningName is the service name in Bedrock's SigV4 credential scope.
const SigningName = "bedrock"

// Options configure a Client.
type Options struct {
	// Name is the router's name for the model, used in error messages.
	Name string
	// Model is the Bedrock model id or inference profile id/ARN, such as
	// anthropic.claude-3-5-haiku-20241022-v1:0.
	Model string
	// Region is the AWS region, such as us-east-1. Required: it is part of the signature.
	Region string
	// BaseURL overrides the endpoint https://bedrock-runtime.<region>.amazonaws.com (a VPC
	// endpoint, a test server). No trailing slash.
	BaseURL string
	// AccessKeyID and SecretAccessKey return the IAM credentials; SessionToken, optional,
	// returns the token of temporary credentials. They are called for every request.
	AccessKeyID, SecretAccessKey, SessionToken func() (string, error)
	// The *Source fields name where each credential comes from (such as
	// "env.AWS_ACCESS_KEY_ID"), so errors can say which to check. Never the value.
	AccessKeyIDSource, SecretAccessKeySource, SessionTokenSource string
	// Timeout bounds a whole call, streaming included. Zero means no limit.
	Timeout time.Duration
	// MaxResponseBytes bounds a non-streamed answer; a longer one is refused before it is
	// read whole. Zero means provider.DefaultMaxResponseBytes (32 MiB).
	MaxResponseBytes int64
	// Transport is the pooled transport to use; see package transport.
	Transport http.RoundTripper
	// Now is the signing clock; default time.Now.
	Now func() time.Time
}

// Client is a Provider for one model on Bedrock. It is safe for concurrent use.
type Client struct {
	opts   Options
	http   *http.Client
	base   string
	path   string // escaped /model/{id}
	signer atomic.Pointer[signerFor]
}

// signerFor is a signer used only with the credentials it was made for. The SDK signer
// caches the derived signing key per region and service and checks only the access key id
// and the day before reusing it: shared across a rotation, it would keep signing with a
// derived key of the old secret (or of a half-updated pair) for the rest of the UTC day.
type signerFor struct {
	creds  aws.Credentials
	signer *v4.Signer
}

// signerOf returns the signer for creds, replacing the current one when they changed.
func (c *Client) signerOf(creds aws.Credentials) *v4.Signer {
	if cur := c.signer.Load(); cur != nil && cur.creds == creds {
		return cur.signer
	}
	s := &signerFor{creds: creds, signer: v4.NewSigner()}
	c.signer.Store(s)
	return s.signer
}

// New returns a client. It does not contact AWS.
func New(o Options) (*Client, error) {
	switch {
	case o.Model == "":
		return nil, errors.New("bedrock: model is required")
	case o.Region == "":
		return nil, errors.New("bedrock: region is required")
	case o.AccessKeyID == nil || o.SecretAccessKey == nil:
		return nil, errors.New("bedrock: access_key_id and secret_access_key are required")
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Transport == nil {
		t, err := transport.New(transport.Options{})
		if err != nil {
			return nil, err
		}
		o.Transport = t
	}
	base := o.BaseURL
	if base == "" {
		base = "https://bedrock-runtime." + o.Region + ".amazonaws.com"
	}
	return &Client{opts: o, http: transport.NewClient(o.Transport), base: base,
		path: "/model/" + escapeSegment(o.Model)}, nil
}

// ChatCompletion implements provider.Provider with Converse.
func (c *Client) ChatCompletion(ctx context.Context, req *openai.ChatRequest) (*provider.Response, error) {
	ctx, cancel := c.withTimeout(ctx)
	defer cancel()
	resp, creds, err := c.post(ctx, req, false)
	if err != nil {
		return nil, provider.RedactError(err, secrets(creds)...)
	}
	defer resp.Body.Close()
	raw, err := transport.ReadBody(ctx, c.opts.Name, c.base, resp.Body, resp.ContentLength, c.opts.MaxResponseBytes)
	if err != nil {
		return nil, err
	}
	body, usage, err := fromConverse(raw, responseID(resp), c.opts.Model, c.opts.Now().Unix())
	if err != nil {
		return nil, c.protocolError("the answer is not a Converse response", err)
	}
	return &provider.Response{Body: body, Usage: usage}, nil
}

// ChatCompletionStream implements provider.Provider with ConverseStream.
func (c *Client) ChatCompletionStream(ctx context.Context, req *openai.ChatRequest) (provider.Stream, error) {
	ctx, cancel := c.withTimeout(ctx)
	resp, creds, err := c.post(ctx, req, true)
	if err != nil {
		cancel()
		return nil, provider.RedactError(err, secrets(creds)...)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/vnd.amazon.eventstream") {
		resp.Body.Close()
		cancel()
		return nil, c.protocolError(fmt.Sprintf("ConverseStream was answered with content type %q, not application/vnd.amazon.eventstream", ct), nil)
	}
	s := &stream{c: c, ctx: ctx, creds: creds, body: resp.Body, events: newEventReader(resp.Body), cancel: cancel,
		ch: chunker{id: responseID(resp), model: c.opts.Model, created: c.opts.Now().Unix(),
			includeUsage: req.StreamOptions != nil && req.StreamOptions.IncludeUsage}}
	// AWS answers 200 and then reports throttling or a validation failure as the stream's
	// first event, or right after messageStart. Reading up to the first chunk with content
	// here returns such an error from this call, where the router can still fall back, as
	// provider.Provider promises.
	if err := s.prime(); err != nil {
		_ = s.Close()
		return nil, err
	}
	return s, nil
}

func (c *Client) withTimeout(ctx context.Context) (context.Context, context.CancelFunc) {
	return provider.WithTimeout(ctx, c.opts.Timeout)
}

// post sends a signed Converse or ConverseStream request and returns a 200 response and
// the credentials it was signed with.
func (c *Client) post(ctx context.Context, req *openai.ChatRequest, stream bool) (*http.Response, aws.Credentials, error) {
	none := aws.Credentials{}
	conv, err := toConverse(req)
	if err != nil {
		return nil, none, provider.Refused(c.opts.Name, "Bedrock", err)
	}
	body, err := json.Marshal(conv)
	if err != nil {
		return nil, none, &provider.Error{Kind: provider.KindInternal, Model: c.opts.Name, Message: "encoding the request", Err: err}
	}
	sum := sha256.Sum256(body)
	payloadHash := hex.EncodeToString(sum[:])
	op := "/converse"
	if stream {
		op = "/converse-stream"
	}
	// A mounted Secret updates its files one by one; a request signed between the access
	// key id and the secret changing is rejected. Such a request is sent once more with
	// the credentials read afresh, so a rotation costs no failed request.
	for attempt := 0; ; attempt++ {
		creds, perr := c.credentials()
		if perr != nil {
			return nil, none, perr
		}
		hreq, answered, err := transport.NewPost(ctx, c.base+c.path+op, body)
		if err != nil {
			return nil, creds, &provider.Error{Kind: provider.KindInternal, Model: c.opts.Name, Message: "building the request", Err: err}
		}
		hreq.Header.Set("Content-Type", "application/json")
		if stream {
			hreq.Header.Set("Accept", "application/vnd.amazon.eventstream")
		} else {
			hreq.Header.Set("Accept", "application/json")
		}
		if err := c.signerOf(creds).SignHTTP(ctx, creds, hreq, payloadHash, SigningName, c.opts.Region, c.opts.Now()); err != nil {
			return nil, creds, &provider.Error{Kind: provider.KindInternal, Model: c.opts.Name, Message: "signing the request", Err: err}
		}
		resp, err := c.http.Do(hreq)
		answered()
		if err != nil {
			return nil, creds, c.transportError(ctx, err)
		}
		if resp.StatusCode == http.StatusOK {
			return resp, creds, nil
		}
		if transport.IsRedirect(resp.StatusCode) {
			resp.Body.Close()
			return nil, creds, transport.Redirect(c.opts.Name, c.base, resp)
		}
		if attempt == 0 && resp.StatusCode == http.StatusForbidden {
			if now, err := c.credentials(); err == nil && now != creds {
				_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
				resp.Body.Close()
				continue
			}
		}
		defer resp.Body.Close()
		return nil, creds, c.statusError(resp, creds)
	}
}

func (c *Client) credentials() (aws.Credentials, *provider.Error) {
	read := func(get func() (string, error), field, src string) (string, *provider.Error) {
		if get == nil {
			return "", nil
		}
		v, err := get()
		if err != nil {
			return "", &provider.Error{Kind: provider.KindAuth, Model: c.opts.Name,
				Message: fmt.Sprintf("reading %s from %s: %v", field, src, err), Err: err}
		}
		return v, nil
	}
	id, err := read(c.opts.AccessKeyID, "access_key_id", c.opts.AccessKeyIDSource)
	if err != nil {
		return aws.Credentials{}, err
	}
	secret, err := read(c.opts.SecretAccessKey, "secret_access_key", c.opts.SecretAccessKeySource)
	if err != nil {
		return aws.Credentials{}, err
	}
	token, err := read(c.opts.SessionToken, "session_token", c.opts.SessionTokenSource)
	if err != nil {
		return aws.Credentials{}, err
	}
	return aws.Credentials{AccessKeyID: id, SecretAccessKey: secret, SessionToken: token}, nil
}

// statusError explains a non-200 answer from the error type AWS sends in
// X-Amzn-ErrorType (or __type) and its message.
func (c *Client) statusError(resp *http.Response, creds aws.Credentials) *provider.Error {
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	typ, detail := awsError(resp.Header, raw)
	detail = provider.UpstreamText(detail, secrets(creds)...)
	code := resp.StatusCode
	e := &provider.Error{Model: c.opts.Name, Status: code}
	label := strconv.Itoa(code)
	if typ != "" {
		label += " " + typ
	}
	lower := strings.ToLower(typ + " " + detail)
	switch {
	case typ == "ServiceQuotaExceededException":
		// A 400, but AWS's advice is to send the request again later: it is throttling.
		e.Kind = provider.KindRateLimited
		e.RetryAfter = provider.RetryAfter(resp.Header.Get("Retry-After"), time.Second)
		e.Message = fmt.Sprintf("Bedrock quota exceeded (%s); retry after %s", label, e.RetryAfter)
	case typ == "ModelErrorException" || typ == "ModelNotReadyException":
		// The model failed on a valid request (424), or is not loaded yet (429): the
		// service's failure, which another attempt or model may not meet.
		e.Kind = provider.KindUpstream
		e.Message = fmt.Sprintf("Bedrock failed (%s)", label)
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		e.Kind = provider.KindAuth
		switch {
		case strings.Contains(lower, "expiredtoken") || strings.Contains(lower, "expired"):
			e.Message = fmt.Sprintf("AWS says the credentials have expired (%s): refresh the session token in %s, or use long-term keys", label, orNone(c.opts.SessionTokenSource))
		case strings.Contains(lower, "signature"):
			e.Message = fmt.Sprintf("AWS rejected the request signature (%s): check that %s holds the secret of the access key in %s, and that the router's clock is right", label, c.opts.SecretAccessKeySource, c.opts.AccessKeyIDSource)
		case strings.Contains(lower, "unrecognizedclient") || strings.Contains(lower, "security token included in the request is invalid"):
			e.Message = fmt.Sprintf("AWS does not know the access key id in %s (%s): check that the key is active in IAM; a new key can take a few seconds to propagate", c.opts.AccessKeyIDSource, label)
		default:
			e.Message = fmt.Sprintf("AWS denied the call (%s): allow bedrock:InvokeModel and bedrock:InvokeModelWithResponseStream on %q for the key in %s, and enable access to the model in %s", label, c.opts.Model, c.opts.AccessKeyIDSource, c.opts.Region)
		}
	case code == http.StatusNotFound:
		e.Kind = provider.KindNotFound
		e.Message = fmt.Sprintf("Bedrock in %s does not know model %q (%s): check provider.model (a model id or inference profile) and region", c.opts.Region, c.opts.Model, label)
	case code == http.StatusRequestTimeout:
		e.Kind = provider.KindTimeout
		e.Message = fmt.Sprintf("the model did not answer in time (%s)", label)
	case code == http.StatusTooManyRequests:
		e.Kind = provider.KindRateLimited
		// Bedrock sends no Retry-After; a second is the first step of the backoff the AWS
		// SDKs use, so clients get a hint they can act on.
		e.RetryAfter = provider.RetryAfter(resp.Header.Get("Retry-After"), time.Second)
		e.Message = fmt.Sprintf("Bedrock is throttling (%s); retry after %s", label, e.RetryAfter)
	case code >= 500:
		e.Kind = provider.KindUpstream
		e.Message = fmt.Sprintf("Bedrock failed (%s)", label)
	case code >= 400:
		e.Kind = provider.KindBadRequest
		e.Message = fmt.Sprintf("Bedrock rejected the request (%s)", label)
	default:
		e.Kind, e.Protocol = provider.KindProtocol, protocol
		e.Message = fmt.Sprintf("Bedrock answered with unexpected status %d", code)
	}
	if detail != "" {
		e.Message += ": " + detail
	}
	return e
}

// streamException explains an exception event inside a ConverseStream signed with creds.
func (c *Client) streamException(typ string, payload []byte, creds aws.Credentials) *provider.Error {
	_, detail := awsError(nil, payload)
	e := &provider.Error{Model: c.opts.Name, Kind: provider.KindUpstream,
		Message: fmt.Sprintf("Bedrock failed during the stream (%s)", typ)}
	switch strings.ToLower(typ) {
	case "throttlingexception", "servicequotaexceededexception":
		e.Kind, e.RetryAfter = provider.KindRateLimited, time.Second
	case "validationexception":
		e.Kind = provider.KindBadRequest
	case "modeltimeoutexception":
		e.Kind = provider.KindTimeout
	}
	if detail = provider.UpstreamText(detail, secrets(creds)...); detail != "" {
		e.Message += ": " + detail
	}
	return e
}

// awsError returns the error type and message of an AWS JSON error.
func awsError(h http.Header, raw []byte) (typ, msg string) {
	var body struct {
		Type    string `json:"__type"`
		Message string `json:"message"`
		Msg2    string `json:"Message"`
	}
	_ = json.Unmarshal(raw, &body)
	typ = body.Type
	if h != nil && h.Get("X-Amzn-Errortype") != "" {
		typ = h.Get("X-Amzn-Errortype")
	}
	typ, _, _ = strings.Cut(typ, ":") // "ValidationException:http://internal.amazon.com/..."
	if i := strings.LastIndexByte(typ, '#'); i >= 0 {
		typ = typ[i+1:] // "com.amazon.coral.service#UnrecognizedClientException"
	}
	msg = body.Message
	if msg == "" {
		msg = body.Msg2
	}
	if msg == "" && body.Type == "" {
		msg = strings.TrimSpace(string(raw))
	}
	return typ, msg
}

// secrets are the credential values a request signed with creds may carry or a backend
// may echo: a signature mismatch answer goes on with the canonical request, whose signed
// headers include the session token.
func secrets(creds aws.Credentials) []string {
	return []string{creds.SecretAccessKey, creds.SessionToken, creds.AccessKeyID}
}

func orNone(src string) string {
	if src == "" {
		return "session_token (none is configured)"
	}
	return src
}

// protocol is the provider.Error Protocol of the client's errors.
const protocol = "Bedrock Converse"

func (c *Client) transportError(ctx context.Context, err error) *provider.Error {
	e := transport.ExplainContext(ctx, c.opts.Name, c.base, err)
	e.Protocol = protocol // for an answer refused on the way in (headers too large)
	return e
}

func (c *Client) protocolError(msg string, err error) *provider.Error {
	return &provider.Error{Kind: provider.KindProtocol, Model: c.opts.Name, Protocol: protocol,
		Message: fmt.Sprintf("%s: %s", c.base, msg), Err: err}
}

// responseID derives the completion id from the AWS request id, which ties a client's
// answer to AWS's logs; a random id stands in when AWS sent none.
func responseID(resp *http.Response) string {
	if id := resp.Header.Get("X-Amzn-Requestid"); id != "" {
		return "chatcmpl-" + id
	}
	return "chatcmpl-" + rand.Text()[:20]
}

// escapeSegment escapes everything but RFC 3986 unreserved characters, as AWS expects in
// a path segment: model ids hold ':' and inference profile ARNs hold ':' and '/'.
func escapeSegment(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if 'A' <= ch && ch <= 'Z' || 'a' <= ch && ch <= 'z' || '0' <= ch && ch <= '9' || ch == '-' || ch == '_' || ch == '.' || ch == '~' {
			b.WriteByte(ch)
			continue
		}
		fmt.Fprintf(&b, "%%%02X", ch)
	}
	return b.String()
}

var _ provider.Provider = (*Client)(nil)
