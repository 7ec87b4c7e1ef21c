// Package vertex calls Gemini models on Google Vertex AI (generateContent and
// streamGenerateContent with alt=sse), translating OpenAI chat requests and answers both
// ways. It authenticates as a service account: the key (base64-encoded JSON, as the
// operations guide stores it) is read through a getter on every request, and the OAuth
// access token minted from it is cached until shortly before it expires. A changed key
// gets a new token source at once, so rotation needs no restart.
package vertex

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/google"

	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/provider"
	"github.com/semantic-router/semantic-router/internal/provider/transport"
)

// Scope is the OAuth scope requested for the access token.
const Scope = "https://www.googleapis.com/auth/cloud-platform"

// Options configure a Client.
type Options struct {
	// Name is the router's name for the model, used in error messages.
	Name string
	// Model is the Gemini model id, such as gemini-2.0-flash-001.
	Model string
	// Project and Location locate the model: a project id and a region such as
	// us-central1, or "global".
	Project, Location string
	// BaseURL overrides the endpoint https://<location>-aiplatform.googleapis.com (or
	// https://aiplatform.googleapis.com for "global"). No trailing slash.
	BaseURL string
	// ServiceAccountKey returns the base64-encoded service-account key JSON. It is called
	// for every request; the token endpoint is the key's token_uri.
	ServiceAccountKey func() (string, error)
	// ServiceAccountKeySource names where the key comes from (such as
	// "env.VERTEX_SA_KEY_B64"), so errors can say which to check. Never the value.
	ServiceAccountKeySource string
	// Timeout bounds a whole call, streaming included. Zero means no limit.
	Timeout time.Duration
	// MaxResponseBytes bounds a non-streamed answer; a longer one is refused before it is
	// read whole. Zero means provider.DefaultMaxResponseBytes (32 MiB).
	MaxResponseBytes int64
	// Transport is the pooled transport to use, for the model API and the token endpoint.
	Transport http.RoundTripper
	// Now is the clock for the created field; default time.Now.
	Now func() time.Time
}

// Client is a Provider for one Gemini model on Vertex AI. It is safe for concurrent use.
type Client struct {
	opts Options
	http *http.Client
	base string
	url  string // .../models/{model}

	mu       sync.Mutex
	keyB64   string // the encoded key tokens currently come from
	tokens   oauth2.TokenSource
	tokenURI string
}

