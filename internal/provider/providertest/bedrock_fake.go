package providertest

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
)

// BedrockFake is a Bedrock Runtime endpoint serving Converse and ConverseStream. Like AWS
// it recomputes each request's SigV4 signature (with the SDK's signer) from the secret of
// the access key the request names, and rejects a mismatch, an unknown key, a wrong
// session token, a wrong region or service in the scope, and a clock more than five
// minutes off. It validates what Converse validates: alternating roles starting with the
// user, non-empty content, known image formats, tool results that answer a tool use.
type BedrockFake struct {
	Server *httptest.Server
	Region string
	script *Script

	mu    sync.RWMutex
	creds map[string]aws.Credentials
}

// NewBedrockFake starts a fake for region that accepts the given credentials; it is
// closed with t.
func NewBedrockFake(t testing.TB, script *Script, region string, creds ...aws.Credentials) *BedrockFake {
	f := &BedrockFake{Region: region, script: script}
	f.SetCredentials(creds...)
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.Server.Close)
	return f
}

// SetCredentials replaces the accepted credentials (a rotation test revokes a key so).
func (f *BedrockFake) SetCredentials(creds ...aws.Credentials) {
	m := make(map[string]aws.Credentials, len(creds))
	for _, c := range creds {
		m[c.AccessKeyID] = c
	}
	f.mu.Lock()
	f.creds = m
	f.mu.Unlock()
}

func awsFail(w http.ResponseWriter, status int, typ, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Amzn-Requestid", "fake-request-id")
	w.Header().Set("X-Amzn-Errortype", typ+":http://internal.amazon.com/coral/com.amazon.bedrock/")
	w.WriteHeader(status)
	b, _ := json.Marshal(map[string]string{"message": msg})
	_, _ = w.Write(b)
}

func (f *BedrockFake) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == FollowedPath {
		serveFollowed(w, f.script)
		return
	}
	// Route on the escaped path: an inference profile ARN holds '/' escaped as %2F.
	rest, ok := strings.CutPrefix(r.URL.EscapedPath(), "/model/")
	model, op, ok2 := strings.Cut(rest, "/")
	model, err := url.PathUnescape(model)
	if r.Method != http.MethodPost || !ok || !ok2 || err != nil || model == "" || (op != "converse" && op != "converse-stream") {
		awsFail(w, http.StatusNotFound, "UnknownOperationException", "unknown operation "+r.URL.Path)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return
	}
	key, status, typ, msg := f.verify(r, body)
	if status != 0 {
		awsFail(w, status, typ, msg)
		return
	}
	seen, err := seenFromConverse(body)
	if err != nil {
		awsFail(w, http.StatusBadRequest, "ValidationException", err.Error())
		return
	}
	seen.Stream = op == "converse-stream"
	seen.Credential, seen.Model = key, model
	reply := f.script.Answer(seen)
	if serveCommon(w, r, f.script, reply) {
		return
	}
	switch {
	case reply.Misbehave == EchoCredentials:
		status := cmp.Or(reply.Status, 500)
		awsFail(w, status, bedrockErrorType(status), echoed(r))
		return
	case reply.Hang:
		<-r.Context().Done()
		return
	case reply.Status != 0:
		awsFail(w, reply.Status, bedrockErrorType(reply.Status), FailureMessage)
		return
	}
	w.Header().Set("X-Amzn-Requestid", "fake-request-id")
	if seen.Stream {
		f.stream(w, r, reply)
		return
	}
	var content []map[string]any
	stop := "end_turn"
	if reply.Call != nil {
		content = append(content, map[string]any{"toolUse": map[string]any{"toolUseId": "tooluse_fake1",
			"name": reply.Call.Name, "input": json.RawMessage(reply.Call.Arguments)}})
		stop = "tool_use"
	} else {
		content = append(content, map[string]any{"text": reply.Text})
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"output":     map[string]any{"message": map[string]any{"role": "assistant", "content": content}},
		"stopReason": stop,
		"usage":      converseUsage(reply),
		"metrics":    map[string]int{"latencyMs": 1},
	})
}

func bedrockErrorType(status int) string {
	switch status {
	case 400:
		return "ValidationException"
	case 403:
		return "AccessDeniedException"
	case 404:
		return "ResourceNotFoundException"
	case 408:
		return "ModelTimeoutException"
	case 429:
		return "ThrottlingException"
	case 503:
		return "ServiceUnavailableException"
	default:
		return "InternalServerException"
	}
}

