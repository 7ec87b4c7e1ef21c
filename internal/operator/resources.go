package operator

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	vllmv1alpha1 "github.com/semantic-router/semantic-router/api/v1alpha1"
)

// reconcileOwnedResources creates or repairs the router's objects in the
// order of the operations guide: ServiceAccount, ConfigMap, PVC, gateway
// integration, Deployment, Service, HPA, Ingress, Route. It stops at the
// first failure, so a later object never runs ahead of an earlier one
// (a Deployment never rolls to a config that was not written). It returns
// the gateway mode and the Deployment as the API server last returned it.
func (r *Reconciler) reconcileOwnedResources(ctx context.Context, sr *vllmv1alpha1.SemanticRouter) (vllmv1alpha1.GatewayMode, *appsv1.Deployment, error) {
	if err := r.reconcileServiceAccount(ctx, sr); err != nil {
		return "", nil, err
	}
	hash, err := r.reconcileConfigMap(ctx, sr)
	if err != nil {
		return "", nil, err
	}
	if err := r.reconcilePVC(ctx, sr); err != nil {
		return "", nil, err
	}
	mode, err := r.reconcileGateway(ctx, sr)
	if err != nil {
		return "", nil, err
	}
	dep, err := r.reconcileDeployment(ctx, sr, hash, mode)
	if err != nil {
		return "", nil, err
	}
	svc := &corev1.Service{ObjectMeta: objectMeta(sr, sr.Name)}
	if err := r.ensure(ctx, sr, svc, "service", func() error { mutateService(svc, sr); return nil }); err != nil {
		return "", nil, err
	}
	if err := r.reconcileHPA(ctx, sr); err != nil {
		return "", nil, err
	}
	if err := r.reconcileIngress(ctx, sr); err != nil {
		return "", nil, err
	}
	if err := r.reconcileRoute(ctx, sr); err != nil {
		return "", nil, err
	}
	return mode, dep, nil
}

func objectMeta(sr *vllmv1alpha1.SemanticRouter, name string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Namespace: sr.Namespace, Name: name}
}

// ensure creates obj or lays mutate over the live object, and makes the
// SemanticRouter its controller. An object of the same name controlled by
// something else is an error, never taken over.
func (r *Reconciler) ensure(ctx context.Context, sr *vllmv1alpha1.SemanticRouter, obj client.Object, kind string, mutate func() error) error {
	_, err := controllerutil.CreateOrUpdate(ctx, r.Client, obj, func() error {
		if err := mutate(); err != nil {
			return err
		}
		return controllerutil.SetControllerReference(sr, obj, r.Client.Scheme())
	})
	if err != nil {
		return fmt.Errorf("%s %s: %w", kind, obj.GetName(), err)
	}
	return nil
}

// deleteOwned deletes obj if it exists and the SemanticRouter controls it:
// turning a feature off removes what the operator made, nothing else.
func (r *Reconciler) deleteOwned(ctx context.Context, sr *vllmv1alpha1.SemanticRouter, obj client.Object, kind string) error {
	if err := r.Client.Get(ctx, client.ObjectKeyFromObject(obj), obj); err != nil {
		return client.IgnoreNotFound(err)
	}
	if !metav1.IsControlledBy(obj, sr) {
		return nil
	}
	if err := r.Client.Delete(ctx, obj); client.IgnoreNotFound(err) != nil {
		return fmt.Errorf("deleting %s %s: %w", kind, obj.GetName(), err)
	}
	return nil
}

func (r *Reconciler) reconcileServiceAccount(ctx context.Context, sr *vllmv1alpha1.SemanticRouter) error {
	if !createServiceAccount(sr) {
		return nil
	}
	sa := &corev1.ServiceAccount{ObjectMeta: objectMeta(sr, serviceAccountName(sr))}
	return r.ensure(ctx, sr, sa, "serviceaccount", func() error {
		sa.Labels = mergeLabels(sa.Labels, objectLabels(sr))
		sa.Annotations = mergeLabels(sa.Annotations, sr.Spec.ServiceAccount.Annotations)
		return nil
	})
}

