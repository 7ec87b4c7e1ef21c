package vertex

import (
	"encoding/json"

	"github.com/semantic-router/semantic-router/internal/provider"
)

// Gemini's thinking models sign their reasoning: a part of the answer may carry a
// thoughtSignature, which must come back on the same part when the conversation goes on.
// Gemini 3 rejects a functionCall of the current turn that comes back without its
// signature; on text it is optional but keeps the reasoning. OpenAI's format has no place
// for it, so the router carries it as Google's own OpenAI-compatible endpoint does:
//
//	"extra_content": {"google": {"thought_signature": "..."}}
//
// on each tool call, and on the assistant message (or the streamed delta) for a signature
// on text. A client that sends the message back as it received it sends the signature too.

// extraContentKey is the member that carries a signature.
const extraContentKey = "extra_content"

type extraContent struct {
	Google struct {
		ThoughtSignature string `json:"thought_signature,omitempty"`
	} `json:"google"`
}

// signatureContent returns the extra_content value for sig, or nil when sig is empty.
func signatureContent(sig string) json.RawMessage {
	if sig == "" {
		return nil
	}
	var ec extraContent
	ec.Google.ThoughtSignature = sig
	b, _ := json.Marshal(ec) // a struct of strings cannot fail
	return b
}

// signatureExtra returns the Extra members that carry sig, or nil when sig is empty.
func signatureExtra(sig string) map[string]json.RawMessage {
	if sig == "" {
		return nil
	}
	return map[string]json.RawMessage{extraContentKey: signatureContent(sig)}
}

// signatureOf reads the signature from the Extra members of a tool call or a message: ""
// when there is none. Other members of extra_content are not Gemini's business.
func signatureOf(extra map[string]json.RawMessage, what string) (string, error) {
	raw, ok := extra[extraContentKey]
	if !ok {
		return "", nil
	}
	var ec extraContent
	if err := json.Unmarshal(raw, &ec); err != nil {
		return "", provider.Refusef("%s: extra_content.google.thought_signature must be a string", what)
	}
	return ec.Google.ThoughtSignature, nil
}
