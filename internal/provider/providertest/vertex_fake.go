package providertest

import (
	"bytes"
	"cmp"
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// VertexFake is Vertex AI's generateContent and streamGenerateContent (alt=sse) together
// with Google's OAuth token endpoint at /token. Like Google it mints access tokens only for
// a JWT assertion signed by a service-account key it knows (checking kid, RS256 signature,
// issuer, audience and scope), and serves the model API only to bearer tokens it minted
// and that have not expired. It validates requests as Gemini does: known members only,
// roles user and model, non-empty parts, function responses that answer a function call.
// Like Gemini 3 it signs each function call it answers with a thoughtSignature and
// rejects a request whose current turn sends a call back without it.
type VertexFake struct {
	Server            *httptest.Server
	Project, Location string
	// TokenTTL is the lifetime of minted tokens; default one hour, as Google's.
	TokenTTL time.Duration
	script   *Script

	mu     sync.Mutex
	keys   map[string]*rsa.PublicKey // private_key_id -> public key
	tokens map[string]time.Time      // access token -> expiry
	minted map[string]string         // access token -> private_key_id it was minted with
	mints  int
	seq    int
}

// NewVertexFake starts a fake serving project and location; it is closed with t. Keys are
// added with NewKey.
func NewVertexFake(t testing.TB, script *Script, project, location string) *VertexFake {
	f := &VertexFake{Project: project, Location: location, TokenTTL: time.Hour, script: script,
		keys: map[string]*rsa.PublicKey{}, tokens: map[string]time.Time{}, minted: map[string]string{}}
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.Server.Close)
	return f
}

// RSA key generation costs tens of milliseconds, so every fake shares these two keys and
// tells keys apart by private_key_id.
var rsaKeys = sync.OnceValues(func() ([2]*rsa.PrivateKey, error) {
	var out [2]*rsa.PrivateKey
	for i := range out {
		k, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			return out, err
		}
		out[i] = k
	}
	return out, nil
})

// NewKey registers a new service-account key and returns its JSON, whose token_uri is this
// fake's token endpoint. Encode it with base64 for the provider.
func (f *VertexFake) NewKey(t testing.TB) []byte {
	t.Helper()
	keys, err := rsaKeys()
	if err != nil {
		t.Fatal(err)
	}
	f.mu.Lock()
	f.seq++
	id := fmt.Sprintf("fake-key-%d", f.seq)
	priv := keys[f.seq%2]
	f.keys[id] = &priv.PublicKey
	f.mu.Unlock()
	return f.keyJSON(t, id, priv)
}

// ForeignKey returns a key JSON whose id the fake knows but whose private key is another:
// its assertions fail signature checks, like a deleted or forged key.
func (f *VertexFake) ForeignKey(t testing.TB) []byte {
	t.Helper()
	keys, err := rsaKeys()
	if err != nil {
		t.Fatal(err)
	}
	f.mu.Lock()
	f.seq++
	id := fmt.Sprintf("fake-key-%d", f.seq)
	f.keys[id] = &keys[0].PublicKey
	f.mu.Unlock()
	return f.keyJSON(t, id, keys[1])
}

// RevokeKey forgets a key, as deleting it in GCP does, and also ends the tokens minted
// with it. Google lets such tokens live until they expire; the fake is stricter so that a
// rotation test proves they are no longer used.
func (f *VertexFake) RevokeKey(keyJSON []byte) {
	var k struct {
		ID string `json:"private_key_id"`
	}
	_ = json.Unmarshal(keyJSON, &k)
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.keys, k.ID)
	for tok, id := range f.minted {
		if id == k.ID {
			delete(f.tokens, tok)
		}
	}
}

// KeyOf returns the private_key_id an access token was minted with, or "".
func (f *VertexFake) KeyOf(token string) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.minted[token]
}

// Mints returns how many access tokens the token endpoint issued.
func (f *VertexFake) Mints() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.mints
}

