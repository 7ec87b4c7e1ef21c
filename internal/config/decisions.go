package config

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// Decision is a named routing rule: when its rule tree matches, its actions apply. Policies
// (AppliesTo "all") are tried before routing decisions ("auto"), each group by descending
// priority (then in configuration order); the first match wins, except that a policy that
// only modifies the request does not end the search (OnlyModifies).
type Decision struct {
	Name string `yaml:"name" json:"name"`
	// Cache overrides the cache for requests this decision routes, so that thresholds can
	// differ by kind of request (strict for code, looser for FAQs).
	Cache *CacheOverride `yaml:"cache,omitempty" json:"cache,omitempty"`
	// Priority orders the decisions within their group (policies, then routing): higher first.
	Priority int `yaml:"priority,omitempty" json:"priority"`
	// Rules is a tree of signal matches combined with all, any and not.
	Rules Rule `yaml:"rules" json:"rules"`
	// AppliesTo is "auto" (the default: requests for the virtual model) or "all" (every
	// request, also those naming a model: for policies such as PII and jailbreak blocks).
	// Policies are read before every routing decision, whatever the priorities.
	AppliesTo string `yaml:"applies_to,omitempty" json:"applies_to"`
	// Models are the targets, chosen at random by weight. Optional for a block or a policy
	// that applies to all requests.
	Models []ModelRef `yaml:"models,omitempty" json:"models,omitempty"`
	// Reasoning turns the chosen model's thinking mode on or off, in its family's dialect.
	Reasoning *Reasoning `yaml:"reasoning,omitempty" json:"reasoning,omitempty"`
	// Block answers at once with this status and message, without calling a model.
	Block *Block `yaml:"block,omitempty" json:"block,omitempty"`
	// MaskPII replaces personal data in the messages with [TYPE] placeholders before the
	// request is forwarded.
	MaskPII bool `yaml:"mask_pii,omitempty" json:"mask_pii,omitempty"`
	// SystemPrompt is put first in the conversation (replacing a system message there).
	SystemPrompt string `yaml:"system_prompt,omitempty" json:"system_prompt,omitempty"`
	// Headers are added to the response.
	Headers map[string]string `yaml:"headers,omitempty" json:"headers,omitempty"`
	// OnError is what happens when a signal the rules depend on could not be computed (a
	// remote embedder that does not answer): refuse (503, the default for applies_to: all,
	// so that policies fail closed) or allow (read the signal as not matched, the default
	// for routing decisions).
	OnError string `yaml:"on_error,omitempty" json:"on_error"`
}

// OnlyModifies reports whether the decision is a policy that changes a request without
// choosing where it goes: it applies to all requests, blocks nothing and names no models
// (masking, a system prompt, headers). Such a decision does not end the search: the request
// is still routed, and checked, by the decisions after it.
func (d *Decision) OnlyModifies() bool {
	return d.AppliesTo == "all" && d.Block == nil && len(d.Models) == 0
}

// OnError values.
const (
	OnErrorRefuse = "refuse"
	OnErrorAllow  = "allow"
)

// RefusesOnError reports whether the decision refuses a request whose signals it depends on
// could not be computed: on_error refuse, or unset on a decision that applies to all.
func (d *Decision) RefusesOnError() bool {
	return d.OnError == OnErrorRefuse || d.OnError == "" && d.AppliesTo == "all"
}

// Rule is one node of a decision's tree: exactly one of Signal, All, Any or Not.
type Rule struct {
	Signal string `yaml:"signal,omitempty" json:"signal,omitempty"`
	All    []Rule `yaml:"all,omitempty" json:"all,omitempty"`
	Any    []Rule `yaml:"any,omitempty" json:"any,omitempty"`
	Not    *Rule  `yaml:"not,omitempty" json:"not,omitempty"`
}

// ModelRef names a target model and its share of the traffic.
type ModelRef struct {
	Model  string `yaml:"model" json:"model"`
	Weight int    `yaml:"weight,omitempty" json:"weight"`
}

// Reasoning is a decision's thinking-mode setting.
type Reasoning struct {
	Enabled bool `yaml:"enabled" json:"enabled"`
	// Effort is low, medium or high, for families that take an effort (default medium).
	Effort string `yaml:"effort,omitempty" json:"effort,omitempty"`
}

// Block is a fast refusal.
type Block struct {
	Status  int    `yaml:"status,omitempty" json:"status"`
	Message string `yaml:"message" json:"message"`
}

// Reasoning families: how a model's server expects the thinking switch.
const (
	ReasoningQwen3    = "qwen3"    // chat_template_kwargs.enable_thinking (Qwen3 on vLLM/SGLang)
	ReasoningDeepSeek = "deepseek" // chat_template_kwargs.thinking (DeepSeek V3.1 on vLLM)
	ReasoningEffort   = "openai"   // reasoning_effort (OpenAI o-series, gpt-oss)
)

var (
	reasoningFamilies = []string{ReasoningQwen3, ReasoningDeepSeek, ReasoningEffort}
	reasoningEfforts  = []string{"low", "medium", "high"}
)

