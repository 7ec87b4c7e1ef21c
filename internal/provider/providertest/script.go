// Package providertest is the conformance suite that every provider passes, and the fake
// upstreams it runs against. Each fake is a real HTTP server speaking its service's wire
// format and checking what the real service checks (a bearer API key, a SigV4 signature,
// an OAuth token it issued); it translates what it received into the neutral Seen form and
// answers as its Script says, so one table of behaviours covers every provider.
package providertest

import (
	"encoding/json"
	"slices"
	"sync"
	"time"
)

// Call is a tool call in neutral form. Arguments is a JSON object.
type Call struct {
	ID        string // empty where the wire format has no call ids (Gemini)
	Name      string
	Arguments string
}

// Result is a tool result in neutral form. A wire format carries the call's id, its name,
// or both; the fake fills in what it received.
type Result struct {
	CallID  string
	Name    string
	Content string
}

// Turn is one message the upstream received. Tool results travel in user turns, as Bedrock
// and Gemini send them; the OpenAI fake folds its "tool" messages into one.
type Turn struct {
	Role    string // "user" or "assistant"
	Text    string // text parts joined with newlines
	Images  int    // number of image parts
	Calls   []Call
	Results []Result
}

// Seen is what the upstream received, in neutral form.
type Seen struct {
	System      string
	Turns       []Turn
	Tools       []string
	MaxTokens   int
	Temperature *float64
	Stop        []string
	Stream      bool
	// Model is the upstream model id the request named.
	Model string
	// Credential is the credential the request carried (an API key, an access key id, the
	// bearer token), for rotation tests.
	Credential string
	// Fields are the request fields beyond the above, by their OpenAI names, each as
	// canonical JSON: seed, presence_penalty, frequency_penalty, logprobs, top_logprobs, n,
	// top_k, and response_format as the schema (or "json_object"). Nil when there is none.
	Fields map[string]string
}

// setField records a field the upstream received, its value made canonical JSON.
func (s *Seen) setField(name string, v any) {
	b, err := json.Marshal(v)
	if raw, ok := v.(json.RawMessage); ok {
		var x any
		if json.Unmarshal(raw, &x) == nil {
			b, err = json.Marshal(x)
		}
	}
	if err != nil {
		return
	}
	if s.Fields == nil {
		s.Fields = map[string]string{}
	}
	s.Fields[name] = string(b)
}

// Reply says how the upstream answers.
type Reply struct {
	// Text is the answer; streamed word by word.
	Text string
	// Call, if set, is answered as a tool call instead of text.
	Call *Call
	// PromptTokens and CompletionTokens are reported as usage, as OpenAI counts them.
	PromptTokens, CompletionTokens int
	// CachedTokens and CacheWriteTokens are the part of PromptTokens read from and written
	// to the prompt cache, and ReasoningTokens the part of CompletionTokens spent thinking.
	// Each fake reports them as its service does; a service without a count for one leaves
	// it in the total alone.
	CachedTokens, CacheWriteTokens, ReasoningTokens int
	// Status, if non-zero, makes the upstream fail with this HTTP status in its own error
	// shape, with the message "scripted failure".
	Status int
	// Hang makes the upstream wait until the client goes away.
	Hang bool
	// HoldAfterFirst makes a streaming upstream wait, after flushing its first text event,
	// until Script.Release (or 5s), to prove the provider passes events on as they arrive.
	HoldAfterFirst bool
	// Misbehave, if set, is one of the misbehaviours (EchoCredentials, Redirect307, ...).
	Misbehave string
	// BodyBytes is the size of a HugeBody answer.
	BodyBytes int64
}

// FailureMessage is the message a scripted failure carries; providers must surface it.
const FailureMessage = "scripted failure"

// Script is shared by a test and a fake upstream: the test sets the reply, the fake records
// what it received. It is safe for concurrent use.
type Script struct {
	mu      sync.Mutex
	reply   Reply
	seen    []Seen
	release chan struct{}

	followed    bool  // a request followed a scripted redirect
	hugeWritten int64 // bytes of a HugeBody answer written
	hungUp      bool  // the client hung up on a HugeBody answer
}

// NewScript returns a script answering "Hello from the fake." with small usage.
func NewScript() *Script {
	return &Script{reply: Reply{Text: "Hello from the fake.", PromptTokens: 7, CompletionTokens: 4},
		release: make(chan struct{})}
}

// SetReply sets the answer to the following requests.
func (s *Script) SetReply(r Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reply = r
	s.release = make(chan struct{})
}

// Answer records what a request carried and returns the reply. Fakes call it once per
// authenticated request.
func (s *Script) Answer(seen Seen) Reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seen = append(s.seen, seen)
	return s.reply
}

// Seen returns what the upstream received so far, oldest first.
func (s *Script) Seen() []Seen {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.seen)
}

// Last returns the latest request received, and false if there was none.
func (s *Script) Last() (Seen, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.seen) == 0 {
		return Seen{}, false
	}
	return s.seen[len(s.seen)-1], true
}

// Release lets a stream held by HoldAfterFirst go on.
func (s *Script) Release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-s.release:
	default:
		close(s.release)
	}
}

// Released reports whether Release was called since the last SetReply.
func (s *Script) Released() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-s.release:
		return true
	default:
		return false
	}
}

// Hold blocks until Release, done closes, or 5s pass; the bound keeps a broken provider
// from hanging the suite.
func (s *Script) Hold(done <-chan struct{}) {
	s.mu.Lock()
	ch := s.release
	s.mu.Unlock()
	select {
	case <-ch:
	case <-done:
	case <-time.After(5 * time.Second):
	}
}

// Words splits a reply into the pieces a fake streams: words with their trailing space.
func Words(text string) []string {
	var out []string
	start := 0
	for i := 0; i < len(text); i++ {
		if text[i] == ' ' {
			out = append(out, text[start:i+1])
			start = i + 1
		}
	}
	if start < len(text) {
		out = append(out, text[start:])
	}
	return out
}