func (f *VertexFake) keyJSON(t testing.TB, id string, priv *rsa.PrivateKey) []byte {
	der, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(map[string]string{
		"type": "service_account", "project_id": f.Project, "private_key_id": id,
		"private_key":  string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})),
		"client_email": "router@" + f.Project + ".iam.gserviceaccount.com", "client_id": "1234567890",
		"token_uri": f.Server.URL + "/token",
	})
	return b
}

func googleFail(w http.ResponseWriter, code int, status, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"code": code, "message": msg, "status": status}})
	_, _ = w.Write(b)
}

func tokenFail(w http.ResponseWriter, code, desc string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	b, _ := json.Marshal(map[string]string{"error": code, "error_description": desc})
	_, _ = w.Write(b)
}

func (f *VertexFake) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/token" {
		f.serveToken(w, r)
		return
	}
	if r.URL.Path == FollowedPath {
		serveFollowed(w, f.script)
		return
	}
	prefix := fmt.Sprintf("/v1/projects/%s/locations/%s/publishers/google/models/", f.Project, f.Location)
	rest, ok := strings.CutPrefix(r.URL.Path, prefix)
	model, method, ok2 := strings.Cut(rest, ":")
	if r.Method != http.MethodPost || !ok || !ok2 || model == "" || (method != "generateContent" && method != "streamGenerateContent") {
		googleFail(w, http.StatusNotFound, "NOT_FOUND", "no such model or method: "+r.URL.Path)
		return
	}
	stream := method == "streamGenerateContent"
	if stream && r.URL.Query().Get("alt") != "sse" {
		googleFail(w, http.StatusBadRequest, "INVALID_ARGUMENT", "this fake streams only with alt=sse")
		return
	}
	token, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	f.mu.Lock()
	expiry, known := f.tokens[token]
	f.mu.Unlock()
	if !known || time.Now().After(expiry) {
		googleFail(w, http.StatusUnauthorized, "UNAUTHENTICATED", "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.")
		return
	}
	seen, err := seenFromGemini(r)
	if err != nil {
		googleFail(w, http.StatusBadRequest, "INVALID_ARGUMENT", err.Error())
		return
	}
	seen.Stream, seen.Credential, seen.Model = stream, token, model
	reply := f.script.Answer(seen)
	if serveCommon(w, r, f.script, reply) {
		return
	}
	switch {
	case reply.Misbehave == EchoCredentials:
		status := cmp.Or(reply.Status, 500)
		googleFail(w, status, googleStatus(status), echoed(r))
		return
	case reply.Hang:
		<-r.Context().Done()
		return
	case reply.Status != 0:
		googleFail(w, reply.Status, googleStatus(reply.Status), FailureMessage)
		return
	}
	// promptTokenCount includes the cached content; thoughts are apart from the candidates.
	// Gemini has no count of cache writes.
	usage := map[string]int{"promptTokenCount": reply.PromptTokens, "candidatesTokenCount": reply.CompletionTokens - reply.ReasoningTokens,
		"totalTokenCount": reply.PromptTokens + reply.CompletionTokens}
	if reply.CachedTokens > 0 {
		usage["cachedContentTokenCount"] = reply.CachedTokens
	}
	if reply.ReasoningTokens > 0 {
		usage["thoughtsTokenCount"] = reply.ReasoningTokens
	}
	if !stream {
		var parts []map[string]any
		if reply.Call != nil {
			parts = append(parts, signedCall(reply.Call))
		} else {
			parts = append(parts, map[string]any{"text": reply.Text})
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"candidates":    []any{map[string]any{"content": map[string]any{"role": "model", "parts": parts}, "finishReason": "STOP"}},
			"usageMetadata": usage, "modelVersion": model, "responseId": "fake-response-1",
		})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	rc := http.NewResponseController(w)
	send := func(v map[string]any) {
		v["modelVersion"], v["responseId"] = model, "fake-response-1"
		b, _ := json.Marshal(v)
		fmt.Fprintf(w, "data: %s\r\n\r\n", b) // Google ends events with CRLF
		_ = rc.Flush()
	}
	cand := func(parts []map[string]any, finish string) map[string]any {
		c := map[string]any{"content": map[string]any{"role": "model", "parts": parts}}
		if finish != "" {
			c["finishReason"] = finish
		}
		return map[string]any{"candidates": []any{c}}
	}
	if reply.Call != nil {
		ev := cand([]map[string]any{signedCall(reply.Call)}, "STOP")
		ev["usageMetadata"] = usage
		send(ev)
		return
	}
	words := Words(reply.Text)
	for i, word := range words {
		finish := ""
		if i == len(words)-1 {
			finish = "STOP"
		}
		ev := cand([]map[string]any{{"text": word}}, finish)
		if finish != "" {
			ev["usageMetadata"] = usage
		}
		send(ev)
		if i == 0 && reply.HoldAfterFirst {
			f.script.Hold(r.Context().Done())
		}
		if i > 0 {
			continue
		}
		switch reply.Misbehave {
		case StreamCut:
			return
		case StreamGarbage:
			fmt.Fprint(w, "data: {not json\r\n\r\n")
		case EchoInStream:
			b, _ := json.Marshal(map[string]any{"error": map[string]any{"code": 500, "message": echoed(r), "status": "INTERNAL"}})
			fmt.Fprintf(w, "data: %s\r\n\r\n", b)
			return
		}
	}
}

