package operator

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"strconv"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
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

// listenPorts are the container ports the router listens on: each Service port's
// targetPort, or the router's default for it. traffic is the inference listener in
// standalone mode and the Envoy external processor in extproc mode.
type listenPorts struct {
	traffic, api, metrics int32
}

func routerPorts(sr *vllmv1alpha1.SemanticRouter, mode vllmv1alpha1.GatewayMode) listenPorts {
	s := sr.Spec.Service
	traffic := targetPort(s.HTTP, vllmv1alpha1.DefaultHTTPPort)
	if mode == vllmv1alpha1.GatewayModeIntegration {
		traffic = targetPort(s.GRPC, vllmv1alpha1.DefaultGRPCPort)
	}
	return listenPorts{
		traffic: traffic,
		api:     targetPort(s.API, vllmv1alpha1.DefaultAPIPort),
		metrics: targetPort(s.Metrics, vllmv1alpha1.DefaultMetricsPort),
	}
}

func targetPort(p vllmv1alpha1.PortSpec, def int32) int32 {
	if p.TargetPort != 0 {
		return p.TargetPort
	}
	return def
}

// checkListenPorts refuses target ports the router could not open together: its three
// listeners run whether or not their Service ports are enabled, and two on one port
// would stop it at start-up.
func checkListenPorts(sr *vllmv1alpha1.SemanticRouter, mode vllmv1alpha1.GatewayMode) error {
	p := routerPorts(sr, mode)
	traffic := "spec.service.http"
	if mode == vllmv1alpha1.GatewayModeIntegration {
		traffic = "spec.service.grpc"
	}
	named := []struct {
		field string
		port  int32
	}{{traffic, p.traffic}, {"spec.service.api", p.api}, {"spec.service.metrics", p.metrics}}
	for i, a := range named {
		for _, b := range named[i+1:] {
			if a.port == b.port {
				return fmt.Errorf("%s and %s both have the router listen on container port %d: give one another targetPort", a.field, b.field, a.port)
			}
		}
	}
	return nil
}

// routerArgs are the router's flags for a gateway mode and its listen ports. Standalone
// serves its own listener on every interface; gateway integration runs the Envoy external
// processor instead. A port other than the router's default is passed as a flag.
func routerArgs(mode vllmv1alpha1.GatewayMode, p listenPorts) []string {
	args := []string{"-config", configDir + "/" + configKey}
	if mode == vllmv1alpha1.GatewayModeIntegration {
		args = append(args, "-gateway", "extproc")
		if p.traffic != vllmv1alpha1.DefaultGRPCPort {
			args = append(args, "-grpc-address", anyHost(p.traffic))
		}
	} else {
		listener := "0.0.0.0"
		if p.traffic != vllmv1alpha1.DefaultHTTPPort {
			listener = anyHost(p.traffic)
		}
		args = append(args, "-gateway", "standalone", "-listener-address", listener)
	}
	if p.api != vllmv1alpha1.DefaultAPIPort {
		args = append(args, "-api-address", anyHost(p.api))
	}
	if p.metrics != vllmv1alpha1.DefaultMetricsPort {
		args = append(args, "-metrics-address", anyHost(p.metrics))
	}
	return args
}

// anyHost is the listen address of port on every interface.
func anyHost(port int32) string {
	return "0.0.0.0:" + strconv.Itoa(int(port))
}

// containerPorts declares the ports the router listens on in mode: the
// OpenAI listener (8801 by default) in standalone mode or the external processor
// (50051) in extproc mode (never both: the other is not opened), then the
// management API and metrics.
func containerPorts(mode vllmv1alpha1.GatewayMode, p listenPorts) []corev1.ContainerPort {
	traffic := corev1.ContainerPort{Name: portNameHTTP, ContainerPort: p.traffic, Protocol: corev1.ProtocolTCP}
	if mode == vllmv1alpha1.GatewayModeIntegration {
		traffic.Name = portNameGRPC
	}
	return []corev1.ContainerPort{
		traffic,
		{Name: portNameAPI, ContainerPort: p.api, Protocol: corev1.ProtocolTCP},
		{Name: portNameMetrics, ContainerPort: p.metrics, Protocol: corev1.ProtocolTCP},
	}
}

// shutdownMargin is the time a router pod is given to stop beyond its shutdown_delay and
// shutdown_timeout: the second in which requests still running are told the router is
// shutting down, the management and metrics listeners' stop, and the flush of traces.
const shutdownMargin = 10 * time.Second

