package config

import "time"

// Defaults, in one place. The operator and the docs quote these.
const (
	DefaultVirtualModel        = "auto"
	DefaultMaxRequestBodyBytes = 10 << 20
	DefaultShutdownTimeout     = 30 * time.Second
	DefaultReadHeaderTimeout   = 10 * time.Second
	DefaultModelTimeout        = 300 * time.Second
	DefaultConnectTimeout      = 5 * time.Second
	DefaultRequestBudget       = 600 * time.Second
	DefaultRetryAttempts       = 1
	DefaultInitialBackoff      = 100 * time.Millisecond
	DefaultMaxBackoff          = 2 * time.Second
	DefaultMaxRetryAfter       = 10 * time.Second
	DefaultSimFirstToken       = 20 * time.Millisecond
	DefaultSimTokenLatency     = 5 * time.Millisecond
	DefaultSimReply            = "This is {model} answering: {prompt}"

	DefaultTracingProvider = "opentelemetry"
	DefaultTracingExporter = "otlp"
	DefaultTracingEndpoint = "jaeger:4317"
	DefaultTracingSampling = "always_on"
)

// ApplyDefaults fills every unset field with its default. It is idempotent.
func (c *Config) ApplyDefaults() {
	c.Cache.applyDefaults()
	s := &c.Server
	if s.MaxRequestBodyBytes == 0 {
		s.MaxRequestBodyBytes = DefaultMaxRequestBodyBytes
	}
	if s.ShutdownTimeout == 0 {
		s.ShutdownTimeout = Duration(DefaultShutdownTimeout)
	}
	if s.ReadHeaderTimeout == 0 {
		s.ReadHeaderTimeout = Duration(DefaultReadHeaderTimeout)
	}
	if c.Routing.VirtualModel == "" {
		c.Routing.VirtualModel = DefaultVirtualModel
	}
	if c.Routing.RequestBudget == 0 {
		c.Routing.RequestBudget = Duration(DefaultRequestBudget)
	}
	if c.Routing.DefaultModel == "" && len(c.Models) > 0 {
		c.Routing.DefaultModel = c.Models[0].Name
	}
	for i := range c.Models {
		m := &c.Models[i]
		if m.Exposed == nil {
			m.Exposed = ptr(true)
		}
		if m.Timeout == 0 {
			m.Timeout = Duration(DefaultModelTimeout)
		}
		if m.ConnectTimeout == 0 {
			m.ConnectTimeout = Duration(DefaultConnectTimeout)
		}
		if m.Retry.MaxAttempts == 0 {
			m.Retry.MaxAttempts = DefaultRetryAttempts
		}
		if m.Retry.InitialBackoff == 0 {
			m.Retry.InitialBackoff = Duration(DefaultInitialBackoff)
		}
		if m.Retry.MaxBackoff == 0 {
			m.Retry.MaxBackoff = Duration(DefaultMaxBackoff)
		}
		if m.Retry.MaxRetryAfter == 0 {
			m.Retry.MaxRetryAfter = Duration(DefaultMaxRetryAfter)
		}
		if m.Provider.Model == "" {
			m.Provider.Model = m.Name
		}
		m.Provider.applyEndpointDefaults()
		if m.Provider.Type == ProviderSim {
			if m.Provider.Sim == nil {
				m.Provider.Sim = &Sim{}
			}
			sim := m.Provider.Sim
			if sim.FirstTokenLatency == nil {
				sim.FirstTokenLatency = ptr(Duration(DefaultSimFirstToken))
			}
			if sim.TokenLatency == nil {
				sim.TokenLatency = ptr(Duration(DefaultSimTokenLatency))
			}
			if sim.Reply == "" {
				sim.Reply = DefaultSimReply
			}
		}
	}
	c.Signals.applyDefaults()
	c.applyDecisionDefaults()
	c.applyReliabilityDefaults()
	c.applyArtifactDefaults()
	t := &c.Observability.Tracing
	if t.Provider == "" {
		t.Provider = DefaultTracingProvider
	}
	if t.Exporter.Type == "" {
		t.Exporter.Type = DefaultTracingExporter
	}
	if t.Exporter.Endpoint == "" {
		t.Exporter.Endpoint = DefaultTracingEndpoint
	}
	if t.Exporter.Insecure == nil {
		t.Exporter.Insecure = ptr(true)
	}
	if t.Sampling.Type == "" {
		t.Sampling.Type = DefaultTracingSampling
	}
}

func ptr[T any](v T) *T { return &v }
