package v1alpha1

import (
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
)

// ImageSpec names the router image. A digest, when set, wins over the tag.
type ImageSpec struct {
	// +kubebuilder:validation:MaxLength=255
	// +optional
	Repository string `json:"repository,omitempty"`
	// +kubebuilder:validation:MaxLength=128
	// +optional
	Tag string `json:"tag,omitempty"`
	// Digest pins the image, e.g. sha256:0123...
	// +kubebuilder:validation:Pattern=`^sha256:[a-f0-9]{64}$`
	// +optional
	Digest string `json:"digest,omitempty"`
	// +kubebuilder:validation:Enum=Always;IfNotPresent;Never
	// +optional
	PullPolicy corev1.PullPolicy `json:"pullPolicy,omitempty"`
}

// ServiceAccountSpec chooses the pods' service account.
// +kubebuilder:validation:XValidation:rule="!has(self.create) || self.create || (has(self.name) && size(self.name) > 0)",message="serviceAccount.name is required when serviceAccount.create is false"
type ServiceAccountSpec struct {
	// Create makes the operator own a ServiceAccount. Defaults to true.
	// +optional
	Create *bool `json:"create,omitempty"`
	// Name of the account; defaults to the SemanticRouter's name.
	// +kubebuilder:validation:MaxLength=253
	// +optional
	Name string `json:"name,omitempty"`
	// Annotations on a created account (e.g. for workload identity).
	// +optional
	Annotations map[string]string `json:"annotations,omitempty"`
}

// ServiceSpec shapes the router Service. The traffic port is always exposed:
// inference (8801) in standalone mode, the Envoy external processor (50051)
// in gateway-integration mode; api and metrics can be turned off.
type ServiceSpec struct {
	// +kubebuilder:validation:Enum=ClusterIP;NodePort;LoadBalancer
	// +kubebuilder:default=ClusterIP
	// +optional
	Type corev1.ServiceType `json:"type,omitempty"`
	// Annotations on the Service.
	// +optional
	Annotations map[string]string `json:"annotations,omitempty"`
	// HTTP is the OpenAI-compatible inference port (default 8801), exposed
	// in standalone mode.
	// +optional
	HTTP PortSpec `json:"http,omitempty"`
	// API is the management port (default 8080). It never serves completions.
	// +optional
	API PortSpec `json:"api,omitempty"`
	// GRPC is the Envoy external processor port (default 50051), exposed in
	// gateway-integration mode.
	// +optional
	GRPC PortSpec `json:"grpc,omitempty"`
	// Metrics is the Prometheus port (default 9190).
	// +optional
	Metrics PortSpec `json:"metrics,omitempty"`
}

// PortSpec is one Service port. Zero values take the port's defaults.
type PortSpec struct {
	// Enabled defaults to true. The traffic port (http or grpc, by mode)
	// cannot be disabled.
	// +optional
	Enabled *bool `json:"enabled,omitempty"`
	// Port is the Service port.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=65535
	// +optional
	Port int32 `json:"port,omitempty"`
	// TargetPort is the container port, where the router is told to listen
	// (-listener-address, -grpc-address, -api-address or -metrics-address);
	// defaults to the router's port. Two listeners on one port are refused.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=65535
	// +optional
	TargetPort int32 `json:"targetPort,omitempty"`
	// +kubebuilder:validation:Enum=TCP;UDP;SCTP
	// +optional
	Protocol corev1.Protocol `json:"protocol,omitempty"`
	// AppProtocol is the Service port's appProtocol, which tells gateways and
	// meshes the protocol to speak to the port. On the http port,
	// kubernetes.io/h2c has a Gateway API implementation that supports it
	// speak HTTP/2 without TLS to the router (which serves it beside HTTP/1.1
	// unless spec.config sets server.h2c: false), carrying many requests and
	// streams over each connection. Unset by default.
	// +kubebuilder:validation:MaxLength=316
	// +optional
	AppProtocol string `json:"appProtocol,omitempty"`
}

