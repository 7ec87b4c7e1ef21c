package operator

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	vllmv1alpha1 "github.com/semantic-router/semantic-router/api/v1alpha1"
)

// waitEvent waits for an event with reason about the SemanticRouter name.
func waitEvent(t *testing.T, ns, name, reason string) eventsv1.Event {
	t.Helper()
	var found eventsv1.Event
	eventually(t, "event "+reason, func(ctx context.Context) (bool, error) {
		var evs eventsv1.EventList
		if err := k8sClient.List(ctx, &evs, client.InNamespace(ns)); err != nil {
			return false, err
		}
		for _, e := range evs.Items {
			if e.Reason == reason && e.Regarding.Name == name {
				found = e
				return true, nil
			}
		}
		return false, nil
	})
	return found
}

// gatewayCRD is a minimal stand-in for the Gateway API's Gateway CRD: the
// operator only checks that a Gateway of the referenced name exists.
func gatewayCRD() *apiextensionsv1.CustomResourceDefinition {
	return &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{
			Name: "gateways.gateway.networking.k8s.io",
			// *.k8s.io groups need this; the real Gateway API CRDs carry it.
			Annotations: map[string]string{"api-approved.kubernetes.io": "https://github.com/kubernetes-sigs/gateway-api/pull/891"},
		},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: "gateway.networking.k8s.io",
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: "gateways", Singular: "gateway", Kind: "Gateway", ListKind: "GatewayList"},
			Scope: apiextensionsv1.NamespaceScoped,
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{
				Name: "v1", Served: true, Storage: true,
				Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
					Type: "object", XPreserveUnknownFields: ptr.To(true),
				}},
			}},
		},
	}
}

// installGatewayCRD installs the stand-in Gateway CRD (again, harmlessly,
// if a test before did) and waits until it is served.
func installGatewayCRD(t *testing.T) {
	t.Helper()
	if _, err := envtest.InstallCRDs(restCfg, envtest.CRDInstallOptions{CRDs: []*apiextensionsv1.CustomResourceDefinition{gatewayCRD()}}); err != nil {
		t.Fatalf("installing the Gateway CRD: %v", err)
	}
}

// TestGatewayIntegration runs in order: first without the Gateway API (the
// reference is recorded, not checked), then with it (a missing Gateway
// fails the reconcile until it appears).
func TestGatewayIntegration(t *testing.T) {
	requireAPIServer(t)
	ns := newNamespace(t)
	ref := &vllmv1alpha1.GatewayReference{Name: "inference-gateway"}

	t.Run("gateway API not installed", func(t *testing.T) {
		createSR(t, ns, "recorded", vllmv1alpha1.SemanticRouterSpec{Gateway: vllmv1alpha1.GatewaySpec{ExistingRef: ref}})
		sr := waitReconciled(t, ns, "recorded")
		if sr.Status.GatewayMode != vllmv1alpha1.GatewayModeIntegration {
			t.Errorf("gatewayMode = %q, want gateway-integration", sr.Status.GatewayMode)
		}
		dep := &appsv1.Deployment{ObjectMeta: key(ns, "recorded")}
		waitFor(t, dep, nil)
		if args := dep.Spec.Template.Spec.Containers[0].Args; !slices.Equal(args[2:], []string{"-gateway", "extproc"}) {
			t.Errorf("args = %q, want extproc mode", args)
		}
		ev := waitEvent(t, ns, "recorded", reasonGatewayAPINotInstalled)
		if want := fmt.Sprintf("gateway %s/inference-gateway recorded but not checked: the Gateway API is not installed", ns); ev.Note != want {
			t.Errorf("event note = %q, want %q", ev.Note, want)
		}
	})

	t.Run("gateway API installed", func(t *testing.T) {
		installGatewayCRD(t)
		createSR(t, ns, "checked", vllmv1alpha1.SemanticRouterSpec{Gateway: vllmv1alpha1.GatewaySpec{ExistingRef: ref}})
		want := fmt.Sprintf("spec.gateway.existingRef: gateway %s/inference-gateway not found", ns)
		eventually(t, "Degraded for the missing gateway", func(ctx context.Context) (bool, error) {
			sr, err := getSR(ctx, ns, "checked")
			if err != nil {
				return false, err
			}
			c := meta.FindStatusCondition(sr.Status.Conditions, vllmv1alpha1.ConditionDegraded)
			if c == nil {
				return false, nil
			}
			if c.Message != want {
				return false, fmt.Errorf("Degraded message %q, want %q", c.Message, want)
			}
			return true, nil
		})
		sr, err := getSR(context.Background(), ns, "checked")
		if err != nil {
			t.Fatal(err)
		}
		if sr.Status.ObservedGeneration != 0 {
			t.Errorf("observedGeneration = %d with a missing gateway, want 0", sr.Status.ObservedGeneration)
		}
		err = k8sClient.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: "checked"}, &appsv1.Deployment{})
		if err == nil {
			t.Error("Deployment created although the gateway step failed")
		}

		gw := &unstructured.Unstructured{}
		gw.SetGroupVersionKind(gatewayGVK)
		gw.SetNamespace(ns)
		gw.SetName("inference-gateway")
		if err := k8sClient.Create(context.Background(), gw); err != nil {
			t.Fatalf("creating gateway: %v", err)
		}
		sr = waitReconciled(t, ns, "checked")
		if c := meta.FindStatusCondition(sr.Status.Conditions, vllmv1alpha1.ConditionDegraded); c != nil {
			t.Errorf("Degraded = %+v after the gateway appeared", c)
		}
		ev := waitEvent(t, ns, "checked", reasonGatewayIntegration)
		if !strings.Contains(ev.Note, "ExtProc policy and routes must be configured separately") || ev.Type != corev1.EventTypeNormal {
			t.Errorf("event = %s %q", ev.Type, ev.Note)
		}
	})
}