// signedCall is the functionCall part answering c, signed as a thinking model signs it.
func signedCall(c *Call) map[string]any {
	return map[string]any{"functionCall": map[string]any{"name": c.Name, "args": json.RawMessage(c.Arguments)},
		"thoughtSignature": thoughtSignature(c.Name)}
}

// thoughtSignature is the signature the fake gives a call of the named function: opaque
// base64, like Gemini's.
func thoughtSignature(name string) string {
	return base64.StdEncoding.EncodeToString([]byte("fake thought before calling " + name))
}

func googleStatus(code int) string {
	switch code {
	case 400:
		return "INVALID_ARGUMENT"
	case 401:
		return "UNAUTHENTICATED"
	case 403:
		return "PERMISSION_DENIED"
	case 404:
		return "NOT_FOUND"
	case 429:
		return "RESOURCE_EXHAUSTED"
	case 503:
		return "UNAVAILABLE"
	default:
		return "INTERNAL"
	}
}

// serveToken is the JWT-bearer grant of RFC 7523 as Google runs it.
func (f *VertexFake) serveToken(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil || r.PostForm.Get("grant_type") != "urn:ietf:params:oauth:grant-type:jwt-bearer" {
		tokenFail(w, "unsupported_grant_type", "Invalid grant_type.")
		return
	}
	parts := strings.Split(r.PostForm.Get("assertion"), ".")
	if len(parts) != 3 {
		tokenFail(w, "invalid_grant", "Invalid JWT: Token must be a short-lived token and in a reasonable timeframe.")
		return
	}
	var header struct {
		Alg string `json:"alg"`
		Kid string `json:"kid"`
	}
	var claims struct {
		Iss   string `json:"iss"`
		Aud   string `json:"aud"`
		Scope string `json:"scope"`
		Iat   int64  `json:"iat"`
		Exp   int64  `json:"exp"`
	}
	hb, err1 := base64.RawURLEncoding.DecodeString(parts[0])
	cb, err2 := base64.RawURLEncoding.DecodeString(parts[1])
	sig, err3 := base64.RawURLEncoding.DecodeString(parts[2])
	if err1 != nil || err2 != nil || err3 != nil || json.Unmarshal(hb, &header) != nil || json.Unmarshal(cb, &claims) != nil {
		tokenFail(w, "invalid_grant", "Invalid JWT: malformed.")
		return
	}
	f.mu.Lock()
	pub, known := f.keys[header.Kid]
	f.mu.Unlock()
	sum := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if header.Alg != "RS256" || !known || rsa.VerifyPKCS1v15(pub, crypto.SHA256, sum[:], sig) != nil {
		tokenFail(w, "invalid_grant", "Invalid JWT Signature.")
		return
	}
	now := time.Now().Unix()
	if claims.Aud != f.Server.URL+"/token" || !strings.HasSuffix(claims.Iss, ".iam.gserviceaccount.com") ||
		claims.Exp-claims.Iat > 3600 || claims.Exp < now || claims.Iat > now+300 {
		tokenFail(w, "invalid_grant", "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe.")
		return
	}
	if !strings.Contains(" "+claims.Scope+" ", " https://www.googleapis.com/auth/cloud-platform ") {
		tokenFail(w, "invalid_scope", "Invalid OAuth scope or ID token audience provided.")
		return
	}
	b := make([]byte, 18)
	_, _ = rand.Read(b)
	token := "ya29.fake-" + base64.RawURLEncoding.EncodeToString(b)
	f.mu.Lock()
	ttl := f.TokenTTL
	f.tokens[token] = time.Now().Add(ttl)
	f.minted[token] = header.Kid
	f.mints++
	f.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"access_token": token, "expires_in": int(ttl / time.Second), "token_type": "Bearer"})
}

