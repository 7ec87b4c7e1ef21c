package v1alpha1

import (
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// SemanticRouter deploys and runs one semantic router: its Deployment,
// Service, ConfigMap and, as asked, its PVC, HPA, Ingress and Route.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=sr,categories=all
// +kubebuilder:printcolumn:name="Replicas",type=integer,JSONPath=`.status.replicas`
// +kubebuilder:printcolumn:name="Ready",type=integer,JSONPath=`.status.readyReplicas`
// +kubebuilder:printcolumn:name="Phase",type=string,JSONPath=`.status.phase`
// +kubebuilder:printcolumn:name="Gateway",type=string,JSONPath=`.status.gatewayMode`,priority=1
// +kubebuilder:printcolumn:name="Observed",type=integer,JSONPath=`.status.observedGeneration`,priority=1
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type SemanticRouter struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// +kubebuilder:default={}
	Spec   SemanticRouterSpec   `json:"spec,omitempty"`
	Status SemanticRouterStatus `json:"status,omitempty"`
}

// SemanticRouterList is a list of SemanticRouter.
//
// +kubebuilder:object:root=true
type SemanticRouterList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []SemanticRouter `json:"items"`
}

// SemanticRouterSpec is the desired state of a router.
type SemanticRouterSpec struct {
	// Image is the router image. Defaults to the pinned vllm-sr image.
	// +optional
	Image ImageSpec `json:"image,omitempty"`

	// Replicas is the number of router pods. Ignored while autoscaling is
	// enabled: the HPA owns the replica count then.
	// +kubebuilder:default=1
	// +kubebuilder:validation:Minimum=0
	// +optional
	Replicas *int32 `json:"replicas,omitempty"`

	// ImagePullSecrets are Secrets in the same namespace used to pull the image.
	// +optional
	ImagePullSecrets []corev1.LocalObjectReference `json:"imagePullSecrets,omitempty"`

	// ServiceAccount chooses or creates the pods' service account.
	// +optional
	ServiceAccount ServiceAccountSpec `json:"serviceAccount,omitempty"`

	// Service shapes the router Service.
	// +optional
	Service ServiceSpec `json:"service,omitempty"`

	// Resources are the router container's requests and limits.
	// +optional
	Resources corev1.ResourceRequirements `json:"resources,omitempty"`

	// LivenessProbe replaces the default probe (GET /health on the api port).
	// +optional
	LivenessProbe *corev1.Probe `json:"livenessProbe,omitempty"`
	// ReadinessProbe replaces the default probe (GET /ready on the api port).
	// +optional
	ReadinessProbe *corev1.Probe `json:"readinessProbe,omitempty"`
	// StartupProbe is added as given; there is none by default.
	// +optional
	StartupProbe *corev1.Probe `json:"startupProbe,omitempty"`

	// Env adds environment variables to the router container. Variables
	// whose names have a credential segment (API_KEY, KEY, TOKEN, SECRET,
	// PASSWORD, CREDENTIALS, in any case) must come from
	// valueFrom.secretKeyRef, never a plain value or a ConfigMap; names
	// ending in _PATH, _FILE or _DIR hold paths and are not credentials.
	// +kubebuilder:validation:MaxItems=256
	// +kubebuilder:validation:XValidation:rule="self.all(e, !e.name.matches('(?i)(^|_)(api_?key|key|token|secret|password|passwd|credentials?)(_|$)') || e.name.matches('(?i)_(path|file|dir)$') || (has(e.valueFrom) && has(e.valueFrom.secretKeyRef)))",message="env variables whose names look like a token, key, secret or password must use valueFrom.secretKeyRef (a Secret), not value or configMapKeyRef"
	// +listType=map
	// +listMapKey=name
	// +optional
	Env []EnvVar `json:"env,omitempty"`

	// Args are appended to the router's arguments.
	// +optional
	Args []string `json:"args,omitempty"`

	// +optional
	NodeSelector map[string]string `json:"nodeSelector,omitempty"`
	// +optional
	Tolerations []corev1.Toleration `json:"tolerations,omitempty"`
	// +optional
	Affinity *corev1.Affinity `json:"affinity,omitempty"`
	// +optional
	TopologySpreadConstraints []corev1.TopologySpreadConstraint `json:"topologySpreadConstraints,omitempty"`

	// PodAnnotations are added to the pod template. The operator's own
	// config-hash annotation wins over one of the same name.
	// +optional
	PodAnnotations map[string]string `json:"podAnnotations,omitempty"`

	// PodSecurityContext replaces the default (runAsNonRoot, RuntimeDefault seccomp).
	// +optional
	PodSecurityContext *corev1.PodSecurityContext `json:"podSecurityContext,omitempty"`
	// SecurityContext replaces the container default (no privilege
	// escalation, all capabilities dropped).
	// +optional
	SecurityContext *corev1.SecurityContext `json:"securityContext,omitempty"`

	// Autoscaling adds a HorizontalPodAutoscaler when enabled.
	// +kubebuilder:default={}
	// +optional
	Autoscaling AutoscalingSpec `json:"autoscaling,omitempty"`

	// Persistence gives the router a volume for models and durable state.
	// +kubebuilder:default={}
	// +optional
	Persistence PersistenceSpec `json:"persistence,omitempty"`

	// Artifacts says how the model artifacts that spec.config.artifacts
	// lists reach the router: downloaded by an init container (the default)
	// or by the router at start, into a cache directory on the persistence
	// volume.
	// +kubebuilder:default={}
	// +optional
	Artifacts ArtifactsSpec `json:"artifacts,omitempty"`

	// Ingress exposes the inference port through an Ingress.
	// +optional
	Ingress IngressSpec `json:"ingress,omitempty"`

	// Route exposes the inference port through an OpenShift Route; ignored
	// where the Route API does not exist.
	// +optional
	Route RouteSpec `json:"route,omitempty"`

	// Gateway selects the gateway integration mode and the opt-in HTTPRoute.
	// +optional
	Gateway GatewaySpec `json:"gateway,omitempty"`

	// ServiceMonitor creates a Prometheus Operator ServiceMonitor for the
	// metrics port when enabled.
	// +optional
	ServiceMonitor ServiceMonitorSpec `json:"serviceMonitor,omitempty"`

	// VLLMEndpoints are the model backends the router sends requests to.
	// +kubebuilder:validation:MaxItems=64
	// +listType=map
	// +listMapKey=name
	// +optional
	VLLMEndpoints []VLLMEndpointSpec `json:"vllmEndpoints,omitempty"`

	// Config is the router configuration (the config.yaml contract), rendered
	// into the router's ConfigMap. Credentials in it must be references
	// (env.VAR or file:/path); a plaintext secret fails the reconcile and is
	// never written.
	// +kubebuilder:pruning:PreserveUnknownFields
	// +kubebuilder:validation:Type=object
	// +optional
	Config *apiextensionsv1.JSON `json:"config,omitempty"`
}

// SemanticRouterStatus is what the operator last observed.
type SemanticRouterStatus struct {
	// ObservedGeneration is the last metadata.generation that was reconciled
	// successfully. It is not written when a reconcile fails.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`

	// Conditions are Available, Progressing and Degraded, and BackendsResolved,
	// StorageReady and ServiceMonitorReady where they apply; each carries the
	// generation it describes.
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`

	// Replicas is the Deployment's current replica count. It is written
	// even when 0 (and defaulted to 0 by the API server once status exists),
	// so the REPLICAS column and .status.replicas show 0, not nothing.
	// +kubebuilder:default=0
	// +optional
	Replicas int32 `json:"replicas"`
	// ReadyReplicas is the Deployment's ready replica count, 0 included.
	// +kubebuilder:default=0
	// +optional
	ReadyReplicas int32 `json:"readyReplicas"`

	// +kubebuilder:validation:Enum=Pending;Progressing;Running
	// +optional
	Phase Phase `json:"phase,omitempty"`

	// +kubebuilder:validation:Enum=standalone;gateway-integration
	// +optional
	GatewayMode GatewayMode `json:"gatewayMode,omitempty"`
}
