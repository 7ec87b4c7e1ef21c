package operator

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	vllmv1alpha1 "github.com/semantic-router/semantic-router/api/v1alpha1"
)

var (
	// httpRouteGVK is the Gateway API HTTPRoute that spec.gateway.httpRoute creates.
	httpRouteGVK = schema.GroupVersionKind{Group: "gateway.networking.k8s.io", Version: "v1", Kind: "HTTPRoute"}
	// serviceMonitorGVK is the Prometheus Operator's ServiceMonitor.
	serviceMonitorGVK = schema.GroupVersionKind{Group: "monitoring.coreos.com", Version: "v1", Kind: "ServiceMonitor"}
)

// Condition reasons for the ServiceMonitor and the HTTPRoute.
const (
	reasonServiceMonitorCreated  = "Created"
	reasonMonitoringAPIMissing   = "MonitoringAPINotInstalled"
	reasonMetricsPortDisabled    = "MetricsPortDisabled"
	reasonHTTPRouteAPIMissing    = "GatewayAPINotInstalled"
	reasonHTTPRouteCreated       = "Created"
	reasonHTTPRouteNotStandalone = "NotStandalone"
)

// reconcileHTTPRoute manages the opt-in HTTPRoute to the inference port. It
// exists only in standalone mode (in extproc mode nothing listens on 8801)
// and only where the Gateway API is served; the RouteReady condition says
// which. waiting is true while a route is asked for but the API is missing,
// so the reconcile runs again and creates it once the CRDs appear: no watch
// reports an API being installed. An API removed while the operator runs is
// still in the REST mapper's cache, so the API server's 404 for the
// resource is read as "not installed" too.
func (r *Reconciler) reconcileHTTPRoute(ctx context.Context, sr *vllmv1alpha1.SemanticRouter, mode vllmv1alpha1.GatewayMode) (waiting bool, err error) {
	spec := sr.Spec.Gateway.HTTPRoute
	cond := metav1.Condition{Type: vllmv1alpha1.ConditionRouteReady, Status: metav1.ConditionFalse, ObservedGeneration: sr.Generation}
	notInstalled := func() (bool, error) {
		cond.Reason = reasonHTTPRouteAPIMissing
		cond.Message = "spec.gateway.httpRoute is enabled but the Gateway API (gateway.networking.k8s.io/v1 HTTPRoute) is not installed; " +
			"no route was created. It is created once the API is installed"
		meta.SetStatusCondition(&sr.Status.Conditions, cond)
		r.warnOnChange(sr, cond.Type, cond.Reason, cond.Message)
		return true, nil
	}
	served, err := r.served(httpRouteGVK)
	if err != nil {
		return false, fmt.Errorf("httproute: %w", err)
	}
	if !served {
		if !spec.Enabled {
			meta.RemoveStatusCondition(&sr.Status.Conditions, cond.Type)
			return false, nil
		}
		return notInstalled()
	}
	route := &unstructured.Unstructured{}
	route.SetGroupVersionKind(httpRouteGVK)
	route.SetNamespace(sr.Namespace)
	route.SetName(sr.Name)
	if !spec.Enabled || mode != vllmv1alpha1.GatewayModeStandalone {
		if err := r.deleteOwned(ctx, sr, route, "httproute"); err != nil && !apierrors.IsNotFound(err) && !meta.IsNoMatchError(err) {
			return false, err
		}
		if !spec.Enabled {
			meta.RemoveStatusCondition(&sr.Status.Conditions, cond.Type)
			return false, nil
		}
		cond.Reason = reasonHTTPRouteNotStandalone
		cond.Message = "spec.gateway.existingRef runs the router as an external processor: nothing listens on the inference port, so no HTTPRoute is made"
		meta.SetStatusCondition(&sr.Status.Conditions, cond)
		return false, nil
	}
	if err := r.ensure(ctx, sr, route, "httproute", func() error { return mutateHTTPRoute(route, sr) }); err != nil {
		if apierrors.IsNotFound(err) || meta.IsNoMatchError(err) {
			return notInstalled()
		}
		return false, err
	}
	r.memo.clear(sr.UID, cond.Type)
	cond.Status, cond.Reason = metav1.ConditionTrue, reasonHTTPRouteCreated
	cond.Message = fmt.Sprintf("httproute %s sends every path to port %d of service %s", route.GetName(),
		servicePort(sr.Spec.Service.HTTP, vllmv1alpha1.DefaultHTTPPort), sr.Name)
	meta.SetStatusCondition(&sr.Status.Conditions, cond)
	return false, nil
}