// seenFromGemini validates a generateContent body as Vertex does and translates it.
func seenFromGemini(r *http.Request) (Seen, error) {
	var req struct {
		Contents []struct {
			Role  string `json:"role"`
			Parts []struct {
				Text             *string `json:"text"`
				ThoughtSignature string  `json:"thoughtSignature"`
				InlineData       *struct {
					MimeType string `json:"mimeType"`
					Data     string `json:"data"`
				} `json:"inlineData"`
				FileData *struct {
					MimeType string `json:"mimeType"`
					FileURI  string `json:"fileUri"`
				} `json:"fileData"`
				FunctionCall *struct {
					Name string          `json:"name"`
					Args json.RawMessage `json:"args"`
				} `json:"functionCall"`
				FunctionResponse *struct {
					Name     string          `json:"name"`
					Response json.RawMessage `json:"response"`
				} `json:"functionResponse"`
			} `json:"parts"`
		} `json:"contents"`
		SystemInstruction *struct {
			Role  string `json:"role"`
			Parts []struct {
				Text string `json:"text"`
			} `json:"parts"`
		} `json:"systemInstruction"`
		GenerationConfig *struct {
			MaxOutputTokens int      `json:"maxOutputTokens"`
			Temperature     *float64 `json:"temperature"`
			TopP            *float64 `json:"topP"`
			StopSequences   []string `json:"stopSequences"`
			CandidateCount  int      `json:"candidateCount"`
			// Request fields beyond the typed ones, recorded in Seen.Fields.
			Seed             *int64          `json:"seed"`
			PresencePenalty  *float64        `json:"presencePenalty"`
			FrequencyPenalty *float64        `json:"frequencyPenalty"`
			ResponseLogprobs *bool           `json:"responseLogprobs"`
			Logprobs         *int            `json:"logprobs"`
			TopK             *float64        `json:"topK"`
			ResponseMimeType string          `json:"responseMimeType"`
			ResponseSchema   json.RawMessage `json:"responseSchema"`
		} `json:"generationConfig"`
		Tools []struct {
			FunctionDeclarations []struct {
				Name        string          `json:"name"`
				Description string          `json:"description"`
				Parameters  json.RawMessage `json:"parameters"`
			} `json:"functionDeclarations"`
		} `json:"tools"`
		ToolConfig json.RawMessage `json:"toolConfig"`
	}
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields() // Vertex rejects unknown members ("Unknown name ...")
	if err := dec.Decode(&req); err != nil {
		return Seen{}, fmt.Errorf("invalid JSON payload received: %w", err)
	}
	var s Seen
	if si := req.SystemInstruction; si != nil {
		for _, p := range si.Parts {
			s.System = joinText(s.System, p.Text)
		}
	}
	if gc := req.GenerationConfig; gc != nil {
		s.MaxTokens, s.Temperature, s.Stop = gc.MaxOutputTokens, gc.Temperature, gc.StopSequences
		geminiFields(&s, gc.CandidateCount, gc.Seed, gc.PresencePenalty, gc.FrequencyPenalty, gc.ResponseLogprobs, gc.Logprobs, gc.TopK,
			gc.ResponseMimeType, gc.ResponseSchema)
	}
	for _, t := range req.Tools {
		for _, d := range t.FunctionDeclarations {
			s.Tools = append(s.Tools, d.Name)
		}
	}
	if len(req.Contents) == 0 {
		return Seen{}, fmt.Errorf("contents is not specified")
	}
	// Gemini 3 checks the signatures of the current turn: the contents after the last
	// user message that is not only function responses. There the first functionCall of
	// each model content must carry the signature it was answered with.
	current := 0
	for i, c := range req.Contents {
		for _, p := range c.Parts {
			if c.Role == "user" && p.FunctionResponse == nil {
				current = i
			}
		}
	}
	for i, c := range req.Contents[current:] {
		for _, p := range c.Parts {
			if p.FunctionCall == nil {
				continue
			}
			if p.ThoughtSignature != thoughtSignature(p.FunctionCall.Name) {
				return Seen{}, fmt.Errorf("function call %s in the %d. content block is missing a thought_signature", p.FunctionCall.Name, current+i+1)
			}
			break
		}
	}
	called := map[string]bool{}
	for i, c := range req.Contents {
		if c.Role != "user" && c.Role != "model" {
			return Seen{}, fmt.Errorf("contents[%d].role %q: please use a valid role: user, model", i, c.Role)
		}
		if len(c.Parts) == 0 {
			return Seen{}, fmt.Errorf("contents[%d].parts must not be empty", i)
		}
		turn := Turn{Role: c.Role}
		if c.Role == "model" {
			turn.Role = "assistant"
		}
		for j, p := range c.Parts {
			switch {
			case p.Text != nil:
				turn.Text = joinText(turn.Text, *p.Text)
			case p.InlineData != nil:
				if _, err := base64.StdEncoding.DecodeString(p.InlineData.Data); err != nil || p.InlineData.MimeType == "" {
					return Seen{}, fmt.Errorf("contents[%d].parts[%d].inlineData is not base64 data with a mimeType", i, j)
				}
				turn.Images++
			case p.FileData != nil:
				turn.Images++
			case p.FunctionCall != nil:
				if c.Role != "model" {
					return Seen{}, fmt.Errorf("contents[%d].parts[%d]: a functionCall must come from the model", i, j)
				}
				called[p.FunctionCall.Name] = true
				turn.Calls = append(turn.Calls, Call{Name: p.FunctionCall.Name, Arguments: string(p.FunctionCall.Args)})
			case p.FunctionResponse != nil:
				resp := bytes.TrimSpace(p.FunctionResponse.Response)
				if !called[p.FunctionResponse.Name] || len(resp) == 0 || resp[0] != '{' {
					return Seen{}, fmt.Errorf("contents[%d].parts[%d].functionResponse must answer an earlier functionCall with an object", i, j)
				}
				content := string(resp)
				var wrapped map[string]json.RawMessage
				if json.Unmarshal(resp, &wrapped) == nil && len(wrapped) == 1 && wrapped["content"] != nil {
					var text string
					if json.Unmarshal(wrapped["content"], &text) == nil {
						content = text
					}
				}
				turn.Results = append(turn.Results, Result{Name: p.FunctionResponse.Name, Content: content})
			default:
				return Seen{}, fmt.Errorf("contents[%d].parts[%d] has no data", i, j)
			}
		}
		s.Turns = append(s.Turns, turn)
	}
	return s, nil
}

// geminiFields records the generationConfig members that carry OpenAI request fields.
func geminiFields(s *Seen, n int, seed *int64, presence, frequency *float64, logprobs *bool, top *int, topK *float64,
	mime string, schema json.RawMessage) {
	if n != 0 {
		s.setField("n", n)
	}
	for name, v := range map[string]any{"seed": seed, "presence_penalty": presence, "frequency_penalty": frequency,
		"logprobs": logprobs, "top_logprobs": top, "top_k": topK} {
		if !reflect.ValueOf(v).IsNil() {
			s.setField(name, v)
		}
	}
	switch {
	case len(schema) > 0:
		s.setField("response_format", schema)
	case mime == "application/json":
		s.setField("response_format", "json_object")
	}
}
