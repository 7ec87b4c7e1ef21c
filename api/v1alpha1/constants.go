package v1alpha1

// Values fixed by the operator's interface (docs/operator.md); the
// reconciler and the CRD defaults both read them from here.
const (
	// DefaultImageRepository is the router image used when spec.image.repository is empty.
	DefaultImageRepository = "ghcr.io/vllm-project/semantic-router/vllm-sr"
	// DefaultImageTag is the router image tag used when spec.image.tag and
	// spec.image.digest are empty. Pinned so that an operator upgrade, not
	// a registry push, decides which router runs.
	DefaultImageTag = "v0.1.0"

	// Finalizer lets the operator apply the persistence retention policy
	// before a SemanticRouter disappears.
	Finalizer = "semanticrouter.vllm.ai/finalizer"

	// DefaultHTTPPort is the router's OpenAI-compatible inference listener.
	DefaultHTTPPort int32 = 8801
	// DefaultAPIPort is the router's management API (health, readiness,
	// classification, config). It never serves completions.
	DefaultAPIPort int32 = 8080
	// DefaultGRPCPort is the Envoy external processor port.
	DefaultGRPCPort int32 = 50051
	// DefaultMetricsPort is the Prometheus metrics port.
	DefaultMetricsPort int32 = 9190

	// DefaultHPAMinReplicas and DefaultHPAMaxReplicas bound the HPA when
	// spec.autoscaling leaves them out.
	DefaultHPAMinReplicas int32 = 1
	DefaultHPAMaxReplicas int32 = 10
	// DefaultHPATargetCPU is the CPU utilisation the HPA aims for, in percent.
	DefaultHPATargetCPU int32 = 80

	// DefaultPVCSize is the size of the claim the operator creates when
	// spec.persistence.size is empty.
	DefaultPVCSize = "10Gi"

	// DefaultArtifactsCacheDir is where the artifact cache is mounted when
	// spec.artifacts.cacheDir is empty: the router's default cache root, so
	// that an artifact without a dir lands on the volume.
	DefaultArtifactsCacheDir = "/models"
)

// Phase summarises a SemanticRouter's readiness in one word.
type Phase string

// Phases reported in status.phase.
const (
	PhasePending     Phase = "Pending"
	PhaseProgressing Phase = "Progressing"
	PhaseRunning     Phase = "Running"
)

// GatewayMode tells how the router receives traffic.
type GatewayMode string

// Gateway modes reported in status.gatewayMode.
const (
	// GatewayModeStandalone: the router serves its own listener on 8801.
	GatewayModeStandalone GatewayMode = "standalone"
	// GatewayModeIntegration: spec.gateway.existingRef is set and the router
	// runs as an Envoy external processor behind that Gateway.
	GatewayModeIntegration GatewayMode = "gateway-integration"
)

// Condition types reported in status.conditions.
const (
	// ConditionAvailable is True when every desired replica is ready.
	ConditionAvailable = "Available"
	// ConditionProgressing is True while some, not all, replicas are ready;
	// it is removed once the rollout completes.
	ConditionProgressing = "Progressing"
	// ConditionDegraded is True when the last reconcile of the generation it
	// names failed; its message says why.
	// A failed model artifact download (reason ArtifactDownloadFailed) is
	// reported here too, although the reconcile itself succeeded.
	ConditionDegraded = "Degraded"
	// ConditionBackendsResolved is True when every spec.vllmEndpoints entry
	// was discovered; False names each one that was not, and why.
	ConditionBackendsResolved = "BackendsResolved"
	// ConditionStorageReady reports the persistence checks: the storage
	// class, a refused claim change, or a ReadWriteOnce claim shared by
	// several pods (a warning: True with reason ReadWriteOnceShared).
	ConditionStorageReady = "StorageReady"
	// ConditionMonitoring reports the opt-in ServiceMonitor.
	ConditionMonitoring = "ServiceMonitorReady"
	// ConditionRouteReady reports the opt-in HTTPRoute
	// (spec.gateway.httpRoute): True once it exists, False saying why there
	// is none.
	ConditionRouteReady = "RouteReady"
)