// mutateHTTPRoute lays the desired HTTPRoute over u: every path of the given
// hostnames goes to the router Service's inference port. Defaults the
// Gateway API would fill in are written out.
func mutateHTTPRoute(u *unstructured.Unstructured, sr *vllmv1alpha1.SemanticRouter) error {
	spec := sr.Spec.Gateway.HTTPRoute
	u.SetLabels(mergeLabels(u.GetLabels(), objectLabels(sr)))
	parents := make([]any, 0, len(spec.ParentRefs))
	for _, p := range spec.ParentRefs {
		ref := map[string]any{"group": "gateway.networking.k8s.io", "kind": "Gateway", "name": p.Name}
		if p.Namespace != "" {
			ref["namespace"] = p.Namespace
		}
		if p.SectionName != "" {
			ref["sectionName"] = p.SectionName
		}
		parents = append(parents, ref)
	}
	desired := map[string]any{
		"parentRefs": parents,
		"rules": []any{map[string]any{
			"matches": []any{map[string]any{"path": map[string]any{"type": "PathPrefix", "value": "/"}}},
			"backendRefs": []any{map[string]any{
				"group": "", "kind": "Service", "name": sr.Name,
				"port": int64(servicePort(sr.Spec.Service.HTTP, vllmv1alpha1.DefaultHTTPPort)), "weight": int64(1),
			}},
		}},
	}
	if len(spec.Hostnames) > 0 {
		hosts := make([]any, len(spec.Hostnames))
		for i, h := range spec.Hostnames {
			hosts[i] = h
		}
		desired["hostnames"] = hosts
	}
	return unstructured.SetNestedMap(u.Object, desired, "spec")
}

func servicePort(p vllmv1alpha1.PortSpec, def int32) int32 {
	if p.Port != 0 {
		return p.Port
	}
	return def
}

// reconcileServiceMonitor manages the opt-in ServiceMonitor, created only
// where the Prometheus Operator's API is served. Its condition says why
// there is none when one was asked for.
func (r *Reconciler) reconcileServiceMonitor(ctx context.Context, sr *vllmv1alpha1.SemanticRouter) error {
	spec := sr.Spec.ServiceMonitor
	cond := metav1.Condition{Type: vllmv1alpha1.ConditionMonitoring, ObservedGeneration: sr.Generation}
	served, err := r.served(serviceMonitorGVK)
	if err != nil {
		return fmt.Errorf("servicemonitor: %w", err)
	}
	if !served {
		if !spec.Enabled {
			meta.RemoveStatusCondition(&sr.Status.Conditions, cond.Type)
			return nil
		}
		cond.Status, cond.Reason = metav1.ConditionFalse, reasonMonitoringAPIMissing
		cond.Message = "the Prometheus Operator API (monitoring.coreos.com/v1 ServiceMonitor) is not installed; scrape port metrics another way"
		meta.SetStatusCondition(&sr.Status.Conditions, cond)
		return nil
	}
	sm := &unstructured.Unstructured{}
	sm.SetGroupVersionKind(serviceMonitorGVK)
	sm.SetNamespace(sr.Namespace)
	sm.SetName(sr.Name)
	metricsOff := sr.Spec.Service.Metrics.Enabled != nil && !*sr.Spec.Service.Metrics.Enabled
	if !spec.Enabled || metricsOff {
		if err := r.deleteOwned(ctx, sr, sm, "servicemonitor"); err != nil {
			return err
		}
		if !spec.Enabled {
			meta.RemoveStatusCondition(&sr.Status.Conditions, cond.Type)
			return nil
		}
		cond.Status, cond.Reason = metav1.ConditionFalse, reasonMetricsPortDisabled
		cond.Message = "spec.service.metrics.enabled is false: there is no port to scrape"
		meta.SetStatusCondition(&sr.Status.Conditions, cond)
		return nil
	}
	if err := r.ensure(ctx, sr, sm, "servicemonitor", func() error { return mutateServiceMonitor(sm, sr) }); err != nil {
		return err
	}
	cond.Status, cond.Reason = metav1.ConditionTrue, reasonServiceMonitorCreated
	cond.Message = fmt.Sprintf("servicemonitor %s scrapes port %s", sm.GetName(), portNameMetrics)
	meta.SetStatusCondition(&sr.Status.Conditions, cond)
	return nil
}

// mutateServiceMonitor selects the router Service by its instance labels
// and scrapes its metrics port.
func mutateServiceMonitor(u *unstructured.Unstructured, sr *vllmv1alpha1.SemanticRouter) error {
	spec := sr.Spec.ServiceMonitor
	u.SetLabels(mergeLabels(mergeLabels(u.GetLabels(), spec.Labels), objectLabels(sr)))
	match := map[string]any{}
	for k, v := range selectorLabels(sr) {
		match[k] = v
	}
	endpoint := map[string]any{"port": portNameMetrics, "path": "/metrics", "scheme": "http"}
	if spec.Interval != "" {
		endpoint["interval"] = spec.Interval
	}
	desired := map[string]any{
		"selector":          map[string]any{"matchLabels": match},
		"namespaceSelector": map[string]any{"matchNames": []any{sr.Namespace}},
		"endpoints":         []any{endpoint},
	}
	return unstructured.SetNestedMap(u.Object, desired, "spec")
}
