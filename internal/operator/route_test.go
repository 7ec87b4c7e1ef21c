package operator

import (
	"context"
	"fmt"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	vllmv1alpha1 "github.com/semantic-router/semantic-router/api/v1alpha1"
)

// TestOpenShiftRoute: spec.route is ignored without the Route API, and
// creates (then removes) an owned Route once the API exists.
func TestOpenShiftRoute(t *testing.T) {
	requireAPIServer(t)
	ns := newNamespace(t)
	ctx := context.Background()
	route := &unstructured.Unstructured{}
	route.SetGroupVersionKind(routeGVK)
	route.SetNamespace(ns)
	route.SetName("router")

	createSR(t, ns, "router", vllmv1alpha1.SemanticRouterSpec{Route: vllmv1alpha1.RouteSpec{Enabled: true, Host: "router.apps.example"}})
	waitReconciled(t, ns, "router")

	crd := &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "routes.route.openshift.io"},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: "route.openshift.io",
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: "routes", Singular: "route", Kind: "Route", ListKind: "RouteList"},
			Scope: apiextensionsv1.NamespaceScoped,
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{
				Name: "v1", Served: true, Storage: true,
				Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
					Type: "object", XPreserveUnknownFields: ptr.To(true),
				}},
			}},
		},
	}
	if _, err := envtest.InstallCRDs(restCfg, envtest.CRDInstallOptions{CRDs: []*apiextensionsv1.CustomResourceDefinition{crd}}); err != nil {
		t.Fatalf("installing the Route CRD: %v", err)
	}
	// Before any reconcile after the install, no Route exists.
	if err := k8sClient.Get(ctx, client.ObjectKeyFromObject(route), route.DeepCopy()); !apierrors.IsNotFound(err) {
		t.Fatalf("route before the API existed at reconcile: err %v, want NotFound", err)
	}

	updateSR(t, ns, "router", func(sr *vllmv1alpha1.SemanticRouter) { sr.Spec.Route.TLSTermination = "edge" })
	sr := waitReconciled(t, ns, "router")
	waitFor(t, route, func() error {
		host, _, _ := unstructured.NestedString(route.Object, "spec", "host")
		tls, _, _ := unstructured.NestedString(route.Object, "spec", "tls", "termination")
		if host != "router.apps.example" || tls != "edge" {
			return fmt.Errorf("route spec = %v", route.Object["spec"])
		}
		return nil
	})
	checkOwned(t, route, sr)

	updateSR(t, ns, "router", func(sr *vllmv1alpha1.SemanticRouter) { sr.Spec.Route.Enabled = false })
	waitReconciled(t, ns, "router")
	waitGone(t, route)
}
