package operator

import (
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"

	vllmv1alpha1 "github.com/semantic-router/semantic-router/api/v1alpha1"
)

// mutateHPA lays the desired HorizontalPodAutoscaler over hpa: it scales the
// router Deployment on CPU and, when asked, memory utilisation.
func mutateHPA(hpa *autoscalingv2.HorizontalPodAutoscaler, sr *vllmv1alpha1.SemanticRouter) {
	hpa.Labels = mergeLabels(hpa.Labels, objectLabels(sr))
	metrics := []autoscalingv2.MetricSpec{resourceMetric(corev1.ResourceCPU, hpaTargetCPU(sr))}
	if m := sr.Spec.Autoscaling.TargetMemoryUtilizationPercentage; m != nil {
		metrics = append(metrics, resourceMetric(corev1.ResourceMemory, *m))
	}
	hpa.Spec = autoscalingv2.HorizontalPodAutoscalerSpec{
		ScaleTargetRef: autoscalingv2.CrossVersionObjectReference{
			APIVersion: "apps/v1",
			Kind:       "Deployment",
			Name:       sr.Name,
		},
		MinReplicas: ptr.To(hpaMinReplicas(sr)),
		MaxReplicas: hpaMaxReplicas(sr),
		Metrics:     metrics,
		Behavior:    hpa.Spec.Behavior,
	}
}

func resourceMetric(name corev1.ResourceName, percent int32) autoscalingv2.MetricSpec {
	return autoscalingv2.MetricSpec{
		Type: autoscalingv2.ResourceMetricSourceType,
		Resource: &autoscalingv2.ResourceMetricSource{
			Name: name,
			Target: autoscalingv2.MetricTarget{
				Type:               autoscalingv2.UtilizationMetricType,
				AverageUtilization: ptr.To(percent),
			},
		},
	}
}
