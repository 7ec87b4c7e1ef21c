// Package envoy holds no code: it is the home of the Envoy configuration that puts Semantic
// Router behind Envoy as an external processor (envoy.yaml, a complete bootstrap) and the
// Envoy Gateway examples (envoy-gateway/). Its tests load each file into the types of the
// APIs that read it, so a misspelled field or a broken constraint fails the build's tests
// rather than an operator's rollout.
package envoy