func (c *Config) applyDecisionDefaults() {
	for i := range c.Decisions {
		d := &c.Decisions[i]
		if d.AppliesTo == "" {
			d.AppliesTo = "auto"
		}
		if d.OnError == "" {
			d.OnError = OnErrorAllow
			if d.AppliesTo == "all" {
				d.OnError = OnErrorRefuse
			}
		}
		for j := range d.Models {
			if d.Models[j].Weight == 0 {
				d.Models[j].Weight = 1
			}
		}
		if d.Block != nil && d.Block.Status == 0 {
			d.Block.Status = http.StatusForbidden
		}
		if d.Reasoning != nil && d.Reasoning.Effort == "" {
			d.Reasoning.Effort = "medium"
		}
	}
}

func (c *Config) validateDecisions(v *validator) {
	signals := c.Signals.SignalNames()
	used := map[string]bool{}
	seen := map[string]int{}
	for i, d := range c.Decisions {
		p := fmt.Sprintf("decisions[%d]", i)
		switch first, dup := seen[d.Name]; {
		case !signalNameRE.MatchString(d.Name):
			v.add(p+".name", "must be lower_snake_case (a-z, 0-9, _), got %q", d.Name)
		case dup:
			v.add(p+".name", "duplicate decision name %q (first defined at decisions[%d])", d.Name, first)
		default:
			seen[d.Name] = i
		}
		validateRule(v, p+".rules", d.Rules, signals, used)
		if d.AppliesTo != "auto" && d.AppliesTo != "all" {
			v.add(p+".applies_to", "must be auto or all, got %q", d.AppliesTo)
		}
		if d.OnError != OnErrorRefuse && d.OnError != OnErrorAllow {
			v.add(p+".on_error", "must be refuse or allow, got %q", d.OnError)
		}
		if len(d.Models) == 0 && d.Block == nil && d.AppliesTo == "auto" {
			v.add(p, "needs models to route to, or a block")
		}
		if len(d.Models) > 0 && d.Block != nil {
			v.add(p+".block", "a decision that blocks does not route; remove models or block")
		}
		for j, m := range d.Models {
			mp := fmt.Sprintf("%s.models[%d]", p, j)
			if c.Model(m.Model) == nil {
				v.add(mp+".model", "%s", unknownWord("model", m.Model, c.modelNames()))
			}
			if m.Weight < 0 {
				v.add(mp+".weight", "must not be negative, got %d", m.Weight)
			}
		}
		if b := d.Block; b != nil {
			if b.Status < 400 || b.Status > 599 {
				v.add(p+".block.status", "must be an HTTP error status (400-599), got %d", b.Status)
			}
			if strings.TrimSpace(b.Message) == "" {
				v.add(p+".block.message", "is required: it is what the client reads")
			}
		}
		if r := d.Reasoning; r != nil && !slices.Contains(reasoningEfforts, r.Effort) {
			v.add(p+".reasoning.effort", "must be low, medium or high, got %q", r.Effort)
		}
		for h := range d.Headers {
			if !headerNameRE.MatchString(h) {
				v.add(p+".headers", "%q is not an HTTP header name", h)
			}
		}
	}
	for i, m := range c.Models {
		if m.ReasoningFamily != "" && !slices.Contains(reasoningFamilies, m.ReasoningFamily) {
			v.add(fmt.Sprintf("models[%d].reasoning_family", i), "%s", unknownWord("reasoning family", m.ReasoningFamily, reasoningFamilies))
		}
	}
}

func validateRule(v *validator, p string, r Rule, signals []string, used map[string]bool) {
	set := 0
	for _, b := range []bool{r.Signal != "", r.All != nil, r.Any != nil, r.Not != nil} {
		if b {
			set++
		}
	}
	if set != 1 {
		v.add(p, "must have exactly one of signal, all, any or not")
		return
	}
	switch {
	case r.Signal != "":
		if !slices.Contains(signals, r.Signal) {
			v.add(p+".signal", "%s", unknownWord("signal", r.Signal, signals))
		}
		used[r.Signal] = true
	case r.All != nil || r.Any != nil:
		key, list := "all", r.All
		if r.Any != nil {
			key, list = "any", r.Any
		}
		if len(list) == 0 {
			v.add(p+"."+key, "must not be empty")
		}
		for i, sub := range list {
			validateRule(v, fmt.Sprintf("%s.%s[%d]", p, key, i), sub, signals, used)
		}
	default:
		validateRule(v, p+".not", *r.Not, signals, used)
	}
}

// ReferencedSignals returns the names of the signals some decision's rules use.
func (c *Config) ReferencedSignals() map[string]bool {
	used := map[string]bool{}
	var walk func(Rule)
	walk = func(r Rule) {
		if r.Signal != "" {
			used[r.Signal] = true
		}
		for _, s := range r.All {
			walk(s)
		}
		for _, s := range r.Any {
			walk(s)
		}
		if r.Not != nil {
			walk(*r.Not)
		}
	}
	for _, d := range c.Decisions {
		walk(d.Rules)
	}
	return used
}
