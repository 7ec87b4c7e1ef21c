package config

import (
	"fmt"
	"strings"
)

// ExtprocWarnings lists the settings of c that the router cannot apply when it runs as
// Envoy's external processor (-gateway extproc), one message each, led by its field path.
// In that mode Envoy, not the router, calls the model: the router routes, decides, blocks,
// masks, admits (tokens_per_minute included, from the usage in the answer), sets the
// explanation headers and picks one of a model's endpoints, but the call itself, its
// retries, fallbacks, timeouts, TLS and any translation to another provider's API are
// Envoy's. A setting counts when it differs from its default, so a config that leaves these
// fields alone (or an operator that writes every default out) gets no warning. It expects
// ApplyDefaults to have run.
func (c *Config) ExtprocWarnings() []string {
	var out []string
	add := func(path, format string, args ...any) { out = append(out, c.Note(path, format, args...)) }

	// The listener limits still bound the management API and metrics listeners, which the
	// router serves in both modes; only the clients' connections are Envoy's.
	s := c.Server
	for _, l := range []struct {
		path       string
		value, def any
	}{
		{"server.read_header_timeout", s.ReadHeaderTimeout, Duration(DefaultReadHeaderTimeout)},
		{"server.read_timeout", s.ReadTimeout, Duration(DefaultReadTimeout)},
		{"server.write_timeout", s.WriteTimeout, Duration(DefaultWriteTimeout)},
		{"server.idle_timeout", s.IdleTimeout, Duration(DefaultIdleTimeout)},
		{"server.max_header_bytes", s.MaxHeaderBytes, DefaultMaxHeaderBytes},
	} {
		if l.value != l.def {
			add(l.path, "%v bounds only the management and metrics listeners in extproc mode; clients connect to Envoy, whose HTTP connection manager sets their limits", l.value)
		}
	}
	if !s.H2CEnabled() {
		add("server.h2c", "is not applied in extproc mode: clients connect to Envoy, and the router has no inference listener")
	}
	if ka := s.StreamKeepAlive; ka != nil && *ka > 0 && *ka != Duration(DefaultStreamKeepAlive) {
		add("server.stream_keepalive", "%s is not applied in extproc mode: Envoy relays the stream, and the router writes no keep-alive comments into it", *ka)
	}
	if b := c.Routing.RequestBudget; b != Duration(DefaultRequestBudget) {
		add("routing.request_budget", "%s is not applied in extproc mode: Envoy calls the model once, under the route's timeout", b)
	}

	for i, m := range c.Models {
		p := fmt.Sprintf("models[%d]", i)
		switch m.Provider.Type {
		case ProviderBedrock:
			add(p+".provider.type", "bedrock is not supported in extproc mode: Envoy sends the client's OpenAI request as it is, with no translation to the Bedrock API and no SigV4 signature, so model %q cannot be served", m.Name)
		case ProviderVertex:
			add(p+".provider.type", "vertex is not supported in extproc mode: Envoy sends the client's OpenAI request as it is, with no translation to the Vertex AI API and no Google access token, so model %q cannot be served", m.Name)
		case ProviderSim:
			add(p+".provider.type", "sim runs inside the router and has no server for Envoy to call in extproc mode, so model %q cannot be served", m.Name)
		}
		if m.Provider.H2C {
			add(p+".provider.h2c", "not used in extproc mode: Envoy connects to the model server, and its upstream cluster's protocol options choose HTTP/2")
		}
		if !m.Provider.CACertPEM.IsZero() {
			add(p+".provider.ca_cert_pem", "not used in extproc mode: Envoy connects to the model server, and the TLS settings (transport_socket) of its upstream cluster verify it")
		}
		if m.Timeout != Duration(DefaultModelTimeout) {
			add(p+".timeout", "%s is not applied in extproc mode: the Envoy route's timeout bounds the call", m.Timeout)
		}
		if m.ConnectTimeout != Duration(DefaultConnectTimeout) {
			add(p+".connect_timeout", "%s is not applied in extproc mode: the Envoy upstream cluster's connect_timeout applies", m.ConnectTimeout)
		}
		if m.FirstTokenTimeout != 0 {
			add(p+".first_token_timeout", "%s is not applied in extproc mode: Envoy relays the stream, under its own idle timeouts", m.FirstTokenTimeout)
		}
		if m.StreamIdleTimeout != 0 {
			add(p+".stream_idle_timeout", "%s is not applied in extproc mode: Envoy relays the stream, under its own idle timeouts", m.StreamIdleTimeout)
		}
		if m.Retry != defaultRetry() {
			add(p+".retry", "not applied in extproc mode: Envoy calls the model once unless its route has a retry_policy")
		}
		if len(m.Fallbacks) > 0 {
			add(p+".fallbacks", "not applied in extproc mode: Envoy calls only the model the router chose, never %s", strings.Join(m.Fallbacks, ", "))
		}
		if m.MaxResponseBodyBytes != 0 {
			add(p+".max_response_body_bytes", "%d is not applied in extproc mode: Envoy relays the answer without the router's bound", m.MaxResponseBodyBytes)
		}
	}
	return out
}

// defaultRetry is a model's retry section with every field at its default: one attempt.
func defaultRetry() Retry {
	return Retry{
		MaxAttempts:    DefaultRetryAttempts,
		InitialBackoff: Duration(DefaultInitialBackoff),
		MaxBackoff:     Duration(DefaultMaxBackoff),
		MaxRetryAfter:  Duration(DefaultMaxRetryAfter),
	}
}
