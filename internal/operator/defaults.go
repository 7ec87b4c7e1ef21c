package operator

import (
	vllmv1alpha1 "github.com/semantic-router/semantic-router/api/v1alpha1"
)

// The CRD defaults these fields on the server; the helpers below apply the
// same defaults to zero values so the builders are correct for objects that
// never passed through the API server (unit tests, older stored objects).

func persistenceEnabled(sr *vllmv1alpha1.SemanticRouter) bool {
	e := sr.Spec.Persistence.Enabled
	return e == nil || *e
}

func mountPath(sr *vllmv1alpha1.SemanticRouter) string {
	if p := sr.Spec.Persistence.MountPath; p != "" {
		return p
	}
	return "/data"
}

func retentionPolicy(sr *vllmv1alpha1.SemanticRouter) vllmv1alpha1.RetentionPolicy {
	if p := sr.Spec.Persistence.RetentionPolicy; p != "" {
		return p
	}
	return vllmv1alpha1.RetentionRetain
}

func autoscalingEnabled(sr *vllmv1alpha1.SemanticRouter) bool {
	return sr.Spec.Autoscaling.Enabled
}

func hpaMinReplicas(sr *vllmv1alpha1.SemanticRouter) int32 {
	if m := sr.Spec.Autoscaling.MinReplicas; m > 0 {
		return m
	}
	return vllmv1alpha1.DefaultHPAMinReplicas
}

func hpaMaxReplicas(sr *vllmv1alpha1.SemanticRouter) int32 {
	if m := sr.Spec.Autoscaling.MaxReplicas; m > 0 {
		return m
	}
	return vllmv1alpha1.DefaultHPAMaxReplicas
}

func hpaTargetCPU(sr *vllmv1alpha1.SemanticRouter) int32 {
	if t := sr.Spec.Autoscaling.TargetCPUUtilizationPercentage; t > 0 {
		return t
	}
	return vllmv1alpha1.DefaultHPATargetCPU
}
