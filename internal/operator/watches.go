package operator

import (
	"context"
	"fmt"
	"strings"
	"sync"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"

	vllmv1alpha1 "github.com/semantic-router/semantic-router/api/v1alpha1"
)

// backendIndex indexes SemanticRouters by the objects their backends are
// discovered from, so a change to one of those finds the routers to
// reconcile without listing them all. Keys are service/<ns>/<name>,
// kserve/<ns>/<inferenceservice> and llamastack/<ns>.
const backendIndex = "spec.vllmEndpoints.backend"

// backendKeys are the index keys of one SemanticRouter.
func backendKeys(obj client.Object) []string {
	sr, ok := obj.(*vllmv1alpha1.SemanticRouter)
	if !ok {
		return nil
	}
	var keys []string
	for _, ep := range sr.Spec.VLLMEndpoints {
		b := ep.Backend
		switch {
		case b.Service != nil:
			keys = append(keys, "service/"+namespaceOr(b.Service.Namespace, sr.Namespace)+"/"+b.Service.Name)
		case b.KServe != nil:
			keys = append(keys, "kserve/"+namespaceOr(b.KServe.Namespace, sr.Namespace)+"/"+b.KServe.InferenceServiceName)
		case b.LlamaStack != nil:
			keys = append(keys, "llamastack/"+namespaceOr(b.LlamaStack.Namespace, sr.Namespace))
		}
	}
	return keys
}

// SetupWithManager registers the controller. It owns every object it
// creates, so an edit or delete of one triggers a reconcile that repairs it;
// Routes, HTTPRoutes and ServiceMonitors are watched only where their API
// exists, from the first reconcile that finds it if it was installed after
// the operator started (lateWatches). Services and InferenceServices that backends are discovered from
// are watched through backendIndex, so a backend that appears, changes or
// goes away is re-discovered at once. Router pods are watched for the
// status of the models-pull init container and the reason a container
// waits.
func (r *Reconciler) SetupWithManager(mgr ctrl.Manager) error {
	if err := mgr.GetFieldIndexer().IndexField(context.Background(), &vllmv1alpha1.SemanticRouter{}, backendIndex, backendKeys); err != nil {
		return fmt.Errorf("indexing backends: %w", err)
	}
	b := ctrl.NewControllerManagedBy(mgr).
		For(&vllmv1alpha1.SemanticRouter{}).
		Owns(&corev1.ServiceAccount{}).
		Owns(&corev1.ConfigMap{}).
		Owns(&corev1.PersistentVolumeClaim{}).
		Owns(&appsv1.Deployment{}).
		Owns(&corev1.Service{}).
		Owns(&autoscalingv2.HorizontalPodAutoscaler{}).
		Owns(&networkingv1.Ingress{}).
		Watches(&corev1.Service{}, handler.EnqueueRequestsFromMapFunc(r.routersForService)).
		Watches(&corev1.Pod{}, handler.EnqueueRequestsFromMapFunc(routerForPod), builder.WithPredicates(routerPodChanged))
	late := map[schema.GroupVersionKind]func() source.TypedSource[reconcile.Request]{}
	for _, gvk := range []schema.GroupVersionKind{routeGVK, httpRouteGVK, serviceMonitorGVK} {
		served, err := r.served(gvk)
		if err != nil {
			return fmt.Errorf("looking up %s: %w", gvk.Kind, err)
		}
		if served {
			u := &unstructured.Unstructured{}
			u.SetGroupVersionKind(gvk)
			b = b.Owns(u, builder.OnlyMetadata)
			continue
		}
		late[gvk] = func() source.TypedSource[reconcile.Request] {
			return source.Kind(mgr.GetCache(), partialMetadata(gvk),
				handler.TypedEnqueueRequestForOwner[*metav1.PartialObjectMetadata](mgr.GetScheme(), mgr.GetRESTMapper(), &vllmv1alpha1.SemanticRouter{}, handler.OnlyControllerOwner()))
		}
	}
	served, err := r.served(inferenceServiceGVK)
	if err != nil {
		return fmt.Errorf("looking up InferenceService: %w", err)
	}
	if served {
		isvc := &unstructured.Unstructured{}
		isvc.SetGroupVersionKind(inferenceServiceGVK)
		b = b.Watches(isvc, handler.EnqueueRequestsFromMapFunc(r.routersForInferenceService), builder.OnlyMetadata)
	} else {
		late[inferenceServiceGVK] = func() source.TypedSource[reconcile.Request] {
			return source.Kind(mgr.GetCache(), partialMetadata(inferenceServiceGVK),
				handler.TypedEnqueueRequestsFromMapFunc(func(ctx context.Context, obj *metav1.PartialObjectMetadata) []reconcile.Request {
					return r.routersForInferenceService(ctx, obj)
				}))
		}
	}
	c, err := b.Build(r)
	if err != nil {
		return err
	}
	r.late = &lateWatches{ctl: c, sources: late}
	return nil
}

func partialMetadata(gvk schema.GroupVersionKind) *metav1.PartialObjectMetadata {
	m := &metav1.PartialObjectMetadata{}
	m.SetGroupVersionKind(gvk)
	return m
}

// lateWatches holds the watches of optional APIs that were not served when
// the operator started. A reconcile that finds one of them served adds its
// watch then, once, so an HTTPRoute, ServiceMonitor, Route or
// InferenceService edited from outside is seen at once, as it is when its
// API was installed before the operator started.
type lateWatches struct {
	ctl controller.Controller

	mu      sync.Mutex
	sources map[schema.GroupVersionKind]func() source.TypedSource[reconcile.Request]
}

// watch adds gvk's watch if it is still to be added. An error leaves it to
// be added by a later reconcile.
func (w *lateWatches) watch(gvk schema.GroupVersionKind) error {
	if w == nil {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	src, ok := w.sources[gvk]
	if !ok {
		return nil
	}
	if err := w.ctl.Watch(src()); err != nil {
		return fmt.Errorf("watching %s: %w", gvk.Kind, err)
	}
	delete(w.sources, gvk)
	return nil
}

// routersForService maps a Service to the routers that discover a backend
// from it: by name, as a KServe predictor, or by labels in its namespace.
func (r *Reconciler) routersForService(ctx context.Context, obj client.Object) []reconcile.Request {
	keys := []string{"service/" + obj.GetNamespace() + "/" + obj.GetName(), "llamastack/" + obj.GetNamespace()}
	if isvc, ok := strings.CutSuffix(obj.GetName(), "-predictor"); ok {
		keys = append(keys, "kserve/"+obj.GetNamespace()+"/"+isvc)
	}
	return r.routersFor(ctx, keys...)
}

func (r *Reconciler) routersForInferenceService(ctx context.Context, obj client.Object) []reconcile.Request {
	return r.routersFor(ctx, "kserve/"+obj.GetNamespace()+"/"+obj.GetName())
}

func (r *Reconciler) routersFor(ctx context.Context, keys ...string) []reconcile.Request {
	seen := map[types.NamespacedName]bool{}
	var reqs []reconcile.Request
	for _, k := range keys {
		var list vllmv1alpha1.SemanticRouterList
		if err := r.Client.List(ctx, &list, client.MatchingFields{backendIndex: k}); err != nil {
			log.FromContext(ctx).Error(err, "Listing SemanticRouters by backend; they are re-discovered at their next reconcile", "key", k)
			continue
		}
		for _, sr := range list.Items {
			n := types.NamespacedName{Namespace: sr.Namespace, Name: sr.Name}
			if !seen[n] {
				seen[n] = true
				reqs = append(reqs, reconcile.Request{NamespacedName: n})
			}
		}
	}
	return reqs
}
