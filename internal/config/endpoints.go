package config

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Load-balancing policies of a model with several endpoints.
const (
	BalanceRoundRobin    = "round_robin"
	BalanceLeastInFlight = "least_in_flight"
	BalanceWeighted      = "weighted"
)

// Endpoint defaults.
const (
	DefaultLoadBalancing       = BalanceRoundRobin
	DefaultConsecutiveFailures = 5
	DefaultEjectionTime        = 30 * time.Second
	DefaultMaxEjectionTime     = 300 * time.Second
	DefaultHealthCheckTimeout  = 2 * time.Second
	DefaultHealthCheckPath     = "/models"
)

var balancePolicies = []string{BalanceRoundRobin, BalanceLeastInFlight, BalanceWeighted}

// Endpoint is one server of an openai_compatible model that has several (replicas of the
// same model behind different addresses).
type Endpoint struct {
	// BaseURL is the API root, as Provider.BaseURL.
	BaseURL string `yaml:"base_url" json:"base_url"`
	// Weight is the endpoint's share of requests under the weighted policy. Default 1.
	Weight int `yaml:"weight,omitempty" json:"weight"`
}

// OutlierDetection ejects an endpoint after consecutive failures (connection errors,
// timeouts, 5xx, protocol errors; never 4xx, 429 or a client that went away). An ejected
// endpoint gets no requests for EjectionTime, doubled at each ejection in a row up to
// MaxEjectionTime; after it, one more failure ejects it again at once, and one success
// forgives it. It applies by default to a model with endpoints; a model with one base_url
// gets it only when the section is written.
type OutlierDetection struct {
	// ConsecutiveFailures ejects the endpoint. Default 5.
	ConsecutiveFailures int `yaml:"consecutive_failures,omitempty" json:"consecutive_failures"`
	// EjectionTime is the first ejection's length. Default 30s.
	EjectionTime Duration `yaml:"ejection_time,omitempty" json:"ejection_time"`
	// MaxEjectionTime caps the doubled ejections. Default 300s.
	MaxEjectionTime Duration `yaml:"max_ejection_time,omitempty" json:"max_ejection_time"`
}

// HealthCheck probes each endpoint actively with GET base_url+Path: a failed probe counts as
// a failure for outlier detection, and a good probe of an ejected endpoint returns it to
// service before its ejection ends. Off unless the section is written.
type HealthCheck struct {
	// Interval between probes of one endpoint; required.
	Interval Duration `yaml:"interval" json:"interval"`
	// Timeout bounds one probe. Default 2s, or interval when that is shorter.
	Timeout Duration `yaml:"timeout,omitempty" json:"timeout"`
	// Path is appended to the endpoint's base_url. Default "/models".
	Path string `yaml:"path,omitempty" json:"path"`
}

// Balancing groups a provider's endpoint settings. It is written inline in the provider block.
type Balancing struct {
	// Endpoints replace base_url for openai_compatible when there are several servers.
	Endpoints []Endpoint `yaml:"endpoints,omitempty" json:"endpoints,omitempty"`
	// LoadBalancing is round_robin (default), least_in_flight or weighted.
	LoadBalancing string `yaml:"load_balancing,omitempty" json:"load_balancing,omitempty"`
	// OutlierDetection ejects failing endpoints; see OutlierDetection.
	OutlierDetection *OutlierDetection `yaml:"outlier_detection,omitempty" json:"outlier_detection,omitempty"`
	// HealthCheck probes endpoints actively; nil (the default) does not.
	HealthCheck *HealthCheck `yaml:"health_check,omitempty" json:"health_check,omitempty"`
}

// EndpointList returns the model's endpoints: Endpoints, or base_url as the only one.
func (p *Provider) EndpointList() []Endpoint {
	if len(p.Endpoints) > 0 {
		return p.Endpoints
	}
	if p.BaseURL == "" {
		return nil
	}
	return []Endpoint{{BaseURL: p.BaseURL, Weight: 1}}
}

