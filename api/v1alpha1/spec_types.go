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

// ServiceSpec shapes the router Service. The inference port (8801) is
// always exposed; api, grpc and metrics can be turned off one by one.
type ServiceSpec struct {
	// +kubebuilder:validation:Enum=ClusterIP;NodePort;LoadBalancer
	// +kubebuilder:default=ClusterIP
	// +optional
	Type corev1.ServiceType `json:"type,omitempty"`
	// Annotations on the Service.
	// +optional
	Annotations map[string]string `json:"annotations,omitempty"`
	// HTTP is the OpenAI-compatible inference port (default 8801).
	// +optional
	HTTP PortSpec `json:"http,omitempty"`
	// API is the management port (default 8080). It never serves completions.
	// +optional
	API PortSpec `json:"api,omitempty"`
	// GRPC is the Envoy external processor port (default 50051).
	// +optional
	GRPC PortSpec `json:"grpc,omitempty"`
	// Metrics is the Prometheus port (default 9190).
	// +optional
	Metrics PortSpec `json:"metrics,omitempty"`
}

// PortSpec is one Service port. Zero values take the port's defaults.
type PortSpec struct {
	// Enabled defaults to true. The http port cannot be disabled.
	// +optional
	Enabled *bool `json:"enabled,omitempty"`
	// Port is the Service port.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=65535
	// +optional
	Port int32 `json:"port,omitempty"`
	// TargetPort is the container port; defaults to the router's port.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=65535
	// +optional
	TargetPort int32 `json:"targetPort,omitempty"`
	// +kubebuilder:validation:Enum=TCP;UDP;SCTP
	// +optional
	Protocol corev1.Protocol `json:"protocol,omitempty"`
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
type GatewaySpec struct {
	// ExistingRef is a Gateway API Gateway that fronts the router. The
	// operator checks that it exists (when the Gateway API is installed) but
	// installs no ExtProc policy or HTTPRoute.
	// +optional
	ExistingRef *GatewayReference `json:"existingRef,omitempty"`
}

// GatewayReference names a gateway.networking.k8s.io Gateway.
type GatewayReference struct {
	// +kubebuilder:validation:MinLength=1
	Name string `json:"name"`
	// Namespace defaults to the SemanticRouter's namespace.
	// +optional
	Namespace string `json:"namespace,omitempty"`
}

// VLLMEndpointSpec is one model backend.
type VLLMEndpointSpec struct {
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=63
	Name string `json:"name"`
	// Model is the model name the backend serves.
	// +kubebuilder:validation:MinLength=1
	Model string `json:"model"`
	// Weight for load balancing among endpoints of the same model.
	// +kubebuilder:default=1
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=1000
	// +optional
	Weight  int32       `json:"weight,omitempty"`
	Backend BackendSpec `json:"backend"`
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