// New returns a client. It does not contact Google.
func New(o Options) (*Client, error) {
	switch {
	case o.Model == "" || o.Project == "" || o.Location == "":
		return nil, errors.New("vertex: model, project and location are required")
	case o.ServiceAccountKey == nil:
		return nil, errors.New("vertex: service_account_key is required")
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
	switch {
	case base != "":
	case o.Location == "global":
		base = "https://aiplatform.googleapis.com"
	default:
		base = "https://" + o.Location + "-aiplatform.googleapis.com"
	}
	return &Client{opts: o, http: transport.NewClient(o.Transport), base: base,
		url: fmt.Sprintf("%s/v1/projects/%s/locations/%s/publishers/google/models/%s", base,
			url.PathEscape(o.Project), url.PathEscape(o.Location), url.PathEscape(o.Model))}, nil
}

// ChatCompletion implements provider.Provider with generateContent.
func (c *Client) ChatCompletion(ctx context.Context, req *openai.ChatRequest) (*provider.Response, error) {
	ctx, cancel := c.withTimeout(ctx)
	defer cancel()
	resp, token, err := c.post(ctx, req, false)
	if err != nil {
		return nil, provider.RedactError(err, token)
	}
	defer resp.Body.Close()
	raw, err := transport.ReadBody(ctx, c.opts.Name, c.base, resp.Body, resp.ContentLength, c.opts.MaxResponseBytes)
	if err != nil {
		return nil, err
	}
	body, usage, err := fromGemini(raw, completionID(), c.opts.Model, c.opts.Now().Unix())
	var failed *outputFailure
	if errors.As(err, &failed) {
		return nil, c.outputError(failed, token)
	}
	if err != nil {
		return nil, c.protocolError("the answer is not a GenerateContentResponse", err)
	}
	return &provider.Response{Body: body, Usage: usage}, nil
}

// ChatCompletionStream implements provider.Provider with streamGenerateContent?alt=sse.
func (c *Client) ChatCompletionStream(ctx context.Context, req *openai.ChatRequest) (provider.Stream, error) {
	ctx, cancel := c.withTimeout(ctx)
	resp, token, err := c.post(ctx, req, true)
	if err != nil {
		cancel()
		return nil, provider.RedactError(err, token)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		resp.Body.Close()
		cancel()
		return nil, c.protocolError(fmt.Sprintf("streamGenerateContent was answered with content type %q, not text/event-stream", ct), nil)
	}
	s := &stream{c: c, ctx: ctx, token: token, body: resp.Body, sse: openai.NewSSEReader(resp.Body), cancel: cancel,
		ch: chunker{id: completionID(), model: c.opts.Model, created: c.opts.Now().Unix(),
			includeUsage: req.StreamOptions != nil && req.StreamOptions.IncludeUsage}}
	// Vertex can answer 200 and then send an error event first. Reading up to the first
	// chunk here returns such an error from this call, where the router can still fall
	// back, as provider.Provider promises.
	first, err := s.Next()
	if err != nil {
		_ = s.Close()
		return nil, err
	}
	s.pending = append([][]byte{first}, s.pending...)
	return s, nil
}

func (c *Client) withTimeout(ctx context.Context) (context.Context, context.CancelFunc) {
	return provider.WithTimeout(ctx, c.opts.Timeout)
}

// post sends the request and returns a 200 response and the access token it sent.
func (c *Client) post(ctx context.Context, req *openai.ChatRequest, stream bool) (*http.Response, string, error) {
	g, err := toGemini(req, stream)
	if err != nil {
		return nil, "", provider.Refused(c.opts.Name, "Vertex AI", err)
	}
	body, err := json.Marshal(g)
	if err != nil {
		return nil, "", &provider.Error{Kind: provider.KindInternal, Model: c.opts.Name, Message: "encoding the request", Err: err}
	}
	token, perr := c.token(ctx)
	if perr != nil {
		return nil, "", perr
	}
	endpoint := c.url + ":generateContent"
	if stream {
		endpoint = c.url + ":streamGenerateContent?alt=sse"
	}
	hreq, answered, err := transport.NewPost(ctx, endpoint, body)
	if err != nil {
		return nil, token, &provider.Error{Kind: provider.KindInternal, Model: c.opts.Name, Message: "building the request", Err: err}
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Authorization", "Bearer "+token)
	resp, err := c.http.Do(hreq)
	answered()
	if err != nil {
		return nil, token, c.transportError(ctx, err)
	}
	if resp.StatusCode != http.StatusOK {
		defer resp.Body.Close()
		if transport.IsRedirect(resp.StatusCode) {
			return nil, token, transport.Redirect(c.opts.Name, c.base, resp)
		}
		return nil, token, c.statusError(resp, token)
	}
	return resp, token, nil
}

// token returns a current access token, minting one when the cached one is near expiry or
// the key changed. Minting is serialized per key by oauth2's reuse source.
func (c *Client) token(ctx context.Context) (string, *provider.Error) {
	src := c.opts.ServiceAccountKeySource
	keyB64, err := c.opts.ServiceAccountKey()
	if err != nil {
		return "", &provider.Error{Kind: provider.KindAuth, Model: c.opts.Name,
			Message: fmt.Sprintf("reading service_account_key from %s: %v", src, err), Err: err}
	}
	c.mu.Lock()
	if keyB64 != c.keyB64 || c.tokens == nil {
		ts, tokenURI, err := c.tokenSource(keyB64)
		if err != nil {
			c.mu.Unlock()
			return "", &provider.Error{Kind: provider.KindAuth, Model: c.opts.Name,
				Message: fmt.Sprintf("service_account_key from %s: %v", src, err), Err: err}
		}
		c.keyB64, c.tokens, c.tokenURI = keyB64, ts, tokenURI
	}
	ts, tokenURI := c.tokens, c.tokenURI
	c.mu.Unlock()

	// oauth2's Token takes no context; run it aside so a canceled request does not wait
	// for a slow token endpoint (the token client's own timeout ends that call).
	type result struct {
		tok *oauth2.Token
		err error
	}
	done := make(chan result, 1)
	go func() {
		tok, err := ts.Token()
		done <- result{tok, err}
	}()
	var r result
	select {
	case r = <-done:
	case <-ctx.Done():
		return "", transport.ExplainContext(ctx, c.opts.Name, tokenURI, ctx.Err())
	}
	if r.err != nil {
		var re *oauth2.RetrieveError
		if errors.As(r.err, &re) {
			// The description, not the body: only it is sure to hold no token material.
			status := 0
			if re.Response != nil {
				status = re.Response.StatusCode
			}
			code, desc := re.ErrorCode, re.ErrorDescription
			if code == "" {
				var body struct {
					Error       string `json:"error"`
					Description string `json:"error_description"`
				}
				_ = json.Unmarshal(re.Body, &body)
				code, desc = body.Error, body.Description
			}
			return "", &provider.Error{Kind: provider.KindAuth, Model: c.opts.Name, Status: status, Err: r.err,
				Message: fmt.Sprintf("the token endpoint %s rejected the service account key from %s (%d %s: %s): check that the key is current and not deleted in GCP",
					tokenURI, src, status, provider.UpstreamText(code, keyB64), provider.UpstreamText(desc, keyB64))}
		}
		e := transport.ExplainContext(ctx, c.opts.Name, tokenURI, r.err)
		e.Message = "minting an access token: " + e.Message
		return "", e
	}
	return r.tok.AccessToken, nil
}

// tokenSource builds the JWT-bearer token source for a base64-encoded key.
func (c *Client) tokenSource(keyB64 string) (oauth2.TokenSource, string, error) {
	keyJSON, err := base64.StdEncoding.DecodeString(strings.TrimSpace(keyB64))
	if err != nil {
		return nil, "", errors.New("not valid base64 (encode the key file with base64 -w0)")
	}
	conf, err := google.JWTConfigFromJSON(keyJSON, Scope)
	if err != nil {
		return nil, "", fmt.Errorf("not a service-account key: %w", err)
	}
	if conf.TokenURL == "" {
		conf.TokenURL = google.JWTTokenURL
	}
	// Tokens are minted on a background context carrying the pooled transport: a token
	// outlives the request that minted it.
	hc := transport.NewClient(c.opts.Transport)
	hc.Timeout = 30 * time.Second
	ctx := context.WithValue(context.Background(), oauth2.HTTPClient, hc)
	return conf.TokenSource(ctx), conf.TokenURL, nil
}

// statusError explains a non-200 answer from Google's error envelope
// {"error":{"code","message","status"}}, with the access token it was sent redacted.
func (c *Client) statusError(resp *http.Response, token string) *provider.Error {
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	status, detail := googleError(raw, token)
	code := resp.StatusCode
	label := strconv.Itoa(code)
	if status != "" {
		label += " " + status
	}
	e := &provider.Error{Model: c.opts.Name, Status: code}
	src := c.opts.ServiceAccountKeySource
	switch {
	case code == http.StatusUnauthorized:
		e.Kind = provider.KindAuth
		e.Message = fmt.Sprintf("Vertex AI rejected the access token minted for the service account in %s (%s): check that the key is current", src, label)
	case code == http.StatusForbidden:
		e.Kind = provider.KindAuth
		e.Message = fmt.Sprintf("the service account in %s may not use model %q in project %s (%s): grant it roles/aiplatform.user and enable the Vertex AI API", src, c.opts.Model, c.opts.Project, label)
	case code == http.StatusNotFound:
		e.Kind = provider.KindNotFound
		e.Message = fmt.Sprintf("Vertex AI does not know model %q in project %s, location %s (%s): check provider.model, project and location", c.opts.Model, c.opts.Project, c.opts.Location, label)
	case code == http.StatusTooManyRequests:
		e.Kind = provider.KindRateLimited
		// Vertex sends no Retry-After on quota errors; a second starts a client's backoff.
		e.RetryAfter = provider.RetryAfter(resp.Header.Get("Retry-After"), time.Second)
		e.Message = fmt.Sprintf("Vertex AI quota exhausted (%s); retry after %s", label, e.RetryAfter)
	case code >= 500:
		e.Kind = provider.KindUpstream
		e.Message = fmt.Sprintf("Vertex AI failed (%s)", label)
	case code >= 400:
		e.Kind = provider.KindBadRequest
		e.Message = fmt.Sprintf("Vertex AI rejected the request (%s)", label)
	default:
		e.Kind, e.Protocol = provider.KindProtocol, protocol
		e.Message = fmt.Sprintf("Vertex AI answered with unexpected status %d", code)
	}
	if detail != "" {
		e.Message += ": " + detail
	}
	return e
}

// googleError returns the status and message of a Google API error body, or a short
// prefix of a body that is not one, with the secrets redacted.
func googleError(raw []byte, secrets ...string) (status, msg string) {
	var env struct {
		Error struct {
			Message string `json:"message"`
			Status  string `json:"status"`
		} `json:"error"`
	}
	if json.Unmarshal(raw, &env) == nil && (env.Error.Message != "" || env.Error.Status != "") {
		msg = env.Error.Message
	} else {
		msg = strings.TrimSpace(string(raw))
	}
	return provider.UpstreamText(env.Error.Status, secrets...), provider.UpstreamText(msg, secrets...)
}

// outputError is the error of an answer whose model output failed: the service's, so the
// router retries and falls back as for a 5xx; finishMessage goes to the log.
func (c *Client) outputError(f *outputFailure, token string) *provider.Error {
	msg := "Vertex AI: " + f.cause.Error()
	if detail := provider.UpstreamText(f.message, token); detail != "" {
		msg += ": " + detail
	}
	return &provider.Error{Kind: provider.KindUpstream, Model: c.opts.Name, Message: msg, Err: f.cause}
}

// protocol is the provider.Error Protocol of the client's errors.
const protocol = "Vertex Gemini"

func (c *Client) transportError(ctx context.Context, err error) *provider.Error {
	e := transport.ExplainContext(ctx, c.opts.Name, c.base, err)
	e.Protocol = protocol // for an answer refused on the way in (headers too large)
	return e
}

func (c *Client) protocolError(msg string, err error) *provider.Error {
	return &provider.Error{Kind: provider.KindProtocol, Model: c.opts.Name, Protocol: protocol,
		Message: fmt.Sprintf("%s: %s", c.base, msg), Err: err}
}

var _ provider.Provider = (*Client)(nil)
