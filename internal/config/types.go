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
	// Signals are the facts about a request that decisions test.
	Signals Signals `yaml:"signals,omitempty" json:"signals"`
	// Decisions choose the model for virtual-model requests and apply policies.
	Decisions []Decision `yaml:"decisions,omitempty" json:"decisions,omitempty"`
	// Observability configures tracing.
	Observability Observability `yaml:"observability,omitempty" json:"observability"`
	// Admission says who may send requests and how many; see admission.go.
	Admission Admission `yaml:"admission,omitempty" json:"admission"`
	// Management secures the management API; see management.go.
	Management *Management `yaml:"management,omitempty" json:"management,omitempty"`
	// Artifacts are model files the router downloads and caches; see artifacts.go.
	Artifacts []Artifact `yaml:"artifacts,omitempty" json:"artifacts,omitempty"`
	// Cache serves repeated requests from stored answers; off by default. See cache.go.
	Cache Cache `yaml:"cache,omitempty" json:"cache"`

	// lines maps field paths to YAML lines, for Validate's messages; nil when the config was
	// not read from YAML.
	lines map[string]int
}

// Server tunes the HTTP listener on 8801.
type Server struct {
	// MaxRequestBodyBytes bounds a request body; larger bodies get 413. Default 10 MiB.
	MaxRequestBodyBytes int64 `yaml:"max_request_body_bytes,omitempty" json:"max_request_body_bytes"`
	// ShutdownTimeout is how long in-flight requests and streams may take to finish after
	// SIGTERM; those still running then are ended with a 503 or an error event saying the
	// router is shutting down. Default 30s.
	ShutdownTimeout Duration `yaml:"shutdown_timeout,omitempty" json:"shutdown_timeout"`
	// ShutdownDelay is how long /ready answers 503 after SIGTERM while every listener still
	// serves, before the drain (ShutdownTimeout) starts: on Kubernetes, the time for the
	// pod's endpoints to be removed from Services and load balancers, so that no client is
	// refused a connection. Default 0, for a router run by hand; the operator renders 5s.
	ShutdownDelay Duration `yaml:"shutdown_delay,omitempty" json:"shutdown_delay"`
	// ReadHeaderTimeout bounds reading request headers. Default 10s.
	ReadHeaderTimeout Duration `yaml:"read_header_timeout,omitempty" json:"read_header_timeout"`
	// StreamKeepAlive is how often a ": keep-alive" SSE comment is sent while a stream waits
	// for its next upstream event, so that proxies do not close a silent stream. Default 15s;
	// "0s" turns it off.
	StreamKeepAlive *Duration `yaml:"stream_keepalive,omitempty" json:"stream_keepalive"`
	// H2C lets clients and proxies speak HTTP/2 without TLS (with prior knowledge) to the
	// inference listener, beside HTTP/1.1 on the same port: a proxy in front carries many
	// requests and streams over a few connections, and a held stream costs the router less
	// memory. Default true; false serves HTTP/1.1 only. Takes a restart.
	H2C *bool `yaml:"h2c,omitempty" json:"h2c"`
	// ServerLimits bound what a client may hold: see server_limits.go.
	ServerLimits `yaml:",inline"`
}

// H2CEnabled reports whether the inference listener accepts HTTP/2 without TLS (h2c).
func (s *Server) H2CEnabled() bool { return s.H2C == nil || *s.H2C }

// Routing configures the virtual model that triggers semantic routing.
type Routing struct {
	// VirtualModel is the model name clients send to let the router decide. Default "auto".
	VirtualModel string `yaml:"virtual_model,omitempty" json:"virtual_model"`
	// DefaultModel receives virtual-model requests that no decision matched. It defaults to
	// the first model in the list.
	DefaultModel string `yaml:"default_model,omitempty" json:"default_model"`
	// RequestBudget bounds one client request across every retry and fallback. No retry or
	// fallback starts when the remaining budget cannot cover its back-off. Default 600s.
	RequestBudget Duration `yaml:"request_budget,omitempty" json:"request_budget"`
	// ExposeUpstreamErrors adds the cause of an upstream failure (the base URL, the
	// credential reference to check, the upstream's own message, credential values
	// redacted) to the message clients get. For development: by default (false) clients get
	// the kind of failure, the model and the request id, and the log line with that request
	// id, like GET /api/v1/models, has the cause.
	ExposeUpstreamErrors bool `yaml:"expose_upstream_errors,omitempty" json:"expose_upstream_errors,omitempty"`
}

