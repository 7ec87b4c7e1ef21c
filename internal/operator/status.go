package operator

import (
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
)

// setDeploymentStatus writes phase, replica counts and the Available and
// Progressing conditions from the router Deployment (nil when it does not
// exist), every condition stamped with generation:
//
//	Deployment missing -> Pending, Available=False
//	no ready replica   -> Pending, Available=False
//	some ready         -> Progressing, Available=False, Progressing=True
//	all ready          -> Running, Available=True, Progressing removed
//
// It does not touch observedGeneration or Degraded: those depend on whether
// the whole reconcile succeeded.
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
	ready := dep.Status.ReadyReplicas
	st.Replicas, st.ReadyReplicas = dep.Status.Replicas, ready
	counts := fmt.Sprintf("%d/%d replicas ready", ready, desired)

	switch {
	case ready == 0:
		st.Phase = vllmv1alpha1.PhasePending
		available.Status, available.Reason, available.Message = metav1.ConditionFalse, reasonNoReplicasReady, counts
		meta.RemoveStatusCondition(&st.Conditions, vllmv1alpha1.ConditionProgressing)
	case ready < desired:
		st.Phase = vllmv1alpha1.PhaseProgressing
		available.Status, available.Reason, available.Message = metav1.ConditionFalse, reasonReplicasNotReady, counts
		meta.SetStatusCondition(&st.Conditions, metav1.Condition{
			Type:               vllmv1alpha1.ConditionProgressing,
			Status:             metav1.ConditionTrue,
			Reason:             reasonRollingOut,
			Message:            counts,
			ObservedGeneration: generation,
		})
	default:
		st.Phase = vllmv1alpha1.PhaseRunning
		available.Status, available.Reason, available.Message = metav1.ConditionTrue, reasonAllReplicasReady, counts
		meta.RemoveStatusCondition(&st.Conditions, vllmv1alpha1.ConditionProgressing)
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
		Reason:             reasonReconcileFailed,
		Message:            err.Error(),
		ObservedGeneration: generation,
	})
}
