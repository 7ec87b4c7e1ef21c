package operator

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	vllmv1alpha1 "github.com/semantic-router/semantic-router/api/v1alpha1"
	"github.com/semantic-router/semantic-router/internal/config"
)

// ownedResult is what a successful reconcileOwnedResources leaves behind.
type ownedResult struct {
	mode vllmv1alpha1.GatewayMode
	// deployment is the router Deployment as the API server last returned it.
	deployment *appsv1.Deployment
	// backendsFailed is set when some spec.vllmEndpoints were skipped.
	backendsFailed bool
	// waiting is set when something asked for waits on the cluster (an API
	// not installed yet) that no watch reports: the reconcile runs again at
	// DependencyRetry.
	waiting bool
	// artifactFailure is the cause of a failed model download in a router
	// pod of the current config, or "".
	artifactFailure string
}

// reconcileOwnedResources creates or repairs the router's objects in the
// order of the operations guide: ServiceAccount, ConfigMap (after backend
// discovery), PVC, gateway integration, Deployment, Service, HPA, Ingress,
// Route, then the opt-in HTTPRoute and ServiceMonitor. It stops at the first
// failure, so a later object never runs ahead of an earlier one (a
// Deployment never rolls to a config that was not written).
//
// The ConfigMap is rendered and proven in its place but written only after
// the claim and the gateway check succeeded and the API server accepted the
// new Deployment, Service, HPA and Ingress in a server-side dry run. The
// pods mount the ConfigMap by name, so writing it first and then failing on
// the Deployment (an invalid pod annotation, say) would feed the refused
// generation's config to pods of the old template, and failing on the
// Service after the Deployment would roll out half a generation. A dry run
// is the simplest way to know the objects will be accepted; a ConfigMap named by its content hash would also work
// but leaves old ConfigMaps to collect and breaks the name users look for.
func (r *Reconciler) reconcileOwnedResources(ctx context.Context, sr *vllmv1alpha1.SemanticRouter) (ownedResult, error) {
	var res ownedResult
	if err := r.reconcileServiceAccount(ctx, sr); err != nil {
		return res, err
	}
	rc, err := r.renderConfigMap(ctx, sr)
	if err != nil {
		return res, err
	}
	res.backendsFailed = rc.backendsFailed
	claimPending, err := r.reconcilePVC(ctx, sr)
	if err != nil {
		return res, err
	}
	if res.mode, err = r.reconcileGateway(ctx, sr); err != nil {
		return res, err
	}
	if err := checkListenPorts(sr, res.mode); err != nil {
		return res, &specError{reasonInvalidSpec, err}
	}
	tmpl := desiredPodTemplate(sr, res.mode, rc)
	if err := r.dryRunGeneration(ctx, sr, res.mode, tmpl); err != nil {
		return res, err
	}
	if err := r.writeConfigMap(ctx, sr, rc); err != nil {
		return res, err
	}
	if res.deployment, err = r.reconcileDeployment(ctx, sr, tmpl); err != nil {
		return res, err
	}
	r.warnNotPersisted(sr, rc.artifacts)
	if rc.artifacts.pulledBefore() {
		if res.artifactFailure, err = r.artifactFailure(ctx, sr, rc.hash); err != nil {
			return res, err
		}
	}
	svc := &corev1.Service{ObjectMeta: objectMeta(sr, sr.Name)}
	if err := r.ensure(ctx, sr, svc, "service", func() error { mutateService(svc, sr, res.mode); return nil }); err != nil {
		return res, err
	}
	if err := r.reconcileHPA(ctx, sr); err != nil {
		return res, err
	}
	if err := r.reconcileIngress(ctx, sr, res.mode); err != nil {
		return res, err
	}
	if err := r.reconcileRoute(ctx, sr, res.mode); err != nil {
		return res, err
	}
	if res.waiting, err = r.reconcileHTTPRoute(ctx, sr, res.mode); err != nil {
		return res, err
	}
	res.waiting = res.waiting || claimPending
	if err := r.reconcileServiceMonitor(ctx, sr); err != nil {
		return res, err
	}
	return res, nil
}

func objectMeta(sr *vllmv1alpha1.SemanticRouter, name string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Namespace: sr.Namespace, Name: name}
}

