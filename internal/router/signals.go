package router

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/decision"
	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/secret"
	"github.com/semantic-router/semantic-router/internal/signal"
)

// SignalResult is one signal's outcome for a request, as the classification API and the
// debug header report it.
type SignalResult = signal.Result

// Ready reports whether every signal can be computed: nil, or why not (a remote embedder
// that has not answered yet). The management API's /ready reports it.
func (r *Router) Ready(ctx context.Context) error {
	return r.signals.Ready(ctx)
}

// secretOpener resolves the embedder's credential references through the router's store,
// which watches file: references and closes with the router.
type secretOpener struct{ store *secret.Store }

func (o secretOpener) Open(ref string) (signal.Secret, error) {
	src, err := o.store.Open(ref)
	if err != nil {
		return nil, err
	}
	return src, nil
}

func (o secretOpener) OpenToken(ref string) (signal.Secret, error) {
	src, err := o.store.OpenToken(ref)
	if err != nil {
		return nil, err
	}
	return src, nil
}

// maskText masks the personal data in one message's text. Data that shows only after
// normalisation (digits split by zero-width spaces, full-width digits) is masked in the
// normalised text, which is then what the model reads of that message.
func maskText(det *signal.PIIDetector, text string) string {
	masked := det.Mask(text)
	if n := signal.Normalize(masked); n != masked {
		if r := det.Detect(n); len(r.Findings) > 0 {
			return r.Mask(n)
		}
	}
	return masked
}

// policyUnavailable is the refusal of a decision that could not be evaluated because the
// signals it reads failed (cause: why), and its on_error is refuse. A model still
// downloading is named with how far it is; other causes stay out of the client's message
// (the log line and the classification API have them).
func policyUnavailable(decision string, failed []string, cause error) *openai.APIError {
	what := "signal"
	if len(failed) > 1 {
		what = "signals"
	}
	why := "the embedder did not answer"
	var pending *signal.ModelPendingError
	if errors.As(cause, &pending) {
		why = pending.Error()
	}
	return refuse(KindPolicyUnavailable, fmt.Sprintf("the request was not sent to a model: policy %q could not be checked because %s %s could not be computed (%s); try again later",
		decision, what, quoteList(failed), why), nil)
}

func quoteList(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = strconv.Quote(x)
	}
	return strings.Join(q, ", ")
}

// countSignalErrors counts each failed signal by what became of the request: refused (a
// decision that reads it refused on error), allowed (a policy read it as not matched, by
// on_error allow) or not_matched (routing read it as not matched).
func (r *Router) countSignalErrors(results []SignalResult, res *decision.Result, matched bool) {
	if r.metrics == nil {
		return
	}
	for _, s := range results {
		if s.Error == "" {
			continue
		}
		outcome := "not_matched"
		switch {
		case matched && slices.Contains(res.Failed, s.Name):
			outcome = "refused"
		case r.policyAllows(s.Name):
			outcome = "allowed"
		}
		r.metrics.SignalErrors.WithLabelValues(s.Name, outcome).Inc()
	}
}

// policyAllows reports whether a policy (applies_to: all) with on_error allow reads the
// signal. Only failures ask, so the decisions are walked each time.
func (r *Router) policyAllows(name string) bool {
	for _, d := range r.cfg.Decisions {
		if d.AppliesTo == "all" && !d.RefusesOnError() && (&config.Config{Decisions: []config.Decision{d}}).ReferencedSignals()[name] {
			return true
		}
	}
	return false
}

var _ signal.SecretOpener = secretOpener{}