func (p *Provider) applyEndpointDefaults() {
	if p.Type != ProviderOpenAICompatible {
		return
	}
	for i := range p.Endpoints {
		if p.Endpoints[i].Weight == 0 {
			p.Endpoints[i].Weight = 1
		}
	}
	if len(p.Endpoints) > 0 || p.OutlierDetection != nil || p.HealthCheck != nil {
		if p.LoadBalancing == "" {
			p.LoadBalancing = DefaultLoadBalancing
		}
		if p.OutlierDetection == nil {
			p.OutlierDetection = &OutlierDetection{}
		}
	}
	if od := p.OutlierDetection; od != nil {
		if od.ConsecutiveFailures == 0 {
			od.ConsecutiveFailures = DefaultConsecutiveFailures
		}
		if od.EjectionTime == 0 {
			od.EjectionTime = Duration(DefaultEjectionTime)
		}
		if od.MaxEjectionTime == 0 {
			od.MaxEjectionTime = Duration(max(DefaultMaxEjectionTime, od.EjectionTime.D()))
		}
	}
	if hc := p.HealthCheck; hc != nil {
		if hc.Timeout == 0 && hc.Interval > 0 {
			hc.Timeout = min(Duration(DefaultHealthCheckTimeout), hc.Interval)
		}
		if hc.Path == "" {
			hc.Path = DefaultHealthCheckPath
		}
	}
}

// validateEndpoints checks the endpoint settings of provider p at path. It returns whether
// base_url is still to be checked (no endpoints were given).
func validateEndpoints(v *validator, path string, p *Provider) bool {
	set := len(p.Endpoints) > 0 || p.LoadBalancing != "" || p.OutlierDetection != nil || p.HealthCheck != nil
	if p.Type != ProviderOpenAICompatible {
		for _, f := range []struct {
			name string
			set  bool
		}{{"endpoints", len(p.Endpoints) > 0}, {"load_balancing", p.LoadBalancing != ""},
			{"outlier_detection", p.OutlierDetection != nil}, {"health_check", p.HealthCheck != nil}} {
			if f.set {
				v.add(path+"."+f.name, "is not used by provider type %s", p.Type)
			}
		}
		return true
	}
	if !set {
		return true
	}
	if len(p.Endpoints) > 0 && p.BaseURL != "" {
		v.add(path+".base_url", "set either base_url or endpoints, not both")
	}
	seen := map[string]int{}
	for i, e := range p.Endpoints {
		ep := fmt.Sprintf("%s.endpoints[%d]", path, i)
		validateBaseURL(v, ep+".base_url", e.BaseURL)
		if first, dup := seen[e.BaseURL]; dup && e.BaseURL != "" {
			v.add(ep+".base_url", "duplicate of endpoints[%d]", first)
		} else {
			seen[e.BaseURL] = i
		}
		if e.Weight < 1 || e.Weight > 1000 {
			v.add(ep+".weight", "must be between 1 and 1000, got %d", e.Weight)
		}
	}
	if p.LoadBalancing != "" && !slices.Contains(balancePolicies, p.LoadBalancing) {
		v.add(path+".load_balancing", "must be one of %s, got %q", strings.Join(balancePolicies, ", "), p.LoadBalancing)
	}
	if od := p.OutlierDetection; od != nil {
		if od.ConsecutiveFailures < 1 || od.ConsecutiveFailures > 1000 {
			v.add(path+".outlier_detection.consecutive_failures", "must be between 1 and 1000, got %d", od.ConsecutiveFailures)
		}
		if od.EjectionTime <= 0 {
			v.add(path+".outlier_detection.ejection_time", "must be positive")
		}
		if od.MaxEjectionTime < od.EjectionTime {
			v.add(path+".outlier_detection.max_ejection_time", "must be at least ejection_time (%s)", od.EjectionTime)
		}
	}
	if hc := p.HealthCheck; hc != nil {
		if hc.Interval < Duration(100*time.Millisecond) {
			v.add(path+".health_check.interval", "must be at least 100ms, got %s", hc.Interval)
		}
		if hc.Timeout <= 0 || (hc.Interval > 0 && hc.Timeout > hc.Interval) {
			v.add(path+".health_check.timeout", "must be positive and at most interval")
		}
		if !strings.HasPrefix(hc.Path, "/") {
			v.add(path+".health_check.path", "must start with /, got %q", RedactURL(hc.Path))
		}
	}
	return len(p.Endpoints) == 0
}
