package operator

import (
	"context"
	"errors"
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/events"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	vllmv1alpha1 "github.com/semantic-router/semantic-router/api/v1alpha1"
)

// The RBAC below is all the operator needs; `make generate` turns it into
// config/rbac/role.yaml.
//
// +kubebuilder:rbac:groups=vllm.ai,resources=semanticrouters,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=vllm.ai,resources=semanticrouters/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=vllm.ai,resources=semanticrouters/finalizers,verbs=update
// +kubebuilder:rbac:groups="",resources=serviceaccounts;configmaps;persistentvolumeclaims;services,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups="",resources=pods,verbs=get;list;watch
// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=autoscaling,resources=horizontalpodautoscalers,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=networking.k8s.io,resources=ingresses,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=route.openshift.io,resources=routes,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=gateway.networking.k8s.io,resources=gateways,verbs=get
// +kubebuilder:rbac:groups=gateway.networking.k8s.io,resources=httproutes,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=monitoring.coreos.com,resources=servicemonitors,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=serving.kserve.io,resources=inferenceservices,verbs=get;list;watch
// +kubebuilder:rbac:groups=storage.k8s.io,resources=storageclasses,verbs=get;list;watch
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch

// Event reasons for the reconcile as a whole.
const (
	reasonFinalized = "Finalized"
)

// Reconciler reconciles SemanticRouter resources.
type Reconciler struct {
	// Client reads through the manager's cache and writes to the API server.
	Client client.Client
	// Recorder emits Events on the SemanticRouter.
	Recorder events.EventRecorder
	// DependencyRetry is how soon a reconcile that waits for an object the
	// user must create (such as the referenced Gateway) runs again; zero
	// means 30s. It replaces the exponential backoff, which would grow to
	// many minutes while the user is fixing the cluster.
	DependencyRetry time.Duration

	memo eventMemo
	// late adds the watches of optional APIs installed after start; nil
	// when the Reconciler runs without a manager.
	late *lateWatches
}

// Reconcile brings one SemanticRouter's owned objects to the desired state
// and reports status. A failure sets Degraded (with the reason), emits a
// Warning event and leaves observedGeneration at the last success.
func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	sr := &vllmv1alpha1.SemanticRouter{}
	if err := r.Client.Get(ctx, req.NamespacedName, sr); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !sr.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, r.finalize(ctx, sr)
	}
	if !controllerutil.ContainsFinalizer(sr, vllmv1alpha1.Finalizer) {
		patch := client.MergeFromWithOptions(sr.DeepCopy(), client.MergeFromWithOptimisticLock{})
		controllerutil.AddFinalizer(sr, vllmv1alpha1.Finalizer)
		if err := r.Client.Patch(ctx, sr, patch); err != nil {
			return ctrl.Result{}, fmt.Errorf("adding finalizer: %w", err)
		}
	}

	orig := sr.DeepCopy()
	res, err := r.reconcileOwnedResources(ctx, sr)
	if err != nil {
		err = r.reportFailure(ctx, orig, sr, err)
		var missing *missingDependencyError
		if errors.As(err, &missing) && !errors.Is(err, errStatusUpdate) {
			return ctrl.Result{RequeueAfter: r.dependencyRetry()}, nil
		}
		return ctrl.Result{}, err
	}
	sr.Status.GatewayMode = res.mode
	setDeploymentStatus(&sr.Status, sr.Generation, res.deployment)
	r.explainNoReplicas(ctx, sr)
	markReconciled(&sr.Status, sr.Generation)
	r.memo.clear(sr.UID, vllmv1alpha1.ConditionDegraded)
	if res.artifactFailure != "" {
		r.markArtifactFailure(sr, res.artifactFailure)
	} else {
		r.memo.clear(sr.UID, reasonArtifactDownloadFailed)
	}
	if err := r.Client.Status().Patch(ctx, sr, client.MergeFrom(orig)); err != nil {
		return ctrl.Result{}, fmt.Errorf("updating status: %w", err)
	}
	if res.backendsFailed || res.waiting {
		// The watches bring most backends back; this covers what they
		// cannot see (an InferenceService or Gateway API installed later,
		// RBAC fixed).
		return ctrl.Result{RequeueAfter: r.dependencyRetry()}, nil
	}
	return ctrl.Result{}, nil
}