// Provider types.
const (
	ProviderOpenAICompatible = "openai_compatible"
	ProviderBedrock          = "bedrock"
	ProviderVertex           = "vertex"
	ProviderSim              = "sim"
)

// Model is one routable model.
type Model struct {
	// Name is the name clients and decisions use.
	Name string `yaml:"model_name" json:"model_name"`
	// Cache overrides the cache for this model's answers.
	Cache *CacheOverride `yaml:"cache,omitempty" json:"cache,omitempty"`
	// Exposed lists the model in GET /v1/models and lets clients name it directly. Hidden
	// models are reached only through routing. Default true.
	Exposed *bool `yaml:"exposed,omitempty" json:"exposed"`
	// Provider says how to reach the model.
	Provider Provider `yaml:"provider" json:"provider"`
	// Timeout bounds one upstream call, streaming included. Default 300s.
	Timeout Duration `yaml:"timeout,omitempty" json:"timeout"`
	// ConnectTimeout bounds establishing a connection. Default 5s.
	ConnectTimeout Duration `yaml:"connect_timeout,omitempty" json:"connect_timeout"`
	// FirstTokenTimeout bounds the wait for a streamed answer's first event. Zero (the
	// default) leaves it to Timeout.
	FirstTokenTimeout Duration `yaml:"first_token_timeout,omitempty" json:"first_token_timeout,omitempty"`
	// StreamIdleTimeout bounds the silence between two streamed events. Zero (the default)
	// leaves it to Timeout.
	StreamIdleTimeout Duration `yaml:"stream_idle_timeout,omitempty" json:"stream_idle_timeout,omitempty"`
	// Retry says how often a failed call to this model is repeated before falling back.
	Retry Retry `yaml:"retry,omitempty" json:"retry"`
	// ReasoningFamily says how the model's server switches thinking on and off: qwen3,
	// deepseek or openai (reasoning_effort). Empty: decisions do not touch reasoning.
	ReasoningFamily string `yaml:"reasoning_family,omitempty" json:"reasoning_family,omitempty"`
	// Fallbacks are the models tried, in order, when this one fails with a connection error,
	// a timeout, a 5xx or a 429 after its retries. They may be hidden models.
	Fallbacks []string `yaml:"fallbacks,omitempty" json:"fallbacks,omitempty"`
	// UpstreamLimits bound what is read from the backend; see limits.go.
	UpstreamLimits `yaml:",inline" json:",inline"`
}

// Retry configures retries of one model. Only failures that another try may cure are retried:
// connection errors, timeouts, 5xx and 429 (after its Retry-After).
type Retry struct {
	// MaxAttempts counts the first call too; 1 (the default) means no retry.
	MaxAttempts int `yaml:"max_attempts,omitempty" json:"max_attempts"`
	// InitialBackoff is the base delay before the first retry; each retry doubles it, with
	// full jitter. Default 100ms.
	InitialBackoff Duration `yaml:"initial_backoff,omitempty" json:"initial_backoff"`
	// MaxBackoff caps the delay. Default 2s.
	MaxBackoff Duration `yaml:"max_backoff,omitempty" json:"max_backoff"`
	// MaxRetryAfter is the longest Retry-After (of a 429 or a 503) the router waits before
	// calling the model again; a longer one sends the request to the next fallback at once,
	// or back to the client with the backend's Retry-After. Default 10s.
	MaxRetryAfter Duration `yaml:"max_retry_after,omitempty" json:"max_retry_after"`
}