// verify checks the SigV4 signature as AWS does and returns the access key id, or the
// status, error type and message AWS would answer.
func (f *BedrockFake) verify(r *http.Request, body []byte) (key string, status int, typ, msg string) {
	const badSig = "The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details."
	auth, ok := strings.CutPrefix(r.Header.Get("Authorization"), "AWS4-HMAC-SHA256 ")
	if !ok {
		return "", 403, "MissingAuthenticationTokenException", "Missing Authentication Token"
	}
	fields := map[string]string{}
	for _, part := range strings.Split(auth, ", ") {
		k, v, _ := strings.Cut(part, "=")
		fields[k] = v
	}
	scope := strings.Split(fields["Credential"], "/")
	if len(scope) != 5 || scope[4] != "aws4_request" {
		return "", 403, "IncompleteSignatureException", "Authorization header requires a Credential with five parts"
	}
	f.mu.RLock()
	cred, known := f.creds[scope[0]]
	f.mu.RUnlock()
	if !known {
		return "", 403, "UnrecognizedClientException", "The security token included in the request is invalid."
	}
	if scope[2] != f.Region || scope[3] != "bedrock" {
		return "", 403, "InvalidSignatureException", fmt.Sprintf("Credential should be scoped to a valid region and service bedrock, not '%s' and '%s'.", scope[2], scope[3])
	}
	signed, err := time.Parse("20060102T150405Z", r.Header.Get("X-Amz-Date"))
	if err != nil || scope[1] != signed.Format("20060102") {
		return "", 403, "IncompleteSignatureException", "X-Amz-Date is missing or does not match the credential scope"
	}
	if d := time.Since(signed); d > 5*time.Minute || d < -5*time.Minute {
		return "", 403, "InvalidSignatureException", "Signature expired: " + r.Header.Get("X-Amz-Date") + " is now earlier or later than 5 minutes from the current time."
	}
	if cred.SessionToken != r.Header.Get("X-Amz-Security-Token") {
		return "", 403, "UnrecognizedClientException", "The security token included in the request is invalid."
	}
	// Rebuild the request from what arrived, with only the headers the client signed, and
	// sign it with the secret this fake knows. Equal Authorization headers mean the client
	// holds the secret and the request was not altered on the way.
	check, err := http.NewRequest(r.Method, "http://"+r.Host+r.URL.RequestURI(), bytes.NewReader(body))
	if err != nil {
		return "", 400, "ValidationException", err.Error()
	}
	for _, name := range strings.Split(fields["SignedHeaders"], ";") {
		if name == "host" || name == "content-length" {
			continue
		}
		if v := r.Header.Values(name); len(v) > 0 {
			check.Header[http.CanonicalHeaderKey(name)] = v
		}
	}
	sum := sha256.Sum256(body)
	err = v4.NewSigner().SignHTTP(context.Background(), cred, check, hex.EncodeToString(sum[:]), "bedrock", f.Region, signed)
	if err != nil || check.Header.Get("Authorization") != r.Header.Get("Authorization") {
		return "", 403, "InvalidSignatureException", badSig
	}
	return cred.AccessKeyID, 0, "", ""
}