// reportFailure records err on the SemanticRouter and returns it. Phase and
// Available still follow the Deployment, which keeps serving what the last
// good reconcile gave it, but Available and Progressing carry the generation
// last applied (status.observedGeneration), never the refused one: `kubectl
// wait --for=condition=Available` skips a condition whose observedGeneration
// is behind metadata.generation, so it keeps waiting (and times out) on an
// update that was refused instead of passing on the old pods' readiness. Errors in the spec itself are terminal: retrying
// cannot fix them, and the next spec change triggers a new reconcile anyway.
//
// The Warning event is emitted when the Degraded condition changes, not on
// every reconcile: the status patch itself, watches and the dependency
// retry all run the reconcile again, and each would repeat the same event.
func (r *Reconciler) reportFailure(ctx context.Context, orig, sr *vllmv1alpha1.SemanticRouter, err error) error {
	log.FromContext(ctx).Error(err, "Failed to reconcile "+failedKind(err), "reason", failureReason(err))
	r.warnOnChange(sr, vllmv1alpha1.ConditionDegraded, failureReason(err), err.Error())
	markDegraded(&sr.Status, sr.Generation, err)
	dep := &appsv1.Deployment{}
	applied := sr.Status.ObservedGeneration
	switch gerr := r.Client.Get(ctx, client.ObjectKey{Namespace: sr.Namespace, Name: sr.Name}, dep); {
	case gerr == nil:
		setDeploymentStatus(&sr.Status, applied, dep)
	case apierrors.IsNotFound(gerr):
		setDeploymentStatus(&sr.Status, applied, nil)
	}
	r.explainNoReplicas(ctx, sr)
	if perr := r.Client.Status().Patch(ctx, sr, client.MergeFrom(orig)); perr != nil {
		return errors.Join(err, fmt.Errorf("%w: %w", errStatusUpdate, perr))
	}
	var spec *specError
	if errors.As(err, &spec) {
		return reconcile.TerminalError(err)
	}
	return err
}

// errStatusUpdate marks a failure to record status; such a reconcile is
// always retried with backoff.
var errStatusUpdate = errors.New("updating status")

func (r *Reconciler) dependencyRetry() time.Duration {
	if r.DependencyRetry > 0 {
		return r.DependencyRetry
	}
	return 30 * time.Second
}

// missingDependencyError marks a reconcile error that only the user can fix
// by changing the cluster: creating something missing, or removing an object
// in the way (NameConflict). It is retried at DependencyRetry, not backoff,
// because the change may not be an event the operator watches.
// reason, when set, is the Degraded condition's and the event's reason.
type missingDependencyError struct {
	reason string
	err    error
}

func (e *missingDependencyError) Error() string { return e.err.Error() }
func (e *missingDependencyError) Unwrap() error { return e.err }

// specError marks a reconcile error caused by the spec, not the cluster.
// reason, when set, is the Degraded condition's and the event's reason.
type specError struct {
	reason string
	err    error
}

func (e *specError) Error() string { return e.err.Error() }
func (e *specError) Unwrap() error { return e.err }

// finalize applies the persistence retention policy and releases the
// SemanticRouter. Owned objects are removed by the garbage collector through
// their owner references; a retained claim is orphaned first so it stays.
func (r *Reconciler) finalize(ctx context.Context, sr *vllmv1alpha1.SemanticRouter) error {
	r.memo.clear(sr.UID, "")
	if !controllerutil.ContainsFinalizer(sr, vllmv1alpha1.Finalizer) {
		return nil
	}
	// The claim is orphaned whatever persistence says now: one created
	// before persistence was turned off still holds data.
	if retentionPolicy(sr) == vllmv1alpha1.RetentionRetain {
		if err := r.orphanPVC(ctx, sr); err != nil {
			return fmt.Errorf("finalizing: %w", err)
		}
	}
	patch := client.MergeFromWithOptions(sr.DeepCopy(), client.MergeFromWithOptimisticLock{})
	controllerutil.RemoveFinalizer(sr, vllmv1alpha1.Finalizer)
	if err := r.Client.Patch(ctx, sr, patch); err != nil {
		return fmt.Errorf("removing finalizer: %w", client.IgnoreNotFound(err))
	}
	r.Recorder.Eventf(sr, nil, corev1.EventTypeNormal, reasonFinalized, "Delete",
		"owned objects are left to garbage collection; persistence retention policy %s applied", retentionPolicy(sr))
	return nil
}

// orphanPVC removes the SemanticRouter's owner reference from its claim.
func (r *Reconciler) orphanPVC(ctx context.Context, sr *vllmv1alpha1.SemanticRouter) error {
	pvc := &corev1.PersistentVolumeClaim{}
	if err := r.Client.Get(ctx, client.ObjectKey{Namespace: sr.Namespace, Name: ownedPVCName(sr)}, pvc); err != nil {
		return client.IgnoreNotFound(err)
	}
	if !metav1.IsControlledBy(pvc, sr) {
		return nil
	}
	patch := client.MergeFromWithOptions(pvc.DeepCopy(), client.MergeFromWithOptimisticLock{})
	if err := controllerutil.RemoveControllerReference(sr, pvc, r.Client.Scheme()); err != nil {
		return fmt.Errorf("persistentvolumeclaim %s: %w", pvc.Name, err)
	}
	// The mark lets a SemanticRouter re-created under this name take the
	// claim back; without it the claim would be a name conflict.
	pvc.SetAnnotations(mergeLabels(pvc.GetAnnotations(), map[string]string{annotationRetainedFrom: sr.Name}))
	if err := r.Client.Patch(ctx, pvc, patch); err != nil {
		return fmt.Errorf("persistentvolumeclaim %s: %w", pvc.Name, err)
	}
	return nil
}
