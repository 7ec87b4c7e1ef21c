package operator

import (
	"maps"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	vllmv1alpha1 "github.com/semantic-router/semantic-router/api/v1alpha1"
)

// Container port names; the Service and probes refer to them by name.
const (
	portNameHTTP    = "http"
	portNameAPI     = "api"
	portNameGRPC    = "grpc"
	portNameMetrics = "metrics"

	volumeConfig = "config"
	volumeData   = "data"
)

// routerArgs are the router's flags for a gateway mode. Standalone serves its
// own listener on every interface; gateway integration runs the Envoy
// external processor instead.
func routerArgs(mode vllmv1alpha1.GatewayMode) []string {
	args := []string{"-config", configDir + "/" + configKey}
	if mode == vllmv1alpha1.GatewayModeIntegration {
		return append(args, "-gateway", "extproc")
	}
	return append(args, "-gateway", "standalone", "-listener-address", "0.0.0.0")
}

// desiredPodTemplate is the router pod for the rendered config (by hash) and
// gateway mode. Spec overrides replace the defaults whole, never merge.
func desiredPodTemplate(sr *vllmv1alpha1.SemanticRouter, hash string, mode vllmv1alpha1.GatewayMode) corev1.PodTemplateSpec {
	s := &sr.Spec
	annotations := make(map[string]string, len(s.PodAnnotations)+1)
	maps.Copy(annotations, s.PodAnnotations)
	annotations[annotationConfigHash] = hash

	c := corev1.Container{
		Name:            containerName,
		Image:           imageRef(sr),
		ImagePullPolicy: s.Image.PullPolicy,
		Args:            append(routerArgs(mode), s.Args...),
		Ports: []corev1.ContainerPort{
			{Name: portNameHTTP, ContainerPort: vllmv1alpha1.DefaultHTTPPort, Protocol: corev1.ProtocolTCP},
			{Name: portNameAPI, ContainerPort: vllmv1alpha1.DefaultAPIPort, Protocol: corev1.ProtocolTCP},
			{Name: portNameGRPC, ContainerPort: vllmv1alpha1.DefaultGRPCPort, Protocol: corev1.ProtocolTCP},
			{Name: portNameMetrics, ContainerPort: vllmv1alpha1.DefaultMetricsPort, Protocol: corev1.ProtocolTCP},
		},
		Env:             containerEnv(s.Env),
		Resources:       s.Resources,
		LivenessProbe:   probeOr(s.LivenessProbe, "/health"),
		ReadinessProbe:  probeOr(s.ReadinessProbe, "/ready"),
		StartupProbe:    s.StartupProbe,
		SecurityContext: s.SecurityContext,
		VolumeMounts: []corev1.VolumeMount{
			{Name: volumeConfig, MountPath: configDir, ReadOnly: true},
		},
	}
	if c.SecurityContext == nil {
		c.SecurityContext = &corev1.SecurityContext{
			AllowPrivilegeEscalation: ptr.To(false),
			Capabilities:             &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}},
		}
	}

	pod := corev1.PodSpec{
		ServiceAccountName:        serviceAccountName(sr),
		ImagePullSecrets:          s.ImagePullSecrets,
		NodeSelector:              s.NodeSelector,
		Tolerations:               s.Tolerations,
		Affinity:                  s.Affinity,
		TopologySpreadConstraints: s.TopologySpreadConstraints,
		SecurityContext:           s.PodSecurityContext,
		Volumes: []corev1.Volume{{
			Name: volumeConfig,
			VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
				LocalObjectReference: corev1.LocalObjectReference{Name: configMapName(sr)},
			}},
		}},
	}
	if pod.SecurityContext == nil {
		pod.SecurityContext = &corev1.PodSecurityContext{
			RunAsNonRoot:   ptr.To(true),
			SeccompProfile: &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault},
		}
	}
	if persistenceEnabled(sr) {
		pod.Volumes = append(pod.Volumes, corev1.Volume{
			Name: volumeData,
			VolumeSource: corev1.VolumeSource{PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{
				ClaimName: pvcName(sr),
			}},
		})
		c.VolumeMounts = append(c.VolumeMounts, corev1.VolumeMount{Name: volumeData, MountPath: mountPath(sr)})
	}
	pod.Containers = []corev1.Container{c}

	return corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: objectLabels(sr), Annotations: annotations},
		Spec:       pod,
	}
}

// probeOr returns p, or an HTTP GET of path on the management port.
func probeOr(p *corev1.Probe, path string) *corev1.Probe {
	if p != nil {
		return p
	}
	return &corev1.Probe{
		ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{
			Path: path,
			Port: intstr.FromInt32(vllmv1alpha1.DefaultAPIPort),
		}},
		InitialDelaySeconds: 5,
		PeriodSeconds:       10,
		TimeoutSeconds:      3,
		FailureThreshold:    3,
	}
}

func containerEnv(in []vllmv1alpha1.EnvVar) []corev1.EnvVar {
	if len(in) == 0 {
		return nil
	}
	out := make([]corev1.EnvVar, 0, len(in))
	for _, e := range in {
		out = append(out, corev1.EnvVar{Name: e.Name, Value: e.Value, ValueFrom: e.ValueFrom})
	}
	return out
}

// mutateDeployment lays the desired state over dep. The selector is set only
// on create (it is immutable). With autoscaling on, the replica count is the
// HPA's: it is set to minReplicas on create and left alone afterwards.
func mutateDeployment(dep *appsv1.Deployment, sr *vllmv1alpha1.SemanticRouter, tmpl corev1.PodTemplateSpec) {
	dep.Labels = mergeLabels(dep.Labels, objectLabels(sr))
	if dep.CreationTimestamp.IsZero() {
		dep.Spec.Selector = &metav1.LabelSelector{MatchLabels: selectorLabels(sr)}
	}
	switch {
	case !autoscalingEnabled(sr):
		dep.Spec.Replicas = ptr.To(desiredReplicas(sr))
	case dep.Spec.Replicas == nil:
		dep.Spec.Replicas = ptr.To(hpaMinReplicas(sr))
	}
	dep.Spec.Template = tmpl
}

func desiredReplicas(sr *vllmv1alpha1.SemanticRouter) int32 {
	if sr.Spec.Replicas == nil {
		return 1
	}
	return *sr.Spec.Replicas
}
