package operator

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"

	"github.com/semantic-router/semantic-router/internal/config"
)

// Tracing defaults applied when spec.config.observability.tracing is present
// and leaves a field out: the router's own, from the config contract, so the
// ConfigMap shows what the router will do.
const (
	defaultTracingProvider = config.DefaultTracingProvider
	defaultTracingExporter = config.DefaultTracingExporter
	defaultTracingEndpoint = config.DefaultTracingEndpoint
	defaultTracingSampling = config.DefaultTracingSampling
)

// defaultShutdownDelay is the server.shutdown_delay rendered when spec.config sets none:
// after SIGTERM the router answers /ready with 503 but keeps serving this long, while
// kube-proxy, the Service's endpoints and any load balancer stop sending it new
// connections; only then does its drain start.
const defaultShutdownDelay = 5 * time.Second

// credentialSuffixes mark a config key as holding a credential: the key is
// lower-cased and stripped of '_' and '-', then matched by suffix, so
// api_key, apiKey, hf_token and client_secret match while max_tokens does not.
var credentialSuffixes = []string{
	"key", "keyid", // api_key, service_account_key, admission.api_keys[].key, access_key_id
	"secret", "token", "password", "passwd", "credentials",
}

// renderConfig turns spec.config and the discovered models into the
// config.yaml the router reads, and proves it: the result is parsed with the
// router's own config.Parse, so a config the router would refuse is never
// returned.
//
// It fails, without returning any bytes, when a credential is written in
// plain text instead of an env.VAR or file:/path reference, when a URL
// carries user:password@, when a discovered model's name is also defined in
// spec.config.models, or when the router refuses the result. Errors name
// field paths and never a credential's value.
func renderConfig(raw *apiextensionsv1.JSON, discovered []discoveredModel) ([]byte, error) {
	out, _, err := renderRouterConfig(raw, discovered, "")
	return out, err
}

// renderRouterConfig is renderConfig that also returns the parsed config
// and, when cacheDir is set, gives each artifact without a dir the
// directory <cacheDir>/<name>.
func renderRouterConfig(raw *apiextensionsv1.JSON, discovered []discoveredModel, cacheDir string) ([]byte, *config.Config, error) {
	cfg := map[string]any{}
	if raw != nil && len(raw.Raw) > 0 && !bytes.Equal(raw.Raw, []byte("null")) {
		dec := json.NewDecoder(bytes.NewReader(raw.Raw))
		// Numbers keep their literal text: no float rounding of large ints.
		dec.UseNumber()
		if err := dec.Decode(&cfg); err != nil {
			return nil, nil, fmt.Errorf("spec.config: %w", err)
		}
	}
	if errs := findPlaintextSecrets("spec.config", cfg); len(errs) > 0 {
		return nil, nil, errors.Join(errs...)
	}
	if err := mergeModels(cfg, discovered); err != nil {
		return nil, nil, err
	}
	applyTracingDefaults(cfg)
	setDefault(childMap(cfg, "server"), "shutdown_delay", defaultShutdownDelay.String())
	if cacheDir != "" {
		defaultArtifactDirs(cfg, cacheDir)
	}
	out, err := yaml.Marshal(cfg)
	if err != nil {
		return nil, nil, fmt.Errorf("spec.config: rendering yaml: %w", err)
	}
	parsed, err := config.Parse(out)
	if err != nil {
		return nil, nil, fmt.Errorf("the router refuses the rendered config.yaml:\n%w", err)
	}
	return out, parsed, nil
}

