package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// SecretRef points at a credential without containing it: "env.VAR" names an environment
// variable (case-sensitive, as Kubernetes Secret keys are) and "file:/path" names a file,
// typically a mounted Secret. Inline values are rejected by Validate, so a SecretRef can be
// shown in logs and in the config API.
type SecretRef string

const (
	envPrefix  = "env."
	filePrefix = "file:"
)

var envNameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// IsZero reports whether no reference is set.
func (r SecretRef) IsZero() bool { return r == "" }

// EnvVar returns the variable name of an env.VAR reference.
func (r SecretRef) EnvVar() (string, bool) {
	v, ok := strings.CutPrefix(string(r), envPrefix)
	return v, ok
}

// FilePath returns the path of a file: reference.
func (r SecretRef) FilePath() (string, bool) {
	v, ok := strings.CutPrefix(string(r), filePrefix)
	return v, ok
}

// check reports why r is not a well-formed reference, or nil.
func (r SecretRef) check() error {
	if name, ok := r.EnvVar(); ok {
		if !envNameRE.MatchString(name) {
			return fmt.Errorf("env reference %q: variable name must match [A-Za-z_][A-Za-z0-9_]*", string(r))
		}
		return nil
	}
	if path, ok := r.FilePath(); ok {
		if !strings.HasPrefix(path, "/") {
			return fmt.Errorf("file reference must be an absolute path, as in file:/var/run/secrets/key")
		}
		return nil
	}
	// The value itself is never echoed: it may be the secret.
	return errors.New(`must be a reference "env.VAR" or "file:/path"; inline credentials are not accepted`)
}

// String returns the reference, or a placeholder when it is not a valid reference (and so
// might be an inline secret).
func (r SecretRef) String() string {
	if r == "" || r.check() == nil {
		return string(r)
	}
	return "[REDACTED]"
}

// MarshalJSON writes the reference, redacted if it is not a valid reference.
func (r SecretRef) MarshalJSON() ([]byte, error) { return json.Marshal(r.String()) }

// MarshalYAML writes the reference, redacted if it is not a valid reference.
func (r SecretRef) MarshalYAML() (any, error) { return r.String(), nil }
