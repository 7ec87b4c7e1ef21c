package operator

import (
	"context"
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"

	vllmv1alpha1 "github.com/semantic-router/semantic-router/api/v1alpha1"
)

// inferenceServiceGVK is KServe's InferenceService, read as unstructured so
// the operator needs no KServe dependency.
var inferenceServiceGVK = schema.GroupVersionKind{Group: "serving.kserve.io", Version: "v1beta1", Kind: "InferenceService"}

// kservePredictorPort is the HTTPS port of a KServe predictor Service.
const kservePredictorPort = 8443

// Event reasons for discovery.
const (
	reasonBackendDiscoveryFailed = "BackendDiscoveryFailed"
	reasonSeveralBackendsMatched = "SeveralBackendsMatched"
	reasonBackendsResolved       = "AllBackendsResolved"
	reasonSomeBackendsFailed     = "SomeBackendsFailed"
	reasonNoBackendResolved      = "NoBackendResolved"
)

// resolvedEndpoint is one spec.vllmEndpoints entry with its address.
type resolvedEndpoint struct {
	index   int
	spec    vllmv1alpha1.VLLMEndpointSpec
	baseURL string
}

func (e resolvedEndpoint) source() string {
	return fmt.Sprintf("spec.vllmEndpoints[%d] (%s)", e.index, e.spec.Name)
}

// backendFailure is an endpoint that could not be discovered, and why.
type backendFailure struct {
	index int
	name  string
	err   error
}

func (f backendFailure) String() string {
	return fmt.Sprintf("%s: %v", f.name, f.err)
}

// discoverBackends resolves every spec.vllmEndpoints entry. A failing entry
// is logged, reported and skipped; the others are returned, in spec order.
// This is the guide's discoverVLLMBackends.
func (r *Reconciler) discoverBackends(ctx context.Context, sr *vllmv1alpha1.SemanticRouter) ([]resolvedEndpoint, []backendFailure) {
	var ok []resolvedEndpoint
	var failed []backendFailure
	for i, ep := range sr.Spec.VLLMEndpoints {
		base, err := r.discoverBackend(ctx, sr, ep)
		// The event is emitted when the endpoint's failure changes; the
		// dependency retry rediscovers a failed endpoint every 30s.
		topic := reasonBackendDiscoveryFailed + "/" + ep.Name
		if err != nil {
			log.FromContext(ctx).Error(err, "Backend discovery failed; the endpoint is skipped", "endpoint", ep.Name, "type", ep.Backend.Type)
			r.eventOnChange(sr, corev1.EventTypeWarning, topic, reasonBackendDiscoveryFailed, "Discover",
				fmt.Sprintf("endpoint %s skipped: %v", ep.Name, err))
			failed = append(failed, backendFailure{index: i, name: ep.Name, err: err})
			continue
		}
		r.memo.clear(sr.UID, topic)
		ok = append(ok, resolvedEndpoint{index: i, spec: ep, baseURL: base + basePath(ep)})
	}
	return ok, failed
}

func (r *Reconciler) discoverBackend(ctx context.Context, sr *vllmv1alpha1.SemanticRouter, ep vllmv1alpha1.VLLMEndpointSpec) (string, error) {
	b := ep.Backend
	switch {
	case b.Type == vllmv1alpha1.BackendService && b.Service != nil:
		return r.discoverServiceBackend(ctx, namespaceOr(b.Service.Namespace, sr.Namespace), b.Service)
	case b.Type == vllmv1alpha1.BackendKServe && b.KServe != nil:
		return r.discoverKServeBackend(ctx, namespaceOr(b.KServe.Namespace, sr.Namespace), b.KServe)
	case b.Type == vllmv1alpha1.BackendLlamaStack && b.LlamaStack != nil:
		return r.discoverLlamaStackBackend(ctx, sr, namespaceOr(b.LlamaStack.Namespace, sr.Namespace), ep.Name, b.LlamaStack)
	default:
		return "", fmt.Errorf("backend type %q without its %s block", b.Type, b.Type)
	}
}

// discoverServiceBackend requires the Service to exist and expose the port.
func (r *Reconciler) discoverServiceBackend(ctx context.Context, ns string, s *vllmv1alpha1.ServiceBackend) (string, error) {
	svc := &corev1.Service{}
	if err := r.Client.Get(ctx, client.ObjectKey{Namespace: ns, Name: s.Name}, svc); err != nil {
		if apierrors.IsNotFound(err) {
			return "", fmt.Errorf("service %s/%s not found", ns, s.Name)
		}
		return "", fmt.Errorf("service %s/%s: %w", ns, s.Name, err)
	}
	var ports []string
	for _, p := range svc.Spec.Ports {
		if p.Port == s.Port {
			return fmt.Sprintf("http://%s.%s.svc.cluster.local:%d", s.Name, ns, s.Port), nil
		}
		ports = append(ports, fmt.Sprint(p.Port))
	}
	return "", fmt.Errorf("service %s/%s does not expose port %d (it exposes: %s)", ns, s.Name, s.Port, strings.Join(ports, ", "))
}

