package operator

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	corev1 "k8s.io/api/core/v1"

	vllmv1alpha1 "github.com/semantic-router/semantic-router/api/v1alpha1"
)

// discoveredModel is one router model made of the resolved endpoints that
// name it, in spec order.
type discoveredModel struct {
	name      string
	endpoints []resolvedEndpoint
	apiKeyEnv string // the env var holding the API key; "" for none
	caEnv     string // the env var holding the CA bundle; "" for none
}

// sources names the spec entries that define the model.
func (d discoveredModel) sources() string {
	s := make([]string, len(d.endpoints))
	for i, e := range d.endpoints {
		s[i] = e.source()
	}
	return strings.Join(s, ", ")
}

// render is the model's entry in config.yaml: one base_url, or endpoints
// with their weights (balanced by weight when they differ).
func (d discoveredModel) render() map[string]any {
	provider := map[string]any{"type": "openai_compatible", "model": d.name}
	if len(d.endpoints) == 1 {
		provider["base_url"] = d.endpoints[0].baseURL
	} else {
		eps := make([]any, len(d.endpoints))
		uneven := false
		for i, e := range d.endpoints {
			eps[i] = map[string]any{"base_url": e.baseURL, "weight": int64(endpointWeight(e.spec))}
			uneven = uneven || endpointWeight(e.spec) != endpointWeight(d.endpoints[0].spec)
		}
		provider["endpoints"] = eps
		if uneven {
			provider["load_balancing"] = "weighted"
		}
	}
	if d.apiKeyEnv != "" {
		provider["api_key"] = "env." + d.apiKeyEnv
	}
	if d.caEnv != "" {
		provider["ca_cert_pem"] = "env." + d.caEnv
	}
	return map[string]any{"model_name": d.name, "provider": provider}
}

func endpointWeight(ep vllmv1alpha1.VLLMEndpointSpec) int32 {
	if ep.Weight > 0 {
		return ep.Weight
	}
	return 1
}

// groupModels merges resolved endpoints by model name and returns the models
// with the environment variables that carry their credentials: the pod gets
// a secretKeyRef (or configMapKeyRef for a CA bundle) and the config an
// env.VAR reference, so no value passes through the operator. Endpoints of
// one model must share their API key and CA bundle references: the router
// has one of each per model.
func groupModels(eps []resolvedEndpoint) ([]discoveredModel, []corev1.EnvVar, error) {
	var models []discoveredModel
	byName := map[string]int{}
	var env []corev1.EnvVar
	var errs []error
	for _, e := range eps {
		i, seen := byName[e.spec.Model]
		if !seen {
			d := discoveredModel{name: e.spec.Model, endpoints: []resolvedEndpoint{e}}
			if ref := e.spec.APIKeySecretRef; ref != nil {
				d.apiKeyEnv = endpointEnvName(e.spec.Name, "API_KEY")
				env = append(env, corev1.EnvVar{Name: d.apiKeyEnv, ValueFrom: &corev1.EnvVarSource{SecretKeyRef: ref.DeepCopy()}})
			}
			if ca := e.spec.CABundle; ca != nil {
				d.caEnv = endpointEnvName(e.spec.Name, "CA_PEM")
				src := &corev1.EnvVarSource{}
				if ca.SecretKeyRef != nil {
					src.SecretKeyRef = ca.SecretKeyRef.DeepCopy()
				} else {
					src.ConfigMapKeyRef = ca.ConfigMapKeyRef.DeepCopy()
				}
				env = append(env, corev1.EnvVar{Name: d.caEnv, ValueFrom: src})
			}
			byName[e.spec.Model] = len(models)
			models = append(models, d)
			continue
		}
		first := models[i].endpoints[0]
		if !reflect.DeepEqual(first.spec.APIKeySecretRef, e.spec.APIKeySecretRef) {
			errs = append(errs, fmt.Errorf("%s: apiKeySecretRef differs from %s, which serves the same model %q; the router uses one key per model",
				e.source(), first.source(), e.spec.Model))
		}
		if !reflect.DeepEqual(first.spec.CABundle, e.spec.CABundle) {
			errs = append(errs, fmt.Errorf("%s: caBundle differs from %s, which serves the same model %q; the router uses one CA bundle per model",
				e.source(), first.source(), e.spec.Model))
		}
		models[i].endpoints = append(models[i].endpoints, e)
	}
	if len(errs) > 0 {
		return nil, nil, errors.Join(errs...)
	}
	return models, env, nil
}

// endpointEnvName is the variable that carries an endpoint's credential:
// VLLM_<NAME>_<SUFFIX>, with the name upper-cased and '-' as '_'.
func endpointEnvName(endpoint, suffix string) string {
	return "VLLM_" + strings.ToUpper(strings.ReplaceAll(endpoint, "-", "_")) + "_" + suffix
}