// EnvVar is an environment variable of the router container: a plain value
// or a reference (valueFrom), never both.
// +kubebuilder:validation:XValidation:rule="!(has(self.value) && has(self.valueFrom))",message="env: set value or valueFrom, not both"
type EnvVar struct {
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`
	// +kubebuilder:validation:MaxLength=32768
	// +optional
	Value string `json:"value,omitempty"`
	// +optional
	ValueFrom *corev1.EnvVarSource `json:"valueFrom,omitempty"`
}

// AutoscalingSpec configures the HorizontalPodAutoscaler.
// +kubebuilder:validation:XValidation:rule="!has(self.minReplicas) || !has(self.maxReplicas) || self.minReplicas <= self.maxReplicas",message="autoscaling.minReplicas must be less than or equal to autoscaling.maxReplicas"
type AutoscalingSpec struct {
	// +kubebuilder:default=false
	// +optional
	Enabled bool `json:"enabled,omitempty"`
	// +kubebuilder:default=1
	// +kubebuilder:validation:Minimum=1
	// +optional
	MinReplicas int32 `json:"minReplicas,omitempty"`
	// +kubebuilder:default=10
	// +kubebuilder:validation:Minimum=1
	// +optional
	MaxReplicas int32 `json:"maxReplicas,omitempty"`
	// +kubebuilder:default=80
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=100
	// +optional
	TargetCPUUtilizationPercentage int32 `json:"targetCPUUtilizationPercentage,omitempty"`
	// TargetMemoryUtilizationPercentage adds a memory target when set.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=100
	// +optional
	TargetMemoryUtilizationPercentage *int32 `json:"targetMemoryUtilizationPercentage,omitempty"`
}

// RetentionPolicy says what happens to the operator's PVC when the
// SemanticRouter is deleted.
// +kubebuilder:validation:Enum=Retain;Delete
type RetentionPolicy string

// Retention policies.
const (
	// RetentionRetain orphans the claim so its data outlives the router.
	RetentionRetain RetentionPolicy = "Retain"
	// RetentionDelete leaves the claim owned, so it is garbage collected.
	RetentionDelete RetentionPolicy = "Delete"
)

// PersistenceSpec gives the router a volume, created by the operator or an
// existing claim. With existingClaim, storageClassName and size do not apply.
// +kubebuilder:validation:XValidation:rule="!has(self.existingClaim) || (!has(self.storageClassName) && !has(self.size))",message="persistence.existingClaim cannot be combined with storageClassName or size"
type PersistenceSpec struct {
	// +kubebuilder:default=true
	// +optional
	Enabled *bool `json:"enabled,omitempty"`
	// StorageClassName of the created claim; empty means the cluster's
	// default class.
	// +kubebuilder:validation:MaxLength=253
	// +optional
	StorageClassName *string `json:"storageClassName,omitempty"`
	// +kubebuilder:default=ReadWriteOnce
	// +kubebuilder:validation:Enum=ReadWriteOnce;ReadOnlyMany;ReadWriteMany;ReadWriteOncePod
	// +optional
	AccessMode corev1.PersistentVolumeAccessMode `json:"accessMode,omitempty"`
	// Size of the created claim. Defaults to 10Gi (applied by the operator,
	// so that the existingClaim rule can tell an explicit size).
	// +optional
	Size *string `json:"size,omitempty"`
	// ExistingClaim mounts this claim instead of creating one.
	// +kubebuilder:validation:MaxLength=253
	// +optional
	ExistingClaim *string `json:"existingClaim,omitempty"`
	// RetentionPolicy on delete of the SemanticRouter; Retain keeps the
	// created claim (orphaned), Delete lets it go with the router.
	// +kubebuilder:default=Retain
	// +optional
	RetentionPolicy RetentionPolicy `json:"retentionPolicy,omitempty"`
	// MountPath in the router container.
	// +kubebuilder:default="/data"
	// +optional
	MountPath string `json:"mountPath,omitempty"`
}

// ArtifactDownload says who downloads the model artifacts.
// +kubebuilder:validation:Enum=InitContainer;AtStart
type ArtifactDownload string

// Artifact download modes.
const (
	// ArtifactDownloadInitContainer runs `semantic-router models pull` in an
	// init container: the router starts only once every artifact is in the
	// cache, and a failed download shows in the pod's init container status
	// and in the SemanticRouter's Degraded condition.
	ArtifactDownloadInitContainer ArtifactDownload = "InitContainer"
	// ArtifactDownloadAtStart lets the router download missing artifacts
	// itself when it starts.
	ArtifactDownloadAtStart ArtifactDownload = "AtStart"
)

// ArtifactsSpec configures the download of the model artifacts named in
// spec.config.artifacts. Each artifact's dir must lie under cacheDir, where
// the persistence volume (or, without persistence, an emptyDir) is mounted,
// so that a model already downloaded is kept across pod restarts. An
// artifact's token must be an env.VAR reference to a spec.env entry with
// valueFrom.secretKeyRef.
type ArtifactsSpec struct {
	// Download is InitContainer (default) or AtStart.
	// +kubebuilder:default=InitContainer
	// +optional
	Download ArtifactDownload `json:"download,omitempty"`
	// CacheDir is where the artifact cache is mounted in the router pod.
	// An artifact without a dir is rendered with dir <cacheDir>/<name>; an
	// artifact with a dir outside cacheDir is refused.
	// +kubebuilder:default="/models"
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:XValidation:rule="self.startsWith('/') && self != '/' && !self.endsWith('/') && !self.contains('//') && !self.matches('(^|/)[.][.]?(/|$)')",message="artifacts.cacheDir must be an absolute, clean path other than /"
	// +kubebuilder:validation:XValidation:rule="self != '/etc/semantic-router' && !self.startsWith('/etc/semantic-router/')",message="artifacts.cacheDir cannot be inside /etc/semantic-router, where the config is mounted"
	// +optional
	CacheDir string `json:"cacheDir,omitempty"`
}

// IngressSpec exposes the inference port through a networking.k8s.io/v1 Ingress.
// +kubebuilder:validation:XValidation:rule="!has(self.enabled) || !self.enabled || (has(self.hosts) && size(self.hosts) > 0)",message="ingress.hosts must list at least one host when ingress is enabled"
type IngressSpec struct {
	// +optional
	Enabled bool `json:"enabled,omitempty"`
	// +optional
	ClassName *string `json:"className,omitempty"`
	// +optional
	Annotations map[string]string `json:"annotations,omitempty"`
	// +kubebuilder:validation:MaxItems=32
	// +optional
	Hosts []IngressHost `json:"hosts,omitempty"`
	// +optional
	TLS []networkingv1.IngressTLS `json:"tls,omitempty"`
}

// IngressHost routes a host's paths to the router's inference port.
type IngressHost struct {
	// +kubebuilder:validation:MinLength=1
	Host string `json:"host"`
	// Paths default to ["/"], matched as prefixes.
	// +optional
	Paths []string `json:"paths,omitempty"`
}

// RouteSpec exposes the inference port through an OpenShift Route.
type RouteSpec struct {
	// +optional
	Enabled bool `json:"enabled,omitempty"`
	// Host is left to OpenShift when empty.
	// +optional
	Host string `json:"host,omitempty"`
	// TLSTermination, when set, turns on TLS at the router edge.
	// +kubebuilder:validation:Enum=edge;passthrough;reencrypt
	// +optional
	TLSTermination string `json:"tlsTermination,omitempty"`
	// +optional
	Annotations map[string]string `json:"annotations,omitempty"`
}

// GatewaySpec selects the gateway integration mode. Without existingRef the
// router runs standalone; with it, as an Envoy external processor.
// +kubebuilder:validation:XValidation:rule="!has(self.existingRef) || !has(self.httpRoute) || !has(self.httpRoute.enabled) || !self.httpRoute.enabled",message="gateway.httpRoute routes to the standalone listener (8801); it cannot be combined with gateway.existingRef (extproc mode, where nothing listens on 8801)"
type GatewaySpec struct {
	// ExistingRef is a Gateway API Gateway that fronts the router. The
	// operator checks that it exists (when the Gateway API is installed) but
	// installs no ExtProc policy or HTTPRoute.
	// +optional
	ExistingRef *GatewayReference `json:"existingRef,omitempty"`

	// HTTPRoute, when enabled, makes the operator create a Gateway API
	// HTTPRoute to the router's inference port (8801) in standalone mode.
	// Off by default; ignored where the Gateway API is not installed.
	// +optional
	HTTPRoute HTTPRouteSpec `json:"httpRoute,omitempty"`
}

// HTTPRouteSpec is the opt-in HTTPRoute to the router's inference listener.
// +kubebuilder:validation:XValidation:rule="!has(self.enabled) || !self.enabled || (has(self.parentRefs) && size(self.parentRefs) > 0)",message="gateway.httpRoute.parentRefs must name at least one Gateway when the route is enabled"
type HTTPRouteSpec struct {
	// +optional
	Enabled bool `json:"enabled,omitempty"`
	// ParentRefs are the Gateways (or listeners of them) the route attaches to.
	// +kubebuilder:validation:MaxItems=16
	// +optional
	ParentRefs []GatewayParentRef `json:"parentRefs,omitempty"`
	// Hostnames the route matches; empty matches every host the Gateway accepts.
	// +kubebuilder:validation:MaxItems=16
	// +optional
	Hostnames []string `json:"hostnames,omitempty"`
}

// GatewayParentRef names a Gateway and, optionally, one of its listeners.
type GatewayParentRef struct {
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`
	// Namespace defaults to the SemanticRouter's namespace.
	// +kubebuilder:validation:MaxLength=63
	// +optional
	Namespace string `json:"namespace,omitempty"`
	// SectionName is the Gateway listener's name.
	// +kubebuilder:validation:MaxLength=253
	// +optional
	SectionName string `json:"sectionName,omitempty"`
}

