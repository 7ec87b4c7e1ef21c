package operator

import (
	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	vllmv1alpha1 "github.com/semantic-router/semantic-router/api/v1alpha1"
)

// routeGVK is OpenShift's Route; the operator manages Routes only where the
// API server serves this kind.
var routeGVK = schema.GroupVersionKind{Group: "route.openshift.io", Version: "v1", Kind: "Route"}

// mutateIngress lays the desired Ingress over ing: every host and path goes
// to the router Service's inference port.
func mutateIngress(ing *networkingv1.Ingress, sr *vllmv1alpha1.SemanticRouter) {
	spec := sr.Spec.Ingress
	ing.Labels = mergeLabels(ing.Labels, objectLabels(sr))
	ing.Annotations = mergeLabels(ing.Annotations, spec.Annotations)
	prefix := networkingv1.PathTypePrefix
	backend := networkingv1.IngressBackend{Service: &networkingv1.IngressServiceBackend{
		Name: sr.Name,
		Port: networkingv1.ServiceBackendPort{Name: portNameHTTP},
	}}
	rules := make([]networkingv1.IngressRule, 0, len(spec.Hosts))
	for _, h := range spec.Hosts {
		paths := h.Paths
		if len(paths) == 0 {
			paths = []string{"/"}
		}
		var hp []networkingv1.HTTPIngressPath
		for _, p := range paths {
			hp = append(hp, networkingv1.HTTPIngressPath{Path: p, PathType: &prefix, Backend: backend})
		}
		rules = append(rules, networkingv1.IngressRule{
			Host:             h.Host,
			IngressRuleValue: networkingv1.IngressRuleValue{HTTP: &networkingv1.HTTPIngressRuleValue{Paths: hp}},
		})
	}
	ing.Spec = networkingv1.IngressSpec{IngressClassName: spec.ClassName, Rules: rules, TLS: spec.TLS}
}

// mutateRoute lays the desired OpenShift Route over u, pointing at the
// Service's inference port.
func mutateRoute(u *unstructured.Unstructured, sr *vllmv1alpha1.SemanticRouter) error {
	spec := sr.Spec.Route
	u.SetLabels(mergeLabels(u.GetLabels(), objectLabels(sr)))
	u.SetAnnotations(mergeLabels(u.GetAnnotations(), spec.Annotations))
	desired := map[string]any{
		"to":   map[string]any{"kind": "Service", "name": sr.Name, "weight": int64(100)},
		"port": map[string]any{"targetPort": portNameHTTP},
	}
	if spec.Host != "" {
		desired["host"] = spec.Host
	} else if h, ok, _ := unstructured.NestedString(u.Object, "spec", "host"); ok {
		// OpenShift generated the host; keep it rather than fight over it.
		desired["host"] = h
	}
	if spec.TLSTermination != "" {
		desired["tls"] = map[string]any{"termination": spec.TLSTermination}
	}
	return unstructured.SetNestedMap(u.Object, desired, "spec")
}
