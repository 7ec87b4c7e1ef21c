package operator

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	vllmv1alpha1 "github.com/semantic-router/semantic-router/api/v1alpha1"
)

// gatewayGVK is the Gateway API Gateway that spec.gateway.existingRef names.
var gatewayGVK = schema.GroupVersionKind{Group: "gateway.networking.k8s.io", Version: "v1", Kind: "Gateway"}

// Event reasons for gateway integration.
const (
	reasonGatewayIntegration     = "GatewayIntegration"
	reasonGatewayAPINotInstalled = "GatewayAPINotInstalled"
	reasonGatewayNotFound        = "GatewayNotFound"
)

// reconcileGateway decides the gateway mode. With spec.gateway.existingRef
// it checks that the Gateway exists when the Gateway API is installed, and
// otherwise records that it could not check. It never installs an ExtProc
// policy or an HTTPRoute: those are configured separately, and the event
// says so.
func (r *Reconciler) reconcileGateway(ctx context.Context, sr *vllmv1alpha1.SemanticRouter) (vllmv1alpha1.GatewayMode, error) {
	const topic = "GatewayMode"
	ref := sr.Spec.Gateway.ExistingRef
	if ref == nil {
		r.memo.clear(sr.UID, topic) // a later switch to extproc is announced again
		return vllmv1alpha1.GatewayModeStandalone, nil
	}
	ns := ref.Namespace
	if ns == "" {
		ns = sr.Namespace
	}
	// Announce a mode change once, not on every reconcile: status says the
	// mode was applied, and the memory covers reconciles that fail later
	// (they do not record the mode) or read a stale cache.
	announce := sr.Status.GatewayMode != vllmv1alpha1.GatewayModeIntegration

	served, err := r.served(gatewayGVK)
	if err != nil {
		return "", fmt.Errorf("gateway: %w", err)
	}
	if !served {
		if announce {
			r.eventOnChange(sr, corev1.EventTypeNormal, topic, reasonGatewayAPINotInstalled, "Reconcile",
				fmt.Sprintf("gateway %s/%s recorded but not checked: the Gateway API is not installed; "+
					"the router runs as an ExtProc server, and the ExtProc policy and routes must be configured separately", ns, ref.Name))
		}
		return vllmv1alpha1.GatewayModeIntegration, nil
	}
	gw := &unstructured.Unstructured{}
	gw.SetGroupVersionKind(gatewayGVK)
	if err := r.Client.Get(ctx, types.NamespacedName{Namespace: ns, Name: ref.Name}, gw); err != nil {
		if apierrors.IsNotFound(err) {
			return "", &missingDependencyError{reasonGatewayNotFound, fmt.Errorf("spec.gateway.existingRef: gateway %s/%s not found", ns, ref.Name)}
		}
		return "", fmt.Errorf("spec.gateway.existingRef: %w", err)
	}
	if announce {
		r.eventOnChange(sr, corev1.EventTypeNormal, topic, reasonGatewayIntegration, "Reconcile",
			fmt.Sprintf("router runs as an ExtProc server behind gateway %s/%s; the ExtProc policy and routes must be configured separately", ns, ref.Name))
	}
	return vllmv1alpha1.GatewayModeIntegration, nil
}

// served reports whether the API server serves gvk. The REST mapper looks
// the group up again on a miss, so an API installed later is found, and its
// watch is added then.
func (r *Reconciler) served(gvk schema.GroupVersionKind) (bool, error) {
	_, err := r.Client.RESTMapper().RESTMapping(gvk.GroupKind(), gvk.Version)
	switch {
	case err == nil:
		if err := r.late.watch(gvk); err != nil {
			return true, err
		}
		return true, nil
	case meta.IsNoMatchError(err):
		return false, nil
	default:
		return false, err
	}
}