func (f *BedrockFake) stream(w http.ResponseWriter, r *http.Request, reply Reply) {
	w.Header().Set("Content-Type", "application/vnd.amazon.eventstream")
	rc := http.NewResponseController(w)
	enc := eventstream.NewEncoder()
	send := func(event string, payload map[string]any) {
		payload["p"] = "abcdefgh" // AWS pads events to hide token lengths
		b, _ := json.Marshal(payload)
		var h eventstream.Headers
		h.Set(":message-type", eventstream.StringValue("event"))
		h.Set(":event-type", eventstream.StringValue(event))
		h.Set(":content-type", eventstream.StringValue("application/json"))
		_ = enc.Encode(w, eventstream.Message{Headers: h, Payload: b})
		_ = rc.Flush()
	}
	send("messageStart", map[string]any{"role": "assistant"})
	stop := "end_turn"
	if reply.Call != nil {
		stop = "tool_use"
		send("contentBlockStart", map[string]any{"contentBlockIndex": 0,
			"start": map[string]any{"toolUse": map[string]any{"toolUseId": "tooluse_fake1", "name": reply.Call.Name}}})
		half := len(reply.Call.Arguments) / 2
		for _, piece := range []string{reply.Call.Arguments[:half], reply.Call.Arguments[half:]} {
			send("contentBlockDelta", map[string]any{"contentBlockIndex": 0,
				"delta": map[string]any{"toolUse": map[string]any{"input": piece}}})
		}
	} else {
		for i, word := range Words(reply.Text) {
			send("contentBlockDelta", map[string]any{"contentBlockIndex": 0, "delta": map[string]any{"text": word}})
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
				var h eventstream.Headers
				h.Set(":message-type", eventstream.StringValue("event"))
				h.Set(":event-type", eventstream.StringValue("contentBlockDelta"))
				_ = enc.Encode(w, eventstream.Message{Headers: h, Payload: []byte("{not json")})
				_ = rc.Flush()
			case EchoInStream:
				b, _ := json.Marshal(map[string]string{"message": echoed(r)})
				var h eventstream.Headers
				h.Set(":message-type", eventstream.StringValue("exception"))
				h.Set(":exception-type", eventstream.StringValue("internalServerException"))
				_ = enc.Encode(w, eventstream.Message{Headers: h, Payload: b})
				return
			}
		}
	}
	send("contentBlockStop", map[string]any{"contentBlockIndex": 0})
	send("messageStop", map[string]any{"stopReason": stop})
	send("metadata", map[string]any{"usage": converseUsage(reply), "metrics": map[string]int{"latencyMs": 1}})
}

// converseUsage is Converse's TokenUsage of a reply: inputTokens leaves out the prompt
// cache's reads and writes, which come in their own members when the cache was used, and
// totalTokens counts them. Reasoning is only counted in outputTokens.
func converseUsage(reply Reply) map[string]int {
	u := map[string]int{"inputTokens": reply.PromptTokens - reply.CachedTokens - reply.CacheWriteTokens,
		"outputTokens": reply.CompletionTokens, "totalTokens": reply.PromptTokens + reply.CompletionTokens}
	if reply.CachedTokens > 0 || reply.CacheWriteTokens > 0 {
		u["cacheReadInputTokens"], u["cacheWriteInputTokens"] = reply.CachedTokens, reply.CacheWriteTokens
	}
	return u
}