// discoverKServeBackend requires a Ready InferenceService and its predictor
// Service; the predictor is reached over HTTPS on 8443.
func (r *Reconciler) discoverKServeBackend(ctx context.Context, ns string, k *vllmv1alpha1.KServeBackend) (string, error) {
	isvc := &unstructured.Unstructured{}
	isvc.SetGroupVersionKind(inferenceServiceGVK)
	err := r.Client.Get(ctx, client.ObjectKey{Namespace: ns, Name: k.InferenceServiceName}, isvc)
	if err == nil || apierrors.IsNotFound(err) {
		if werr := r.late.watch(inferenceServiceGVK); werr != nil {
			return "", werr
		}
	}
	switch {
	case meta.IsNoMatchError(err):
		return "", fmt.Errorf("the KServe API (serving.kserve.io/v1beta1 InferenceService) is not installed")
	case apierrors.IsNotFound(err):
		return "", fmt.Errorf("inferenceservice %s/%s not found", ns, k.InferenceServiceName)
	case err != nil:
		return "", fmt.Errorf("inferenceservice %s/%s: %w", ns, k.InferenceServiceName, err)
	}
	if ready, why := readyCondition(isvc); !ready {
		return "", fmt.Errorf("inferenceservice %s/%s is not Ready: %s", ns, k.InferenceServiceName, why)
	}
	predictor := k.InferenceServiceName + "-predictor"
	svc := &corev1.Service{}
	if err := r.Client.Get(ctx, client.ObjectKey{Namespace: ns, Name: predictor}, svc); err != nil {
		if apierrors.IsNotFound(err) {
			return "", fmt.Errorf("inferenceservice %s/%s is Ready but its predictor service %s does not exist", ns, k.InferenceServiceName, predictor)
		}
		return "", fmt.Errorf("service %s/%s: %w", ns, predictor, err)
	}
	// The base_url names the port, so the Service must expose it, as for a
	// Service backend.
	var ports []string
	for _, p := range svc.Spec.Ports {
		if p.Port == kservePredictorPort {
			return fmt.Sprintf("https://%s.%s.svc.cluster.local:%d", predictor, ns, kservePredictorPort), nil
		}
		ports = append(ports, fmt.Sprint(p.Port))
	}
	return "", fmt.Errorf("inferenceservice %s/%s is Ready but its predictor service %s does not expose port %d, which the router calls over HTTPS (it exposes: %s)",
		ns, k.InferenceServiceName, predictor, kservePredictorPort, strings.Join(ports, ", "))
}

// readyCondition reads status.conditions[type=Ready] of an unstructured object.
func readyCondition(u *unstructured.Unstructured) (bool, string) {
	conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	for _, c := range conds {
		m, ok := c.(map[string]any)
		if !ok || m["type"] != "Ready" {
			continue
		}
		if m["status"] == "True" {
			return true, ""
		}
		why := fmt.Sprintf("Ready=%v", m["status"])
		if reason, _ := m["reason"].(string); reason != "" {
			why += " (" + reason + ")"
		}
		if msg, _ := m["message"].(string); msg != "" {
			why += ": " + msg
		}
		return false, why
	}
	return false, "no Ready condition yet"
}

// discoverLlamaStackBackend takes the first Service (by name) matching the
// labels, on its first port; several matches are reported with an event.
func (r *Reconciler) discoverLlamaStackBackend(ctx context.Context, sr *vllmv1alpha1.SemanticRouter, ns, endpoint string, l *vllmv1alpha1.LlamaStackBackend) (string, error) {
	var list corev1.ServiceList
	if err := r.Client.List(ctx, &list, client.InNamespace(ns), client.MatchingLabels(l.DiscoveryLabels)); err != nil {
		return "", fmt.Errorf("listing services in %s: %w", ns, err)
	}
	if len(list.Items) == 0 {
		return "", fmt.Errorf("no service in %s matches labels %s", ns, labelString(l.DiscoveryLabels))
	}
	slices.SortFunc(list.Items, func(a, b corev1.Service) int { return strings.Compare(a.Name, b.Name) })
	svc := list.Items[0]
	if len(list.Items) > 1 {
		names := make([]string, len(list.Items))
		for i, s := range list.Items {
			names[i] = s.Name
		}
		note := fmt.Sprintf("endpoint %s: %d services in %s match %s (%s); using %s", endpoint, len(names), ns,
			labelString(l.DiscoveryLabels), strings.Join(names, ", "), svc.Name)
		if r.eventOnChange(sr, corev1.EventTypeNormal, reasonSeveralBackendsMatched+"/"+endpoint, reasonSeveralBackendsMatched, "Discover", note) {
			// The operator's log says it too, once a change: whoever reads the log rather
			// than the events learns which Service serves, and how to make it one.
			log.FromContext(ctx).Info("Several services match a llamastack endpoint; the first by name is used: narrow its discoveryLabels to choose",
				"endpoint", endpoint, "namespace", ns, "services", names, "using", svc.Name)
		}
	}
	if len(svc.Spec.Ports) == 0 {
		return "", fmt.Errorf("service %s/%s has no port", ns, svc.Name)
	}
	return fmt.Sprintf("http://%s.%s.svc.cluster.local:%d", svc.Name, ns, svc.Spec.Ports[0].Port), nil
}

func labelString(l map[string]string) string {
	keys := make([]string, 0, len(l))
	for k := range l {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + l[k]
	}
	return strings.Join(parts, ",")
}

func namespaceOr(ns, def string) string {
	if ns != "" {
		return ns
	}
	return def
}

func basePath(ep vllmv1alpha1.VLLMEndpointSpec) string {
	if ep.BasePath != "" {
		return ep.BasePath
	}
	return "/v1"
}