// IsExposed reports whether the model is listed and directly addressable.
func (m *Model) IsExposed() bool { return m.Exposed == nil || *m.Exposed }

// Provider is the backend of a model. Fields not used by the type are rejected.
//
// Credentials are references: env.VAR is read at start-up (a changed Secret needs a restart,
// as with any environment variable); file:/path is re-read when the file changes, so a
// mounted Secret rotates without one.
type Provider struct {
	// Type is openai_compatible, bedrock, vertex or sim.
	Type string `yaml:"type" json:"type"`
	// BaseURL is the API root without a trailing slash: for openai_compatible the
	// OpenAI-compatible root such as http://vllm:8000/v1 (required); for bedrock and vertex
	// an optional override of the public endpoint (a VPC endpoint, a proxy).
	BaseURL string `yaml:"base_url,omitempty" json:"base_url,omitempty"`
	// Model is the upstream model id; it defaults to the model's name.
	Model string `yaml:"model,omitempty" json:"model,omitempty"`
	// APIKey is a reference to the bearer token (openai_compatible).
	APIKey SecretRef `yaml:"api_key,omitempty" json:"api_key,omitempty"`
	// CACertPEM is a reference to a PEM bundle added to the system roots for this model.
	CACertPEM SecretRef `yaml:"ca_cert_pem,omitempty" json:"ca_cert_pem,omitempty"`
	// H2C speaks HTTP/2 without TLS (prior knowledge) to the http:// base_url or endpoints
	// (openai_compatible): for a server or a sidecar in front of it that serves HTTP/2 on a
	// plain port, many requests and streams then share each connection. An https:// server
	// agrees on HTTP/2 by itself. Default false: HTTP/1.1, a connection per request in flight.
	H2C bool `yaml:"h2c,omitempty" json:"h2c,omitempty"`

	// Region is the AWS region, such as us-east-1 (bedrock).
	Region string `yaml:"region,omitempty" json:"region,omitempty"`
	// AccessKeyID and SecretAccessKey reference the IAM access key (bedrock).
	AccessKeyID     SecretRef `yaml:"access_key_id,omitempty" json:"access_key_id,omitempty"`
	SecretAccessKey SecretRef `yaml:"secret_access_key,omitempty" json:"secret_access_key,omitempty"`
	// SessionToken references the token of temporary credentials (bedrock, optional).
	SessionToken SecretRef `yaml:"session_token,omitempty" json:"session_token,omitempty"`

	// Project and Location place the model on Vertex AI, such as my-project and
	// us-central1 (vertex).
	Project  string `yaml:"project,omitempty" json:"project,omitempty"`
	Location string `yaml:"location,omitempty" json:"location,omitempty"`
	// ServiceAccountKey references the base64-encoded service-account key JSON (vertex).
	ServiceAccountKey SecretRef `yaml:"service_account_key,omitempty" json:"service_account_key,omitempty"`

	// Sim configures the in-process simulated backend (sim).
	Sim *Sim `yaml:"sim,omitempty" json:"sim,omitempty"`

	// Balancing holds endpoints, load_balancing, outlier_detection and health_check
	// (openai_compatible), written in this block; see endpoints.go.
	Balancing `yaml:",inline"`
}

// ProviderRef is a provider field that holds a secret reference.
type ProviderRef struct {
	Field string // the YAML name, as in api_key
	Ref   SecretRef
}

// Document reports whether the field holds a document (a CA bundle, a service account's JSON
// key) rather than a token sent in a header.
func (f ProviderRef) Document() bool {
	return f.Field == "ca_cert_pem" || f.Field == "service_account_key"
}

// Refs lists the provider's secret reference fields, set or not.
func (pr *Provider) Refs() []ProviderRef {
	return []ProviderRef{{"api_key", pr.APIKey}, {"ca_cert_pem", pr.CACertPEM}, {"access_key_id", pr.AccessKeyID},
		{"secret_access_key", pr.SecretAccessKey}, {"session_token", pr.SessionToken}, {"service_account_key", pr.ServiceAccountKey}}
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
