package router

import (
	"context"
	"net/http"
	"time"

	"github.com/semantic-router/semantic-router/internal/openai"
)

// Classification explains what the router would do with a prompt, without calling a model.
type Classification struct {
	// Signals holds every configured signal, matched or not, with its value and time.
	Signals []SignalResult `json:"signals"`
	// Decision is the matched decision ("default" when none did).
	Decision   string  `json:"decision"`
	Confidence float64 `json:"confidence"`
	// Policies are the decisions that matched before Decision and only modify the request
	// (masking, a system prompt); their changes apply too.
	Policies []string `json:"policies,omitempty"`
	// Model is the model the request would go to; empty when a decision blocks it.
	Model string `json:"model,omitempty"`
	// Blocked is the block's status and message, when a decision refuses the request.
	Blocked *BlockInfo `json:"blocked,omitempty"`
	// LatencyMs is the time the signals and the decision took.
	LatencyMs float64 `json:"latency_ms"`
}

// BlockInfo is a refusal a decision would send.
type BlockInfo struct {
	Status  int    `json:"status"`
	Message string `json:"message"`
}

// Classify computes every configured signal for a prompt and the decision a request for the
// virtual model would get. It never calls a model and records no request metrics.
func (r *Router) Classify(ctx context.Context, prompt string, h http.Header) (*Classification, error) {
	return r.ClassifyMessages(ctx, []openai.Message{{Role: "user", Content: openai.TextContent(prompt)}}, h)
}

// ClassifyMessages is Classify for a conversation: the signals read its messages as they read
// a chat request's.
func (r *Router) ClassifyMessages(ctx context.Context, msgs []openai.Message, h http.Header) (*Classification, error) {
	start := time.Now()
	req := &openai.ChatRequest{Model: r.cfg.Routing.VirtualModel, Messages: msgs}
	// A failed signal shows in its result's error; the decision is taken as for a request.
	results, matches, sigErr := r.signals.Evaluate(ctx, r.inputOf(req, h), nil)
	c := &Classification{Signals: results, Decision: "default", Confidence: 1, Model: r.cfg.Routing.DefaultModel}
	if res, ok := r.engine.Evaluate(matches, false); ok {
		d := res.Decision
		c.Decision, c.Confidence = d.Name, res.Confidence
		for _, p := range res.Modifiers {
			c.Policies = append(c.Policies, p.Name)
		}
		switch {
		case res.Undetermined:
			e := policyUnavailable(d.Name, res.Failed, sigErr)
			c.Model, c.Blocked = "", &BlockInfo{Status: e.Status, Message: e.Message}
		case d.Block != nil:
			c.Model, c.Blocked = "", &BlockInfo{Status: d.Block.Status, Message: d.Block.Message}
		default:
			// Picked as for a request: a decision with weighted models may name another
			// of them next time.
			c.Model = r.modelFor(d).cfg.Name
		}
	}
	c.LatencyMs = float64(time.Since(start).Microseconds()) / 1000
	return c, nil
}