// mergeModels appends the discovered models to spec.config.models. A name
// defined on both sides is an error naming both sources: the operator never
// picks one silently.
func mergeModels(cfg map[string]any, discovered []discoveredModel) error {
	if len(discovered) == 0 {
		return nil
	}
	var models []any
	switch m := cfg["models"].(type) {
	case nil:
	case []any:
		models = m
	default:
		// Not a list: leave it for the router's parser to report.
		return nil
	}
	defined := map[string]int{}
	for i, m := range models {
		if mm, ok := m.(map[string]any); ok {
			if name, ok := mm["model_name"].(string); ok {
				if _, dup := defined[name]; !dup {
					defined[name] = i
				}
			}
		}
	}
	var errs []error
	for _, d := range discovered {
		if i, ok := defined[d.name]; ok {
			errs = append(errs, fmt.Errorf("model %q is defined twice: by spec.config.models[%d] and by %s", d.name, i, d.sources()))
			continue
		}
		models = append(models, d.render())
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	cfg["models"] = models
	return nil
}

// configHash is a short, stable digest of the rendered config.
func configHash(rendered []byte) string {
	sum := sha256.Sum256(rendered)
	return hex.EncodeToString(sum[:8])
}

// findPlaintextSecrets walks v and reports each credential-named key whose
// value is a literal rather than a reference, and each URL that carries
// credentials. Map keys are visited in sorted order so the error text is
// stable.
func findPlaintextSecrets(path string, v any) []error {
	var errs []error
	switch t := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			p := path + "." + k
			if isCredentialKey(k) && isPlaintext(t[k]) {
				errs = append(errs, fmt.Errorf("%s: plaintext credential; use an env.VAR or file:/path reference", p))
				continue
			}
			if s, ok := t[k].(string); ok && hasUserinfo(s) {
				errs = append(errs, fmt.Errorf("%s: the URL carries credentials (user:password@); use api_key with an env.VAR reference", p))
				continue
			}
			errs = append(errs, findPlaintextSecrets(p, t[k])...)
		}
	case []any:
		for i, e := range t {
			errs = append(errs, findPlaintextSecrets(fmt.Sprintf("%s[%d]", path, i), e)...)
		}
	}
	return errs
}

// hasUserinfo reports whether s is a URL with a user (and perhaps password)
// before its host. The router refuses such a base_url too, but it must not
// reach the ConfigMap at all.
func hasUserinfo(s string) bool {
	if !strings.Contains(s, "://") || !strings.Contains(s, "@") {
		return false
	}
	u, err := url.Parse(s)
	// An unparsable URL that looks like scheme://...@... is treated as
	// carrying credentials: its text must not be written anywhere.
	return err != nil || u.User != nil
}

func isCredentialKey(k string) bool {
	n := strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(k))
	for _, s := range credentialSuffixes {
		if strings.HasSuffix(n, s) {
			return true
		}
	}
	return false
}

// isPlaintext reports whether a credential value is a literal. Strings are
// allowed only as env.VAR or file:/path references (or empty); numbers are
// always literals; maps, lists, booleans and null are checked no further here.
func isPlaintext(v any) bool {
	switch t := v.(type) {
	case string:
		return t != "" && !strings.HasPrefix(t, "env.") && !strings.HasPrefix(t, "file:/")
	case json.Number:
		return true
	default:
		return false
	}
}

// applyTracingDefaults fills config.observability.tracing when present:
// provider, exporter type/endpoint/insecure and sampling type. A sampling
// rate is kept as a string so no float formatting changes it.
func applyTracingDefaults(cfg map[string]any) {
	obs, ok := cfg["observability"].(map[string]any)
	if !ok {
		return
	}
	tr, ok := obs["tracing"].(map[string]any)
	if !ok {
		return
	}
	setDefault(tr, "provider", defaultTracingProvider)
	exp := childMap(tr, "exporter")
	setDefault(exp, "type", defaultTracingExporter)
	setDefault(exp, "endpoint", defaultTracingEndpoint)
	setDefault(exp, "insecure", true)
	smp := childMap(tr, "sampling")
	setDefault(smp, "type", defaultTracingSampling)
	if n, ok := smp["rate"].(json.Number); ok {
		smp["rate"] = n.String()
	}
}

func setDefault(m map[string]any, key string, v any) {
	if _, ok := m[key]; !ok {
		m[key] = v
	}
}

// childMap returns m[key] as a map, creating it when absent. A non-map value
// is left alone and a detached map returned, so defaults never overwrite
// what the user wrote (config validation reports the wrong type).
func childMap(m map[string]any, key string) map[string]any {
	switch c := m[key].(type) {
	case map[string]any:
		return c
	case nil:
		c2 := map[string]any{}
		m[key] = c2
		return c2
	default:
		return map[string]any{}
	}
}