// ensure creates obj or lays mutate over the live object, and makes the
// SemanticRouter its controller. An object of the same name that this
// SemanticRouter does not control is refused with NameConflict and left as
// it is (checkControl).
func (r *Reconciler) ensure(ctx context.Context, sr *vllmv1alpha1.SemanticRouter, obj client.Object, kind string, mutate func() error) error {
	oe := &objectError{kind: "object"}
	if gvk, gerr := apiutil.GVKForObject(obj, r.Client.Scheme()); gerr == nil {
		oe.kind = gvk.Kind
	}
	var conflict error
	_, err := controllerutil.CreateOrUpdate(ctx, r.Client, obj, func() error {
		if conflict = checkControl(sr, obj, oe.kind); conflict != nil {
			return conflict
		}
		if err := mutate(); err != nil {
			return err
		}
		return controllerutil.SetControllerReference(sr, obj, r.Client.Scheme())
	})
	switch {
	case err == nil:
		return nil
	case conflict != nil:
		oe.err = conflict // it names the kind and the object already
	default:
		oe.err = fmt.Errorf("%s %s: %w", kind, obj.GetName(), err)
	}
	return oe
}

// objectError is the failure to create or update one owned object; kind is its Kubernetes
// kind, as in Deployment, for the operator's log line.
type objectError struct {
	kind string
	err  error
}

func (e *objectError) Error() string { return e.err.Error() }
func (e *objectError) Unwrap() error { return e.err }

