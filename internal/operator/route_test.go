package operator

import (
	"fmt"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	vllmv1alpha1 "github.com/semantic-router/semantic-router/api/v1alpha1"
)

// TestOpenShiftRoute: where the Route API exists spec.route creates (then
// removes) an owned Route to the inference port; without it, it is ignored.
func TestOpenShiftRoute(t *testing.T) {
	requireAPIServer(t)
	ns := newNamespace(t)
	spec := vllmv1alpha1.SemanticRouterSpec{Route: vllmv1alpha1.RouteSpec{Enabled: true, Host: "router.apps.example", TLSTermination: "edge"}}
	route := &unstructured.Unstructured{}
	route.SetGroupVersionKind(routeGVK)
	route.SetNamespace(ns)
	route.SetName("router")

	createSR(t, ns, "router", spec)
	sr := waitReconciled(t, ns, "router")
	waitFor(t, route, func() error {
		host, _, _ := unstructured.NestedString(route.Object, "spec", "host")
		tls, _, _ := unstructured.NestedString(route.Object, "spec", "tls", "termination")
		port, _, _ := unstructured.NestedString(route.Object, "spec", "port", "targetPort")
		if host != "router.apps.example" || tls != "edge" || port != "http" {
			return fmt.Errorf("route spec = %v", route.Object["spec"])
		}
		return nil
	})
	checkOwned(t, route, sr)

	updateSR(t, ns, "router", func(sr *vllmv1alpha1.SemanticRouter) { sr.Spec.Route.Enabled = false })
	waitReconciled(t, ns, "router")
	waitGone(t, route)

	createBareSR(t, ns, "bare", spec)
	waitReconciled(t, ns, "bare")
	requireAbsent(t, route.DeepCopy(), ns, "bare")
}
