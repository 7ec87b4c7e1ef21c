package operator

import (
	"errors"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	vllmv1alpha1 "github.com/semantic-router/semantic-router/api/v1alpha1"
)

// Condition reasons.
const (
	reasonDeploymentNotFound = "DeploymentNotFound"
	reasonNoReplicasReady    = "NoReplicasReady"
	reasonReplicasNotReady   = "ReplicasNotReady"
	reasonRollingOut         = "RollingOut"
	reasonAllReplicasReady   = "AllReplicasReady"
	reasonReconcileFailed    = "ReconcileFailed"
	reasonInvalidConfig      = "InvalidConfig"
	// reasonInvalidSpec: the spec makes an object the API server refuses.
	reasonInvalidSpec = "InvalidSpec"
)

// setDeploymentStatus writes phase, replica counts and the Available and
// Progressing conditions from the router Deployment (nil when it does not
// exist), every condition stamped with generation, the generation the
// Deployment was last built from (after a refused update, the last applied
// one, 0 when none ever was):
//
//	Deployment missing                        -> Pending, Available=False
//	no ready replica                          -> Pending, Available=False
//	some ready, or rollout not complete       -> Progressing, Available=False, Progressing=True
//	latest generation observed, all replicas
//	updated and ready, no old replica left    -> Running, Available=True, Progressing removed
//
// Old pods that are still ready while a rollout replaces them do not make
// the router Running: the Deployment must have observed its latest
// generation and every replica must run the new template. It does not
// touch observedGeneration or Degraded: those depend on whether the whole
// reconcile succeeded.
func setDeploymentStatus(st *vllmv1alpha1.SemanticRouterStatus, generation int64, dep *appsv1.Deployment) {
	available := metav1.Condition{Type: vllmv1alpha1.ConditionAvailable, ObservedGeneration: generation}
	if dep == nil {
		st.Replicas, st.ReadyReplicas = 0, 0
		st.Phase = vllmv1alpha1.PhasePending
		available.Status, available.Reason = metav1.ConditionFalse, reasonDeploymentNotFound
		available.Message = "the router Deployment does not exist yet"
		meta.SetStatusCondition(&st.Conditions, available)
		meta.RemoveStatusCondition(&st.Conditions, vllmv1alpha1.ConditionProgressing)
		return
	}

	desired := int32(1)
	if dep.Spec.Replicas != nil {
		desired = *dep.Spec.Replicas
	}
	ds := dep.Status
	st.Replicas, st.ReadyReplicas = ds.Replicas, ds.ReadyReplicas
	observed := ds.ObservedGeneration >= dep.Generation
	complete := observed && ds.UpdatedReplicas == desired && ds.Replicas == desired && ds.ReadyReplicas >= desired
	counts := fmt.Sprintf("%d/%d replicas ready, %d updated", ds.ReadyReplicas, desired, ds.UpdatedReplicas)
	if !observed {
		counts += fmt.Sprintf("; the Deployment has not observed generation %d yet", dep.Generation)
	}

	switch {
	case complete:
		st.Phase = vllmv1alpha1.PhaseRunning
		available.Status, available.Reason, available.Message = metav1.ConditionTrue, reasonAllReplicasReady, counts
		meta.RemoveStatusCondition(&st.Conditions, vllmv1alpha1.ConditionProgressing)
	case ds.ReadyReplicas == 0:
		st.Phase = vllmv1alpha1.PhasePending
		available.Status, available.Reason, available.Message = metav1.ConditionFalse, reasonNoReplicasReady, counts
		meta.RemoveStatusCondition(&st.Conditions, vllmv1alpha1.ConditionProgressing)
	default:
		st.Phase = vllmv1alpha1.PhaseProgressing
		available.Status, available.Reason, available.Message = metav1.ConditionFalse, reasonReplicasNotReady, counts
		meta.SetStatusCondition(&st.Conditions, metav1.Condition{
			Type:               vllmv1alpha1.ConditionProgressing,
			Status:             metav1.ConditionTrue,
			Reason:             reasonRollingOut,
			Message:            counts,
			ObservedGeneration: generation,
		})
	}
	meta.SetStatusCondition(&st.Conditions, available)
}

// markReconciled records that generation was reconciled successfully: it is
// the only place observedGeneration is written, and it clears Degraded.
func markReconciled(st *vllmv1alpha1.SemanticRouterStatus, generation int64) {
	st.ObservedGeneration = generation
	meta.RemoveStatusCondition(&st.Conditions, vllmv1alpha1.ConditionDegraded)
}

// markDegraded records a failed reconcile of generation with its reason,
// leaving observedGeneration at the last generation that succeeded.
func markDegraded(st *vllmv1alpha1.SemanticRouterStatus, generation int64, err error) {
	meta.SetStatusCondition(&st.Conditions, metav1.Condition{
		Type:               vllmv1alpha1.ConditionDegraded,
		Status:             metav1.ConditionTrue,
		Reason:             failureReason(err),
		Message:            err.Error(),
		ObservedGeneration: generation,
	})
}

// setBackendsResolved reports discovery: True when every endpoint resolved,
// False naming each failure. Without spec.vllmEndpoints it is removed.
func setBackendsResolved(st *vllmv1alpha1.SemanticRouterStatus, generation int64, total int, failed []backendFailure) {
	if total == 0 {
		meta.RemoveStatusCondition(&st.Conditions, vllmv1alpha1.ConditionBackendsResolved)
		return
	}
	c := metav1.Condition{Type: vllmv1alpha1.ConditionBackendsResolved, ObservedGeneration: generation}
	switch {
	case len(failed) == 0:
		c.Status, c.Reason = metav1.ConditionTrue, reasonBackendsResolved
		c.Message = fmt.Sprintf("%d/%d backends resolved", total, total)
	default:
		c.Status, c.Reason = metav1.ConditionFalse, reasonSomeBackendsFailed
		if len(failed) == total {
			c.Reason = reasonNoBackendResolved
		}
		c.Message = fmt.Sprintf("%d/%d backends resolved; skipped: %s", total-len(failed), total, joinFailures(failed))
	}
	meta.SetStatusCondition(&st.Conditions, c)
}

func joinFailures(failed []backendFailure) string {
	s := ""
	for i, f := range failed {
		if i > 0 {
			s += "; "
		}
		s += f.String()
	}
	return s
}

// failureReason is the Degraded reason for err: the reason a typed reconcile
// error carries, else ReconcileFailed.
func failureReason(err error) string {
	var spec *specError
	if errors.As(err, &spec) && spec.reason != "" {
		return spec.reason
	}
	var dep *missingDependencyError
	if errors.As(err, &dep) && dep.reason != "" {
		return dep.reason
	}
	return reasonReconcileFailed
}