// reconcileConfigMap renders spec.config and writes it; it returns the hash
// that the pod template carries. A config that fails to render is a spec
// error and nothing is written.
func (r *Reconciler) reconcileConfigMap(ctx context.Context, sr *vllmv1alpha1.SemanticRouter) (string, error) {
	rendered, err := renderConfig(sr.Spec.Config)
	if err != nil {
		return "", &specError{fmt.Errorf("configmap %s: %w", configMapName(sr), err)}
	}
	cm := &corev1.ConfigMap{ObjectMeta: objectMeta(sr, configMapName(sr))}
	err = r.ensure(ctx, sr, cm, "configmap", func() error {
		cm.Labels = mergeLabels(cm.Labels, objectLabels(sr))
		cm.Data = map[string]string{configKey: string(rendered)}
		cm.BinaryData = nil
		return nil
	})
	return configHash(rendered), err
}

func (r *Reconciler) reconcilePVC(ctx context.Context, sr *vllmv1alpha1.SemanticRouter) error {
	if !ownsPVC(sr) {
		return nil
	}
	pvc := &corev1.PersistentVolumeClaim{ObjectMeta: objectMeta(sr, pvcName(sr))}
	return r.ensure(ctx, sr, pvc, "persistentvolumeclaim", func() error {
		if err := mutatePVC(pvc, sr); err != nil {
			return &specError{err}
		}
		return nil
	})
}

func (r *Reconciler) reconcileDeployment(ctx context.Context, sr *vllmv1alpha1.SemanticRouter, hash string, mode vllmv1alpha1.GatewayMode) (*appsv1.Deployment, error) {
	dep := &appsv1.Deployment{ObjectMeta: objectMeta(sr, sr.Name)}
	tmpl := desiredPodTemplate(sr, hash, mode)
	err := r.ensure(ctx, sr, dep, "deployment", func() error {
		mutateDeployment(dep, sr, tmpl)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return dep, nil
}

func (r *Reconciler) reconcileHPA(ctx context.Context, sr *vllmv1alpha1.SemanticRouter) error {
	hpa := &autoscalingv2.HorizontalPodAutoscaler{ObjectMeta: objectMeta(sr, sr.Name)}
	if !autoscalingEnabled(sr) {
		return r.deleteOwned(ctx, sr, hpa, "horizontalpodautoscaler")
	}
	return r.ensure(ctx, sr, hpa, "horizontalpodautoscaler", func() error { mutateHPA(hpa, sr); return nil })
}

func (r *Reconciler) reconcileIngress(ctx context.Context, sr *vllmv1alpha1.SemanticRouter) error {
	ing := &networkingv1.Ingress{ObjectMeta: objectMeta(sr, sr.Name)}
	if !sr.Spec.Ingress.Enabled {
		return r.deleteOwned(ctx, sr, ing, "ingress")
	}
	return r.ensure(ctx, sr, ing, "ingress", func() error { mutateIngress(ing, sr); return nil })
}

// reconcileRoute manages the OpenShift Route only where the Route API is
// served; elsewhere spec.route is ignored.
func (r *Reconciler) reconcileRoute(ctx context.Context, sr *vllmv1alpha1.SemanticRouter) error {
	served, err := r.served(routeGVK)
	if err != nil {
		return fmt.Errorf("route: %w", err)
	}
	if !served {
		return nil
	}
	route := &unstructured.Unstructured{}
	route.SetGroupVersionKind(routeGVK)
	route.SetNamespace(sr.Namespace)
	route.SetName(sr.Name)
	if !sr.Spec.Route.Enabled {
		return r.deleteOwned(ctx, sr, route, "route")
	}
	return r.ensure(ctx, sr, route, "route", func() error { return mutateRoute(route, sr) })
}
