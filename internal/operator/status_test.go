package operator

import (
	"errors"
	"fmt"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	vllmv1alpha1 "github.com/semantic-router/semantic-router/api/v1alpha1"
)

// deployment is a Deployment at generation 2 that observed it, with every
// replica updated.
func deployment(desired, replicas, ready int32) *appsv1.Deployment {
	return rollout(desired, replicas, replicas, ready, 2)
}

// rollout is a Deployment at generation 2 whose controller observed
// generation observed and reports the counts.
func rollout(desired, replicas, updated, ready int32, observed int64) *appsv1.Deployment {
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Generation: 2},
		Spec:       appsv1.DeploymentSpec{Replicas: ptr.To(desired)},
		Status: appsv1.DeploymentStatus{ObservedGeneration: observed, Replicas: replicas, UpdatedReplicas: updated,
			ReadyReplicas: ready},
	}
}

// TestStatusConditionsReportReconciledGeneration walks the guide's
// scenarios. Each starts from the status the previous generation left
// (generation 1, Running) unless it is the initial one, and checks that
// every condition names the generation now reconciled.
func TestStatusConditionsReportReconciledGeneration(t *testing.T) {
	running := func() vllmv1alpha1.SemanticRouterStatus {
		st := vllmv1alpha1.SemanticRouterStatus{}
		setDeploymentStatus(&st, 1, deployment(2, 2, 2))
		markReconciled(&st, 1)
		return st
	}
	tests := []struct {
		name        string
		prior       vllmv1alpha1.SemanticRouterStatus
		dep         *appsv1.Deployment
		phase       vllmv1alpha1.Phase
		available   metav1.ConditionStatus
		reason      string
		progressing bool
		ready       int32
	}{
		{name: "initial", prior: vllmv1alpha1.SemanticRouterStatus{}, dep: deployment(1, 0, 0),
			phase: vllmv1alpha1.PhasePending, available: metav1.ConditionFalse, reason: reasonNoReplicasReady},
		{name: "missing", prior: running(), dep: nil,
			phase: vllmv1alpha1.PhasePending, available: metav1.ConditionFalse, reason: reasonDeploymentNotFound},
		{name: "pending", prior: running(), dep: deployment(3, 3, 0),
			phase: vllmv1alpha1.PhasePending, available: metav1.ConditionFalse, reason: reasonNoReplicasReady},
		{name: "progressing", prior: running(), dep: deployment(3, 3, 1),
			phase: vllmv1alpha1.PhaseProgressing, available: metav1.ConditionFalse, reason: reasonReplicasNotReady, progressing: true, ready: 1},
		{name: "running", prior: running(), dep: deployment(3, 3, 3),
			phase: vllmv1alpha1.PhaseRunning, available: metav1.ConditionTrue, reason: reasonAllReplicasReady, ready: 3},
		{name: "mid-rollout: old pods ready, new ones not", prior: running(), dep: rollout(3, 4, 1, 3, 2),
			phase: vllmv1alpha1.PhaseProgressing, available: metav1.ConditionFalse, reason: reasonReplicasNotReady, progressing: true, ready: 3},
		{name: "new generation not observed yet", prior: running(), dep: rollout(3, 3, 3, 3, 1),
			phase: vllmv1alpha1.PhaseProgressing, available: metav1.ConditionFalse, reason: reasonReplicasNotReady, progressing: true, ready: 3},
	}
	const gen = 2
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := tt.prior
			setDeploymentStatus(&st, gen, tt.dep)
			if st.Phase != tt.phase || st.ReadyReplicas != tt.ready {
				t.Errorf("phase/ready = %s/%d, want %s/%d", st.Phase, st.ReadyReplicas, tt.phase, tt.ready)
			}
			av := meta.FindStatusCondition(st.Conditions, vllmv1alpha1.ConditionAvailable)
			if av == nil || av.Status != tt.available || av.Reason != tt.reason {
				t.Fatalf("Available = %+v, want %s/%s", av, tt.available, tt.reason)
			}
			if got := meta.FindStatusCondition(st.Conditions, vllmv1alpha1.ConditionProgressing) != nil; got != tt.progressing {
				t.Errorf("Progressing present = %t, want %t", got, tt.progressing)
			}
			for _, c := range st.Conditions {
				if c.ObservedGeneration != gen {
					t.Errorf("condition %s observedGeneration = %d, want %d", c.Type, c.ObservedGeneration, gen)
				}
			}
			// Conditions describe generation 2, but it is not reconciled
			// until markReconciled says so.
			if want := tt.prior.ObservedGeneration; st.ObservedGeneration != want {
				t.Errorf("observedGeneration = %d before markReconciled, want %d", st.ObservedGeneration, want)
			}
			markReconciled(&st, gen)
			if st.ObservedGeneration != gen {
				t.Errorf("observedGeneration = %d, want %d", st.ObservedGeneration, gen)
			}
		})
	}
}

func TestDegradedKeepsObservedGeneration(t *testing.T) {
	st := vllmv1alpha1.SemanticRouterStatus{}
	markReconciled(&st, 1)
	markDegraded(&st, 2, errors.New("deployment router: boom"))
	if c := meta.FindStatusCondition(st.Conditions, vllmv1alpha1.ConditionDegraded); c.Reason != reasonReconcileFailed {
		t.Errorf("reason = %s", c.Reason)
	}
	markDegraded(&st, 2, &specError{reasonInvalidConfig, errors.New("deployment router: boom")})
	if st.ObservedGeneration != 1 {
		t.Errorf("observedGeneration = %d, want 1", st.ObservedGeneration)
	}
	c := meta.FindStatusCondition(st.Conditions, vllmv1alpha1.ConditionDegraded)
	if c == nil || c.Status != metav1.ConditionTrue || c.Reason != reasonInvalidConfig ||
		c.Message != "deployment router: boom" || c.ObservedGeneration != 2 {
		t.Fatalf("Degraded = %+v", c)
	}
	markReconciled(&st, 2)
	if meta.FindStatusCondition(st.Conditions, vllmv1alpha1.ConditionDegraded) != nil {
		t.Error("Degraded still present after a successful reconcile")
	}
}

// TestFailedKind: the operator's log line names the kind of the owned object a reconcile
// failed on, as in "Failed to reconcile Deployment", and SemanticRouter otherwise.
func TestFailedKind(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		err  error
		want string
	}{
		{&objectError{kind: "Deployment", err: errors.New("deployment router: conflict")}, "Deployment"},
		{fmt.Errorf("reconciling: %w", &objectError{kind: "Service", err: errors.New("service router: forbidden")}), "Service"},
		{&specError{reason: reasonInvalidConfig, err: errors.New("spec.config: bad")}, "SemanticRouter"},
		{errors.New("updating status: conflict"), "SemanticRouter"},
	} {
		if got := failedKind(tt.err); got != tt.want {
			t.Errorf("failedKind(%v) = %q, want %q", tt.err, got, tt.want)
		}
	}
}