// ServiceMonitorSpec is the opt-in Prometheus Operator ServiceMonitor that
// scrapes the router Service's metrics port.
type ServiceMonitorSpec struct {
	// Enabled creates the ServiceMonitor where monitoring.coreos.com/v1 is
	// served; elsewhere it is ignored (and a condition says so).
	// +optional
	Enabled bool `json:"enabled,omitempty"`
	// Interval between scrapes, such as 30s; empty leaves it to Prometheus.
	// +kubebuilder:validation:Pattern=`^([0-9]+(ms|s|m|h))+$`
	// +optional
	Interval string `json:"interval,omitempty"`
	// Labels added to the ServiceMonitor, such as the release label a
	// Prometheus selects ServiceMonitors by.
	// +optional
	Labels map[string]string `json:"labels,omitempty"`
}

// GatewayReference names a gateway.networking.k8s.io Gateway.
type GatewayReference struct {
	// +kubebuilder:validation:MinLength=1
	Name string `json:"name"`
	// Namespace defaults to the SemanticRouter's namespace.
	// +optional
	Namespace string `json:"namespace,omitempty"`
}

// VLLMEndpointSpec is one model backend. Endpoints that name the same model
// become one router model with several endpoints, balanced by weight.
// +kubebuilder:validation:XValidation:rule="!has(self.caBundle) || (has(self.caBundle.configMapKeyRef) != has(self.caBundle.secretKeyRef))",message="caBundle must set exactly one of configMapKeyRef and secretKeyRef"
type VLLMEndpointSpec struct {
	// Name identifies the endpoint in status, events and the environment
	// variables the operator adds for it.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
	Name string `json:"name"`
	// Model is the model name the backend serves; it is the router's
	// model_name and the upstream model id.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Model string `json:"model"`
	// Weight for load balancing among endpoints of the same model; the
	// router requires at least 1.
	// +kubebuilder:default=1
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=1000
	// +optional
	Weight int32 `json:"weight,omitempty"`
	// BasePath is the OpenAI-compatible API root on the backend.
	// +kubebuilder:default="/v1"
	// +kubebuilder:validation:Pattern=`^(/[A-Za-z0-9._~-]+)*$`
	// +kubebuilder:validation:MaxLength=253
	// +optional
	BasePath string `json:"basePath,omitempty"`
	// APIKeySecretRef is the Secret key holding the backend's API key. The
	// operator passes it to the pod as an environment variable and the
	// config refers to it as env.VAR; the value is never read or written.
	// +optional
	APIKeySecretRef *corev1.SecretKeySelector `json:"apiKeySecretRef,omitempty"`
	// CABundle is a PEM bundle that signed the backend's certificate (for
	// KServe's HTTPS predictor), passed like the API key, as ca_cert_pem.
	// +optional
	CABundle *CABundleSource `json:"caBundle,omitempty"`
	Backend  BackendSpec     `json:"backend"`
}