// seenFromConverse validates a Converse request as Bedrock does and translates it.
func seenFromConverse(body []byte) (Seen, error) {
	var req struct {
		Messages []struct {
			Role    string `json:"role"`
			Content []struct {
				Text  *string `json:"text"`
				Image *struct {
					Format string `json:"format"`
					Source struct {
						Bytes string `json:"bytes"`
					} `json:"source"`
				} `json:"image"`
				ToolUse *struct {
					ToolUseID string          `json:"toolUseId"`
					Name      string          `json:"name"`
					Input     json.RawMessage `json:"input"`
				} `json:"toolUse"`
				ToolResult *struct {
					ToolUseID string `json:"toolUseId"`
					Content   []struct {
						Text *string         `json:"text"`
						JSON json.RawMessage `json:"json"`
					} `json:"content"`
				} `json:"toolResult"`
			} `json:"content"`
		} `json:"messages"`
		System []struct {
			Text string `json:"text"`
		} `json:"system"`
		InferenceConfig *struct {
			MaxTokens     int      `json:"maxTokens"`
			Temperature   *float64 `json:"temperature"`
			TopP          *float64 `json:"topP"`
			StopSequences []string `json:"stopSequences"`
		} `json:"inferenceConfig"`
		ToolConfig *struct {
			Tools []struct {
				ToolSpec struct {
					Name        string `json:"name"`
					Description string `json:"description"`
					InputSchema struct {
						JSON json.RawMessage `json:"json"`
					} `json:"inputSchema"`
				} `json:"toolSpec"`
			} `json:"tools"`
			ToolChoice json.RawMessage `json:"toolChoice"`
		} `json:"toolConfig"`
		AdditionalModelRequestFields map[string]json.RawMessage `json:"additionalModelRequestFields"`
		OutputConfig                 *struct {
			TextFormat struct {
				Type      string `json:"type"`
				Structure struct {
					JSONSchema struct {
						Schema      string `json:"schema"`
						Name        string `json:"name"`
						Description string `json:"description"`
					} `json:"jsonSchema"`
				} `json:"structure"`
			} `json:"textFormat"`
		} `json:"outputConfig"`
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields() // Converse rejects members it does not define
	if err := dec.Decode(&req); err != nil {
		return Seen{}, fmt.Errorf("malformed input request: %w", err)
	}
	var s Seen
	for _, b := range req.System {
		s.System = joinText(s.System, b.Text)
	}
	if ic := req.InferenceConfig; ic != nil {
		s.MaxTokens, s.Temperature, s.Stop = ic.MaxTokens, ic.Temperature, ic.StopSequences
	}
	if req.ToolConfig != nil {
		for _, t := range req.ToolConfig.Tools {
			if t.ToolSpec.Name == "" || len(t.ToolSpec.InputSchema.JSON) == 0 {
				return Seen{}, fmt.Errorf("toolSpec needs a name and inputSchema.json")
			}
			s.Tools = append(s.Tools, t.ToolSpec.Name)
		}
	}
	if len(req.Messages) == 0 {
		return Seen{}, fmt.Errorf("messages must not be empty")
	}
	toolUses := map[string]bool{}
	for i, m := range req.Messages {
		want := "user"
		if i%2 == 1 {
			want = "assistant"
		}
		if m.Role != want {
			return Seen{}, fmt.Errorf("a conversation must alternate between user and assistant roles, starting with user; messages[%d] has role %q", i, m.Role)
		}
		if len(m.Content) == 0 {
			return Seen{}, fmt.Errorf("messages[%d].content must not be empty", i)
		}
		turn := Turn{Role: m.Role}
		for j, c := range m.Content {
			switch {
			case c.Text != nil:
				if *c.Text == "" {
					return Seen{}, fmt.Errorf("messages[%d].content[%d].text must not be blank", i, j)
				}
				turn.Text = joinText(turn.Text, *c.Text)
			case c.Image != nil:
				if !strings.Contains(" png jpeg gif webp ", " "+c.Image.Format+" ") {
					return Seen{}, fmt.Errorf("messages[%d].content[%d].image.format %q is not supported", i, j, c.Image.Format)
				}
				if _, err := base64.StdEncoding.DecodeString(c.Image.Source.Bytes); err != nil || c.Image.Source.Bytes == "" {
					return Seen{}, fmt.Errorf("messages[%d].content[%d].image.source.bytes is not base64", i, j)
				}
				turn.Images++
			case c.ToolUse != nil:
				if m.Role != "assistant" || c.ToolUse.ToolUseID == "" || len(c.ToolUse.Input) == 0 || c.ToolUse.Input[0] != '{' {
					return Seen{}, fmt.Errorf("messages[%d].content[%d].toolUse is malformed", i, j)
				}
				toolUses[c.ToolUse.ToolUseID] = true
				turn.Calls = append(turn.Calls, Call{ID: c.ToolUse.ToolUseID, Name: c.ToolUse.Name, Arguments: string(c.ToolUse.Input)})
			case c.ToolResult != nil:
				if m.Role != "user" || !toolUses[c.ToolResult.ToolUseID] || len(c.ToolResult.Content) != 1 {
					return Seen{}, fmt.Errorf("messages[%d].content[%d].toolResult does not answer a toolUse of an earlier turn", i, j)
				}
				res := Result{CallID: c.ToolResult.ToolUseID, Content: string(c.ToolResult.Content[0].JSON)}
				if t := c.ToolResult.Content[0].Text; t != nil {
					res.Content = *t
				}
				turn.Results = append(turn.Results, res)
			default:
				return Seen{}, fmt.Errorf("messages[%d].content[%d] has no member set", i, j)
			}
		}
		s.Turns = append(s.Turns, turn)
	}
	for name, raw := range req.AdditionalModelRequestFields {
		s.setField(name, raw)
	}
	if oc := req.OutputConfig; oc != nil {
		schema := oc.TextFormat.Structure.JSONSchema.Schema
		if oc.TextFormat.Type != "json_schema" || !json.Valid([]byte(schema)) {
			return Seen{}, fmt.Errorf("outputConfig.textFormat: type must be json_schema with a JSON schema string")
		}
		s.setField("response_format", json.RawMessage(schema))
	}
	return s, nil
}