// desiredPodTemplate is the router pod for the rendered config (by hash),
// gateway mode, the environment variables carrying discovered backends'
// credentials (after spec.env) and the model artifacts' cache and init
// container (artifacts.go). Spec overrides replace the defaults whole,
// never merge. The pod's termination grace period covers the router's
// shutdown, so that the kubelet does not kill it in the middle of its drain.
func desiredPodTemplate(sr *vllmv1alpha1.SemanticRouter, mode vllmv1alpha1.GatewayMode, rc renderedConfig) corev1.PodTemplateSpec {
	hash, backendEnv, artifacts := rc.hash, rc.env, rc.artifacts
	s := &sr.Spec
	annotations := make(map[string]string, len(s.PodAnnotations)+1)
	maps.Copy(annotations, s.PodAnnotations)
	annotations[annotationConfigHash] = hash

	ports := routerPorts(sr, mode)
	args := routerArgs(mode, ports)
	if artifacts.pulledBefore() {
		// The init container downloaded the artifacts: the router only
		// checks its cache, and a missing file stops it at once.
		args = append(args, "-offline")
	}
	c := corev1.Container{
		Name:            containerName,
		Image:           imageRef(sr),
		ImagePullPolicy: s.Image.PullPolicy,
		Args:            append(args, s.Args...),
		Ports:           containerPorts(mode, ports),
		Env:             append(containerEnv(s.Env), backendEnv...),
		Resources:       s.Resources,
		LivenessProbe:   probeOr(s.LivenessProbe, "/health", ports.api),
		ReadinessProbe:  probeOr(s.ReadinessProbe, "/ready", ports.api),
		StartupProbe:    withProbeDefaults(s.StartupProbe),
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
		ServiceAccountName:            serviceAccountName(sr),
		ImagePullSecrets:              s.ImagePullSecrets,
		NodeSelector:                  s.NodeSelector,
		Tolerations:                   s.Tolerations,
		Affinity:                      s.Affinity,
		TopologySpreadConstraints:     s.TopologySpreadConstraints,
		SecurityContext:               s.PodSecurityContext,
		TerminationGracePeriodSeconds: ptr.To(int64((rc.stop + shutdownMargin + time.Second - 1) / time.Second)),
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
	addArtifacts(sr, artifacts, &pod, &c)
	pod.Containers = []corev1.Container{c}

	return corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: objectLabels(sr), Annotations: annotations},
		Spec:       pod,
	}
}

// probeOr returns p, or an HTTP GET of path on the management port, with
// the API server's defaults written out.
func probeOr(p *corev1.Probe, path string, apiPort int32) *corev1.Probe {
	if p != nil {
		return withProbeDefaults(p)
	}
	return &corev1.Probe{
		ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{
			Path:   path,
			Port:   intstr.FromInt32(apiPort),
			Scheme: corev1.URISchemeHTTP,
		}},
		InitialDelaySeconds: 5,
		PeriodSeconds:       10,
		TimeoutSeconds:      3,
		SuccessThreshold:    1,
		FailureThreshold:    3,
	}
}

// withProbeDefaults returns a copy of p with the thresholds the API server
// would default, so that comparing it with the stored Deployment sees no
// difference where there is none.
func withProbeDefaults(p *corev1.Probe) *corev1.Probe {
	if p == nil {
		return nil
	}
	p = p.DeepCopy()
	for _, f := range []struct {
		v   *int32
		def int32
	}{{&p.TimeoutSeconds, 1}, {&p.PeriodSeconds, 10}, {&p.SuccessThreshold, 1}, {&p.FailureThreshold, 3}} {
		if *f.v == 0 {
			*f.v = f.def
		}
	}
	return p
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
//
// The pod template is replaced only when it differs: when the desired
// template changed since the last write (its hash, kept in an annotation on
// the Deployment) or when a field the operator sets was edited. Fields that
// the API server defaulted are not differences, so an unchanged spec sends
// no Update. Annotations that `kubectl rollout restart` adds
// (kubectl.kubernetes.io/*) are carried over, so a restart rolls once.
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
	hash := templateHash(tmpl)
	if dep.Annotations[annotationTemplateHash] == hash && equality.Semantic.DeepDerivative(tmpl, dep.Spec.Template) &&
		sameLists(&tmpl.Spec, &dep.Spec.Template.Spec) {
		return
	}
	for k, v := range dep.Spec.Template.Annotations {
		if strings.HasPrefix(k, kubectlAnnotationPrefix) {
			if _, ours := tmpl.Annotations[k]; !ours {
				tmpl.Annotations[k] = v
			}
		}
	}
	dep.Spec.Template = tmpl
	dep.Annotations = mergeLabels(dep.Annotations, map[string]string{annotationTemplateHash: hash})
}

// kubectlAnnotationPrefix marks pod template annotations that kubectl
// writes, such as kubectl.kubernetes.io/restartedAt.
const kubectlAnnotationPrefix = "kubectl.kubernetes.io/"

// templateHash is a digest of the desired pod template.
func templateHash(tmpl corev1.PodTemplateSpec) string {
	b, err := json.Marshal(tmpl)
	if err != nil {
		// A PodTemplateSpec always marshals; an empty hash only forces a write.
		return ""
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

func desiredReplicas(sr *vllmv1alpha1.SemanticRouter) int32 {
	if sr.Spec.Replicas == nil {
		return 1
	}
	return *sr.Spec.Replicas
}

// sameLists reports whether each list of the pod spec the operator writes has as many items
// in actual as in desired. equality.Semantic.DeepDerivative lets the API server's defaults
// stand, and so also lets items appended to a list stand: a flag added to the router's
// args, a plain env var next to the Secret references, a sidecar. Those are edits to undo.
func sameLists(desired, actual *corev1.PodSpec) bool {
	if len(desired.Containers) != len(actual.Containers) || len(desired.InitContainers) != len(actual.InitContainers) ||
		len(desired.Volumes) != len(actual.Volumes) {
		return false
	}
	same := func(d, a *corev1.Container) bool {
		return len(d.Command) == len(a.Command) && len(d.Args) == len(a.Args) && len(d.Env) == len(a.Env) &&
			len(d.EnvFrom) == len(a.EnvFrom) && len(d.Ports) == len(a.Ports) && len(d.VolumeMounts) == len(a.VolumeMounts)
	}
	for i := range desired.Containers {
		if !same(&desired.Containers[i], &actual.Containers[i]) {
			return false
		}
	}
	for i := range desired.InitContainers {
		if !same(&desired.InitContainers[i], &actual.InitContainers[i]) {
			return false
		}
	}
	return true
}