// CABundleSource is a key of a ConfigMap or a Secret holding PEM certificates.
type CABundleSource struct {
	// +optional
	ConfigMapKeyRef *corev1.ConfigMapKeySelector `json:"configMapKeyRef,omitempty"`
	// +optional
	SecretKeyRef *corev1.SecretKeySelector `json:"secretKeyRef,omitempty"`
}

// BackendType is how a backend is found.
// +kubebuilder:validation:Enum=service;kserve;llamastack
type BackendType string

// Backend types.
const (
	BackendService    BackendType = "service"
	BackendKServe     BackendType = "kserve"
	BackendLlamaStack BackendType = "llamastack"
)

// BackendSpec locates a backend; exactly the block matching type is set.
// +kubebuilder:validation:XValidation:rule="has(self.service) == (self.type == 'service') && has(self.kserve) == (self.type == 'kserve') && has(self.llamastack) == (self.type == 'llamastack')",message="backend must set exactly the block that matches its type"
type BackendSpec struct {
	Type BackendType `json:"type"`
	// +optional
	Service *ServiceBackend `json:"service,omitempty"`
	// +optional
	KServe *KServeBackend `json:"kserve,omitempty"`
	// +optional
	LlamaStack *LlamaStackBackend `json:"llamastack,omitempty"`
}

// ServiceBackend is a plain Kubernetes Service.
type ServiceBackend struct {
	// +kubebuilder:validation:MinLength=1
	Name string `json:"name"`
	// Namespace defaults to the SemanticRouter's namespace.
	// +optional
	Namespace string `json:"namespace,omitempty"`
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=65535
	Port int32 `json:"port"`
}

// KServeBackend is a KServe InferenceService.
type KServeBackend struct {
	// +kubebuilder:validation:MinLength=1
	InferenceServiceName string `json:"inferenceServiceName"`
	// +optional
	Namespace string `json:"namespace,omitempty"`
}

// LlamaStackBackend is found through Service labels.
type LlamaStackBackend struct {
	// +kubebuilder:validation:MinProperties=1
	DiscoveryLabels map[string]string `json:"discoveryLabels"`
	// +optional
	Namespace string `json:"namespace,omitempty"`
}