// failedKind names what a reconcile failed on: the owned object's kind, or SemanticRouter
// when the failure is not one object's (the spec refused, a dependency missing).
func failedKind(err error) string {
	var oe *objectError
	if errors.As(err, &oe) {
		return oe.kind
	}
	return "SemanticRouter"
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

// renderedConfig is the config.yaml written to the ConfigMap, its hash (on
// the pod template) and the environment variables that carry the
// discovered backends' credentials.
type renderedConfig struct {
	yaml           []byte
	hash           string
	env            []corev1.EnvVar
	backendsFailed bool
	// artifacts is what the pod needs for the config's model artifacts.
	artifacts artifactPlan
	// stop is how long the router may take to stop after SIGTERM: its shutdown_delay and
	// shutdown_timeout.
	stop time.Duration
}

// renderConfigMap discovers the backends, renders the config with them and
// proves it with the router's parser; writeConfigMap writes it. When
// rendering fails, nothing is written and the previous ConfigMap (if any)
// keeps serving.
func (r *Reconciler) renderConfigMap(ctx context.Context, sr *vllmv1alpha1.SemanticRouter) (renderedConfig, error) {
	eps, failed := r.discoverBackends(ctx, sr)
	setBackendsResolved(&sr.Status, sr.Generation, len(sr.Spec.VLLMEndpoints), failed)
	models, env, err := groupModels(eps)
	if err != nil {
		return renderedConfig{}, &specError{reasonInvalidConfig, err}
	}
	if err := checkEnvClash(sr, env); err != nil {
		return renderedConfig{}, &specError{reasonInvalidConfig, err}
	}
	if len(sr.Spec.VLLMEndpoints) > 0 && len(eps) == 0 && !configDefinesModels(sr) {
		return renderedConfig{}, &missingDependencyError{reasonNoBackendResolved, fmt.Errorf(
			"no backend resolved (%s) and spec.config defines no models: nothing is rolled out, %s",
			joinFailures(failed), r.whatKeepsServing(ctx, sr))}
	}
	rendered, parsed, err := renderRouterConfig(sr.Spec.Config, models, artifactCacheDir(sr))
	if err == nil {
		err = checkAppProtocol(sr, parsed)
	}
	if err != nil {
		return renderedConfig{}, &specError{reasonInvalidConfig, fmt.Errorf("configmap %s not updated: %w", configMapName(sr), err)}
	}
	plan, err := planArtifacts(sr, parsed)
	if err != nil {
		var spec *specError
		if errors.As(err, &spec) {
			return renderedConfig{}, &specError{spec.reason, fmt.Errorf("configmap %s not updated: %w", configMapName(sr), spec.err)}
		}
		return renderedConfig{}, err
	}
	return renderedConfig{yaml: rendered, hash: configHash(rendered), env: env, backendsFailed: len(failed) > 0, artifacts: plan,
		stop: routerStopTime(parsed)}, nil
}

// writeConfigMap writes the rendered config.
func (r *Reconciler) writeConfigMap(ctx context.Context, sr *vllmv1alpha1.SemanticRouter, rc renderedConfig) error {
	cm := &corev1.ConfigMap{ObjectMeta: objectMeta(sr, configMapName(sr))}
	return r.ensure(ctx, sr, cm, "configmap", func() error {
		cm.Labels = mergeLabels(cm.Labels, objectLabels(sr))
		cm.Data = map[string]string{configKey: string(rc.yaml)}
		cm.BinaryData = nil
		return nil
	})
}

// whatKeepsServing says what serves while a generation is refused: the
// previous ConfigMap, or, for a SemanticRouter never applied, nothing.
func (r *Reconciler) whatKeepsServing(ctx context.Context, sr *vllmv1alpha1.SemanticRouter) string {
	cm := &corev1.ConfigMap{}
	err := r.Client.Get(ctx, client.ObjectKey{Namespace: sr.Namespace, Name: configMapName(sr)}, cm)
	if err == nil && metav1.IsControlledBy(cm, sr) {
		return "the previous ConfigMap keeps serving"
	}
	return "and no router runs until this is fixed: no config was ever written"
}

// routerStopTime is how long a router with cfg may take to stop after SIGTERM: its
// shutdown_delay, then its drain of shutdown_timeout.
func routerStopTime(cfg *config.Config) time.Duration {
	return cfg.Server.ShutdownDelay.D() + cfg.Server.ShutdownTimeout.D()
}

// configDefinesModels reports whether spec.config lists any model.
func configDefinesModels(sr *vllmv1alpha1.SemanticRouter) bool {
	if sr.Spec.Config == nil {
		return false
	}
	var c struct {
		Models []json.RawMessage `json:"models"`
	}
	return json.Unmarshal(sr.Spec.Config.Raw, &c) == nil && len(c.Models) > 0
}

// checkEnvClash refuses a spec.env entry named like a variable the operator
// adds for a backend credential.
func checkEnvClash(sr *vllmv1alpha1.SemanticRouter, ours []corev1.EnvVar) error {
	for i, e := range sr.Spec.Env {
		for _, o := range ours {
			if e.Name == o.Name {
				return fmt.Errorf("spec.env[%d]: %s is the variable the operator sets for a backend credential; rename it", i, e.Name)
			}
		}
	}
	return nil
}

func (r *Reconciler) reconcileDeployment(ctx context.Context, sr *vllmv1alpha1.SemanticRouter, tmpl corev1.PodTemplateSpec) (*appsv1.Deployment, error) {
	dep := &appsv1.Deployment{ObjectMeta: objectMeta(sr, sr.Name)}
	err := r.ensure(ctx, sr, dep, "deployment", func() error {
		mutateDeployment(dep, sr, *tmpl.DeepCopy())
		return nil
	})
	if err != nil {
		return nil, err
	}
	return dep, nil
}

// dryRunGeneration asks the API server to validate the Deployment, the
// Service, and the HPA and Ingress when asked for, as this reconcile would
// write them, without writing them (see reconcileOwnedResources for why).
// The opt-in Route, HTTPRoute and ServiceMonitor are not checked: they come
// last, and the pods do not depend on them.
func (r *Reconciler) dryRunGeneration(ctx context.Context, sr *vllmv1alpha1.SemanticRouter, mode vllmv1alpha1.GatewayMode, tmpl corev1.PodTemplateSpec) error {
	dep := &appsv1.Deployment{ObjectMeta: objectMeta(sr, sr.Name)}
	if err := r.dryRun(ctx, sr, dep, "Deployment", func() { mutateDeployment(dep, sr, *tmpl.DeepCopy()) }); err != nil {
		return err
	}
	svc := &corev1.Service{ObjectMeta: objectMeta(sr, sr.Name)}
	if err := r.dryRun(ctx, sr, svc, "Service", func() { mutateService(svc, sr, mode) }); err != nil {
		return err
	}
	if autoscalingEnabled(sr) {
		hpa := &autoscalingv2.HorizontalPodAutoscaler{ObjectMeta: objectMeta(sr, sr.Name)}
		if err := r.dryRun(ctx, sr, hpa, "HorizontalPodAutoscaler", func() { mutateHPA(hpa, sr) }); err != nil {
			return err
		}
	}
	if sr.Spec.Ingress.Enabled && mode == vllmv1alpha1.GatewayModeStandalone {
		ing := &networkingv1.Ingress{ObjectMeta: objectMeta(sr, sr.Name)}
		if err := r.dryRun(ctx, sr, ing, "Ingress", func() { mutateIngress(ing, sr) }); err != nil {
			return err
		}
	}
	return nil
}

// dryRun sends obj as ensure would write it (mutate laid over the live
// object, or over a new one) in a server-side dry run. An object that would
// not change is not sent at all, so a reconcile with nothing to do writes
// nothing. One the API server finds invalid is a spec error: retrying
// cannot help.
func (r *Reconciler) dryRun(ctx context.Context, sr *vllmv1alpha1.SemanticRouter, obj client.Object, kind string, mutate func()) error {
	name := strings.ToLower(kind) + " " + obj.GetName()
	refused := func(err error) error {
		if !apierrors.IsInvalid(err) {
			return &objectError{kind: kind, err: fmt.Errorf("%s: %w", name, err)}
		}
		return &objectError{kind: kind, err: &specError{reasonInvalidSpec, fmt.Errorf(
			"%s refused by the API server, nothing of this generation was written: %w", name, err)}}
	}
	err := r.Client.Get(ctx, client.ObjectKeyFromObject(obj), obj)
	switch {
	case apierrors.IsNotFound(err):
		mutate()
		if err := controllerutil.SetControllerReference(sr, obj, r.Client.Scheme()); err != nil {
			return refused(err)
		}
		if err := r.Client.Create(ctx, obj, client.DryRunAll); err != nil {
			return refused(err)
		}
		return nil
	case err != nil:
		return &objectError{kind: kind, err: fmt.Errorf("%s: %w", name, err)}
	}
	if err := checkControl(sr, obj, kind); err != nil {
		return &objectError{kind: kind, err: err}
	}
	before := obj.DeepCopyObject()
	mutate()
	if err := controllerutil.SetControllerReference(sr, obj, r.Client.Scheme()); err != nil {
		return refused(err)
	}
	if equality.Semantic.DeepEqual(before, obj) {
		return nil
	}
	if err := r.Client.Update(ctx, obj, client.DryRunAll); err != nil {
		return refused(err)
	}
	return nil
}

func (r *Reconciler) reconcileHPA(ctx context.Context, sr *vllmv1alpha1.SemanticRouter) error {
	hpa := &autoscalingv2.HorizontalPodAutoscaler{ObjectMeta: objectMeta(sr, sr.Name)}
	if !autoscalingEnabled(sr) {
		return r.deleteOwned(ctx, sr, hpa, "horizontalpodautoscaler")
	}
	return r.ensure(ctx, sr, hpa, "horizontalpodautoscaler", func() error { mutateHPA(hpa, sr); return nil })
}

// reconcileIngress manages the Ingress to the inference port. In extproc
// mode nothing listens there, so no Ingress is made whatever spec.ingress
// says.
func (r *Reconciler) reconcileIngress(ctx context.Context, sr *vllmv1alpha1.SemanticRouter, mode vllmv1alpha1.GatewayMode) error {
	ing := &networkingv1.Ingress{ObjectMeta: objectMeta(sr, sr.Name)}
	if !sr.Spec.Ingress.Enabled || mode != vllmv1alpha1.GatewayModeStandalone {
		return r.deleteOwned(ctx, sr, ing, "ingress")
	}
	return r.ensure(ctx, sr, ing, "ingress", func() error { mutateIngress(ing, sr); return nil })
}

// reconcileRoute manages the OpenShift Route only where the Route API is
// served; elsewhere spec.route is ignored. Like the Ingress, it exists only
// in standalone mode.
func (r *Reconciler) reconcileRoute(ctx context.Context, sr *vllmv1alpha1.SemanticRouter, mode vllmv1alpha1.GatewayMode) error {
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
	if !sr.Spec.Route.Enabled || mode != vllmv1alpha1.GatewayModeStandalone {
		return r.deleteOwned(ctx, sr, route, "route")
	}
	return r.ensure(ctx, sr, route, "route", func() error { return mutateRoute(route, sr) })
}
