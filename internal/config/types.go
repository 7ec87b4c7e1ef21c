// Package config is the router's configuration contract: the types, a strict loader, the
// defaults and the validation. The router reads it and the operator renders it, so it imports
// nothing else from the project and nothing from Kubernetes.
package config

// Config is the whole router configuration.
type Config struct {
	// Server tunes the HTTP front door.
	Server Server `yaml:"server,omitempty" json:"server"`
	// Routing names the virtual model and the default target.
	Routing Routing `yaml:"routing,omitempty" json:"routing"`
	// Models are the targets the router can call; at least one is required.
	Models []Model `yaml:"models" json:"models"`
	// Observability configures tracing.
	Observability Observability `yaml:"observability,omitempty" json:"observability"`

	// lines maps field paths to YAML lines, for Validate's messages; nil when the config was
	// not read from YAML.
	lines map[string]int
}

// Server tunes the HTTP listener on 8801.
type Server struct {
	// MaxRequestBodyBytes bounds a request body; larger bodies get 413. Default 10 MiB.
	MaxRequestBodyBytes int64 `yaml:"max_request_body_bytes,omitempty" json:"max_request_body_bytes"`
	// ShutdownTimeout is how long in-flight requests and streams may take to finish after
	// SIGTERM. Default 30s.
	ShutdownTimeout Duration `yaml:"shutdown_timeout,omitempty" json:"shutdown_timeout"`
	// ReadHeaderTimeout bounds reading request headers. Default 10s.
	ReadHeaderTimeout Duration `yaml:"read_header_timeout,omitempty" json:"read_header_timeout"`
}

// Routing configures the virtual model that triggers semantic routing.
type Routing struct {
	// VirtualModel is the model name clients send to let the router decide. Default "auto".
	VirtualModel string `yaml:"virtual_model,omitempty" json:"virtual_model"`
	// DefaultModel receives virtual-model requests that no decision matched. It defaults to
	// the first model in the list.
	DefaultModel string `yaml:"default_model,omitempty" json:"default_model"`
}

// Provider types.
const (
	ProviderOpenAICompatible = "openai_compatible"
	ProviderSim              = "sim"
)

// Model is one routable model.
type Model struct {
	// Name is the name clients and decisions use.
	Name string `yaml:"model_name" json:"model_name"`
	// Exposed lists the model in GET /v1/models and lets clients name it directly. Hidden
	// models are reached only through routing. Default true.
	Exposed *bool `yaml:"exposed,omitempty" json:"exposed"`
	// Provider says how to reach the model.
	Provider Provider `yaml:"provider" json:"provider"`
	// Timeout bounds one upstream call, streaming included. Default 300s.
	Timeout Duration `yaml:"timeout,omitempty" json:"timeout"`
	// ConnectTimeout bounds establishing a connection. Default 5s.
	ConnectTimeout Duration `yaml:"connect_timeout,omitempty" json:"connect_timeout"`
}

// IsExposed reports whether the model is listed and directly addressable.
func (m *Model) IsExposed() bool { return m.Exposed == nil || *m.Exposed }

// Provider is the backend of a model. Fields not used by the type are rejected.
type Provider struct {
	// Type is openai_compatible or sim.
	Type string `yaml:"type" json:"type"`
	// BaseURL is the OpenAI-compatible API root, e.g. http://vllm:8000/v1, without a
	// trailing slash (openai_compatible).
	BaseURL string `yaml:"base_url,omitempty" json:"base_url,omitempty"`
	// Model is the upstream model id; it defaults to the model's name.
	Model string `yaml:"model,omitempty" json:"model,omitempty"`
	// APIKey is a reference (env.VAR or file:/path) to the bearer token (openai_compatible).
	APIKey SecretRef `yaml:"api_key,omitempty" json:"api_key,omitempty"`
	// CACertPEM is a reference to a PEM bundle added to the system roots for this model.
	CACertPEM SecretRef `yaml:"ca_cert_pem,omitempty" json:"ca_cert_pem,omitempty"`
	// Sim configures the in-process simulated backend (sim).
	Sim *Sim `yaml:"sim,omitempty" json:"sim,omitempty"`
}

// Sim configures the in-process simulated backend used by the demo config and tests.
type Sim struct {
	// FirstTokenLatency is the delay before the first token. Default 20ms.
	FirstTokenLatency *Duration `yaml:"first_token_latency,omitempty" json:"first_token_latency"`
	// TokenLatency is the delay between streamed tokens. Default 5ms.
	TokenLatency *Duration `yaml:"token_latency,omitempty" json:"token_latency"`
	// Reply is the answer text; "{prompt}" is replaced by the last user message. Default
	// "This is <model> answering: {prompt}".
	Reply string `yaml:"reply,omitempty" json:"reply"`
}

// Observability configures telemetry.
type Observability struct {
	Tracing Tracing `yaml:"tracing,omitempty" json:"tracing"`
}

// Tracing configures OpenTelemetry tracing. Defaults: provider opentelemetry, exporter otlp at
// jaeger:4317, insecure, sampling always_on.
type Tracing struct {
	Enabled  bool            `yaml:"enabled,omitempty" json:"enabled"`
	Provider string          `yaml:"provider,omitempty" json:"provider"`
	Exporter TracingExporter `yaml:"exporter,omitempty" json:"exporter"`
	Sampling TracingSampling `yaml:"sampling,omitempty" json:"sampling"`
}

// TracingExporter says where spans go.
type TracingExporter struct {
	Type     string `yaml:"type,omitempty" json:"type"`
	Endpoint string `yaml:"endpoint,omitempty" json:"endpoint"`
	Insecure *bool  `yaml:"insecure,omitempty" json:"insecure"`
}

// TracingSampling says which traces are kept. Rate is a string so that it round-trips through
// the operator's resource without float drift.
type TracingSampling struct {
	Type string `yaml:"type,omitempty" json:"type"`
	Rate string `yaml:"rate,omitempty" json:"rate,omitempty"`
}
