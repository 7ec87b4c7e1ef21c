package operator

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	vllmv1alpha1 "github.com/semantic-router/semantic-router/api/v1alpha1"
)

// TestCRDValidation checks the CRD's markers and CEL rules on the real API
// server: bad specs are rejected with the exact message, good ones pass.
func TestCRDValidation(t *testing.T) {
	requireAPIServer(t)
	ns := newNamespace(t)
	secretRef := &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{
		LocalObjectReference: corev1.LocalObjectReference{Name: "hf"}, Key: "token",
	}}
	svcBackend := vllmv1alpha1.BackendSpec{Type: vllmv1alpha1.BackendService,
		Service: &vllmv1alpha1.ServiceBackend{Name: "vllm", Port: 8000}}

	const envMsg = "env variables whose names look like a token, key, secret or password must use valueFrom.secretKeyRef (a Secret), not value or configMapKeyRef"
	tests := []struct {
		name    string
		spec    vllmv1alpha1.SemanticRouterSpec
		wantErr string
	}{
		{
			name:    "hpa min above max",
			spec:    vllmv1alpha1.SemanticRouterSpec{Autoscaling: vllmv1alpha1.AutoscalingSpec{Enabled: true, MinReplicas: 5, MaxReplicas: 2}},
			wantErr: `SemanticRouter.vllm.ai "hpa-min-above-max" is invalid: spec.autoscaling: Invalid value: autoscaling.minReplicas must be less than or equal to autoscaling.maxReplicas`,
		},
		{
			name: "existing claim with size",
			spec: vllmv1alpha1.SemanticRouterSpec{Persistence: vllmv1alpha1.PersistenceSpec{
				ExistingClaim: ptr.To("data"), Size: ptr.To("20Gi")}},
			wantErr: `SemanticRouter.vllm.ai "existing-claim-with-size" is invalid: spec.persistence: Invalid value: persistence.existingClaim cannot be combined with storageClassName or size`,
		},
		{
			name: "existing claim with storage class",
			spec: vllmv1alpha1.SemanticRouterSpec{Persistence: vllmv1alpha1.PersistenceSpec{
				ExistingClaim: ptr.To("data"), StorageClassName: ptr.To("fast")}},
			wantErr: `SemanticRouter.vllm.ai "existing-claim-with-storage-class" is invalid: spec.persistence: Invalid value: persistence.existingClaim cannot be combined with storageClassName or size`,
		},
		{
			name: "backend block does not match type",
			spec: vllmv1alpha1.SemanticRouterSpec{VLLMEndpoints: []vllmv1alpha1.VLLMEndpointSpec{{
				Name: "a", Model: "m", Backend: vllmv1alpha1.BackendSpec{Type: vllmv1alpha1.BackendKServe,
					Service: &vllmv1alpha1.ServiceBackend{Name: "vllm", Port: 8000}}}}},
			wantErr: `SemanticRouter.vllm.ai "backend-block-does-not-match-type" is invalid: spec.vllmEndpoints[0].backend: Invalid value: backend must set exactly the block that matches its type`,
		},
		{
			name: "backend with two blocks",
			spec: vllmv1alpha1.SemanticRouterSpec{VLLMEndpoints: []vllmv1alpha1.VLLMEndpointSpec{{
				Name: "a", Model: "m", Backend: vllmv1alpha1.BackendSpec{Type: vllmv1alpha1.BackendService,
					Service: &vllmv1alpha1.ServiceBackend{Name: "vllm", Port: 8000},
					KServe:  &vllmv1alpha1.KServeBackend{InferenceServiceName: "isvc"}}}}},
			wantErr: `SemanticRouter.vllm.ai "backend-with-two-blocks" is invalid: spec.vllmEndpoints[0].backend: Invalid value: backend must set exactly the block that matches its type`,
		},
		{
			name:    "token in plain env value",
			spec:    vllmv1alpha1.SemanticRouterSpec{Env: []vllmv1alpha1.EnvVar{{Name: "HF_TOKEN", Value: "hf_abc"}}},
			wantErr: `SemanticRouter.vllm.ai "token-in-plain-env-value" is invalid: spec.env: Invalid value: env variables whose names look like a token, key, secret or password must use valueFrom.secretKeyRef (a Secret), not value or configMapKeyRef`,
		},
		{
			name:    "api key in plain env value",
			spec:    vllmv1alpha1.SemanticRouterSpec{Env: []vllmv1alpha1.EnvVar{{Name: "openai_api_key", Value: "sk-1"}}},
			wantErr: `SemanticRouter.vllm.ai "api-key-in-plain-env-value" is invalid: spec.env: Invalid value: env variables whose names look like a token, key, secret or password must use valueFrom.secretKeyRef (a Secret), not value or configMapKeyRef`,
		},
		{
			name: "api key from a configmap",
			spec: vllmv1alpha1.SemanticRouterSpec{Env: []vllmv1alpha1.EnvVar{{Name: "VLLM_API_KEY", ValueFrom: &corev1.EnvVarSource{
				ConfigMapKeyRef: &corev1.ConfigMapKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "settings"}, Key: "key"}}}}},
			wantErr: `SemanticRouter.vllm.ai "api-key-from-a-configmap" is invalid: spec.env: Invalid value: ` + envMsg,
		},
		{
			name:    "password from a field ref",
			spec:    vllmv1alpha1.SemanticRouterSpec{Env: []vllmv1alpha1.EnvVar{{Name: "Redis_Password", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}}}}},
			wantErr: `SemanticRouter.vllm.ai "password-from-a-field-ref" is invalid: spec.env: Invalid value: ` + envMsg,
		},
		{
			name:    "endpoint weight zero",
			spec:    vllmv1alpha1.SemanticRouterSpec{VLLMEndpoints: []vllmv1alpha1.VLLMEndpointSpec{{Name: "a", Model: "m", Weight: -1, Backend: svcBackend}}},
			wantErr: `SemanticRouter.vllm.ai "endpoint-weight-zero" is invalid: spec.vllmEndpoints[0].weight: Invalid value: -1: spec.vllmEndpoints[0].weight in body should be greater than or equal to 1`,
		},
		{
			name: "ca bundle from both",
			spec: vllmv1alpha1.SemanticRouterSpec{VLLMEndpoints: []vllmv1alpha1.VLLMEndpointSpec{{Name: "a", Model: "m", Backend: svcBackend,
				CABundle: &vllmv1alpha1.CABundleSource{SecretKeyRef: secretRef.SecretKeyRef,
					ConfigMapKeyRef: &corev1.ConfigMapKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "ca"}, Key: "ca.crt"}}}}},
			wantErr: `SemanticRouter.vllm.ai "ca-bundle-from-both" is invalid: spec.vllmEndpoints[0]: Invalid value: caBundle must set exactly one of configMapKeyRef and secretKeyRef`,
		},
		{
			name: "httproute in extproc mode",
			spec: vllmv1alpha1.SemanticRouterSpec{Gateway: vllmv1alpha1.GatewaySpec{ExistingRef: &vllmv1alpha1.GatewayReference{Name: "gw"},
				HTTPRoute: vllmv1alpha1.HTTPRouteSpec{Enabled: true, ParentRefs: []vllmv1alpha1.GatewayParentRef{{Name: "gw"}}}}},
			wantErr: `SemanticRouter.vllm.ai "httproute-in-extproc-mode" is invalid: spec.gateway: Invalid value: gateway.httpRoute routes to the standalone listener (8801); it cannot be combined with gateway.existingRef (extproc mode, where nothing listens on 8801)`,
		},
		{
			name:    "httproute without parents",
			spec:    vllmv1alpha1.SemanticRouterSpec{Gateway: vllmv1alpha1.GatewaySpec{HTTPRoute: vllmv1alpha1.HTTPRouteSpec{Enabled: true}}},
			wantErr: `SemanticRouter.vllm.ai "httproute-without-parents" is invalid: spec.gateway.httpRoute: Invalid value: gateway.httpRoute.parentRefs must name at least one Gateway when the route is enabled`,
		},
		{
			name:    "env value and valueFrom",
			spec:    vllmv1alpha1.SemanticRouterSpec{Env: []vllmv1alpha1.EnvVar{{Name: "LOG_LEVEL", Value: "debug", ValueFrom: secretRef}}},
			wantErr: `SemanticRouter.vllm.ai "env-value-and-valuefrom" is invalid: spec.env[0]: Invalid value: env: set value or valueFrom, not both`,
		},
		{
			name:    "service account not created and unnamed",
			spec:    vllmv1alpha1.SemanticRouterSpec{ServiceAccount: vllmv1alpha1.ServiceAccountSpec{Create: ptr.To(false)}},
			wantErr: `SemanticRouter.vllm.ai "service-account-not-created-and-unnamed" is invalid: spec.serviceAccount: Invalid value: serviceAccount.name is required when serviceAccount.create is false`,
		},
		{
			name:    "ingress without hosts",
			spec:    vllmv1alpha1.SemanticRouterSpec{Ingress: vllmv1alpha1.IngressSpec{Enabled: true}},
			wantErr: `SemanticRouter.vllm.ai "ingress-without-hosts" is invalid: spec.ingress: Invalid value: ingress.hosts must list at least one host when ingress is enabled`,
		},
		{
			name:    "bad image digest",
			spec:    vllmv1alpha1.SemanticRouterSpec{Image: vllmv1alpha1.ImageSpec{Digest: "latest"}},
			wantErr: `SemanticRouter.vllm.ai "bad-image-digest" is invalid: spec.image.digest: Invalid value: "latest": spec.image.digest in body should match '^sha256:[a-f0-9]{64}$'`,
		},
		{
			name:    "artifact download mode unknown",
			spec:    vllmv1alpha1.SemanticRouterSpec{Artifacts: vllmv1alpha1.ArtifactsSpec{Download: "Sidecar"}},
			wantErr: `SemanticRouter.vllm.ai "artifact-download-mode-unknown" is invalid: [spec.artifacts.download: Unsupported value: "Sidecar": supported values: "InitContainer", "AtStart", <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation]`,
		},
		{
			name:    "artifact cache dir relative",
			spec:    vllmv1alpha1.SemanticRouterSpec{Artifacts: vllmv1alpha1.ArtifactsSpec{CacheDir: "models"}},
			wantErr: `SemanticRouter.vllm.ai "artifact-cache-dir-relative" is invalid: spec.artifacts.cacheDir: Invalid value: "models": artifacts.cacheDir must be an absolute, clean path other than /`,
		},
		{
			name:    "artifact cache dir with dot-dot",
			spec:    vllmv1alpha1.SemanticRouterSpec{Artifacts: vllmv1alpha1.ArtifactsSpec{CacheDir: "/models/../etc"}},
			wantErr: `SemanticRouter.vllm.ai "artifact-cache-dir-with-dot-dot" is invalid: spec.artifacts.cacheDir: Invalid value: "/models/../etc": artifacts.cacheDir must be an absolute, clean path other than /`,
		},
		{
			name:    "artifact cache dir root",
			spec:    vllmv1alpha1.SemanticRouterSpec{Artifacts: vllmv1alpha1.ArtifactsSpec{CacheDir: "/"}},
			wantErr: `SemanticRouter.vllm.ai "artifact-cache-dir-root" is invalid: spec.artifacts.cacheDir: Invalid value: "/": artifacts.cacheDir must be an absolute, clean path other than /`,
		},
		{
			name:    "artifact cache dir over the config",
			spec:    vllmv1alpha1.SemanticRouterSpec{Artifacts: vllmv1alpha1.ArtifactsSpec{CacheDir: "/etc/semantic-router/models"}},
			wantErr: `SemanticRouter.vllm.ai "artifact-cache-dir-over-the-config" is invalid: spec.artifacts.cacheDir: Invalid value: "/etc/semantic-router/models": artifacts.cacheDir cannot be inside /etc/semantic-router, where the config is mounted`,
		},
		{
			name: "artifacts at start in a custom cache",
			spec: vllmv1alpha1.SemanticRouterSpec{Artifacts: vllmv1alpha1.ArtifactsSpec{Download: vllmv1alpha1.ArtifactDownloadAtStart, CacheDir: "/var/cache/models.d"}},
		},
		{
			name: "token through secret reference",
			spec: vllmv1alpha1.SemanticRouterSpec{Env: []vllmv1alpha1.EnvVar{
				{Name: "HF_TOKEN", ValueFrom: secretRef},
				{Name: "LOG_LEVEL", Value: "debug"},
				{Name: "KEYCLOAK_URL", Value: "https://id.example"},
				{Name: "TLS_KEY_PATH", Value: "/etc/tls/tls.key"},
				{Name: "GOOGLE_APPLICATION_CREDENTIALS_FILE", Value: "/var/run/secrets/gcp/key.json"},
				{Name: "TOKEN_CACHE_DIR", Value: "/tmp/tokens"},
				{Name: "MAX_TOKENS", Value: "4096"},
				{Name: "TOKENIZER", Value: "qwen"},
			}},
		},
		{
			name: "complete valid spec",
			spec: vllmv1alpha1.SemanticRouterSpec{
				Replicas:      ptr.To[int32](2),
				Autoscaling:   vllmv1alpha1.AutoscalingSpec{Enabled: true, MinReplicas: 2, MaxReplicas: 2},
				Persistence:   vllmv1alpha1.PersistenceSpec{ExistingClaim: ptr.To("models")},
				VLLMEndpoints: []vllmv1alpha1.VLLMEndpointSpec{{Name: "a", Model: "m", Backend: svcBackend}},
				Config:        modelConfig(""),
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sr := &vllmv1alpha1.SemanticRouter{
				ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: slug(tt.name)},
				Spec:       tt.spec,
			}
			err := k8sClient.Create(context.Background(), sr)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("create: unexpected error: %v", err)
			case tt.wantErr != "" && err == nil:
				t.Fatalf("create: want error %q, got none", tt.wantErr)
			case tt.wantErr != "" && err.Error() != tt.wantErr:
				t.Fatalf("create: error\n got: %s\nwant: %s", err, tt.wantErr)
			}
		})
	}
}

// TestCRDDefaults checks that the API server fills in the documented defaults.
func TestCRDDefaults(t *testing.T) {
	requireAPIServer(t)
	ns := newNamespace(t)
	ctx := context.Background()
	sr := &vllmv1alpha1.SemanticRouter{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "defaults"},
		Spec: vllmv1alpha1.SemanticRouterSpec{VLLMEndpoints: []vllmv1alpha1.VLLMEndpointSpec{{
			Name: "a", Model: "m", Backend: vllmv1alpha1.BackendSpec{Type: vllmv1alpha1.BackendLlamaStack,
				LlamaStack: &vllmv1alpha1.LlamaStackBackend{DiscoveryLabels: map[string]string{"app": "llama"}}}}}}}
	if err := k8sClient.Create(ctx, sr); err != nil {
		t.Fatalf("create: %v", err)
	}
	got, err := getSR(ctx, ns, "defaults")
	if err != nil {
		t.Fatal(err)
	}
	s := got.Spec
	want := vllmv1alpha1.AutoscalingSpec{Enabled: false, MinReplicas: 1, MaxReplicas: 10, TargetCPUUtilizationPercentage: 80}
	if s.Autoscaling != want {
		t.Errorf("autoscaling = %+v, want %+v", s.Autoscaling, want)
	}
	if s.Replicas == nil || *s.Replicas != 1 {
		t.Errorf("replicas = %v, want 1", s.Replicas)
	}
	p := s.Persistence
	if p.Enabled == nil || !*p.Enabled || p.AccessMode != corev1.ReadWriteOnce || p.RetentionPolicy != vllmv1alpha1.RetentionRetain || p.MountPath != "/data" {
		t.Errorf("persistence = %+v, want enabled, ReadWriteOnce, Retain, /data", p)
	}
	if s.Service.Type != corev1.ServiceTypeClusterIP {
		t.Errorf("service.type = %q, want ClusterIP", s.Service.Type)
	}
	if w := s.VLLMEndpoints[0].Weight; w != 1 {
		t.Errorf("vllmEndpoints[0].weight = %d, want 1", w)
	}
}

// slug turns a test case name into an object name.
func slug(s string) string {
	b := []byte(s)
	for i, c := range b {
		switch {
		case c >= 'A' && c <= 'Z':
			b[i] = c + 'a' - 'A'
		case c == ' ' || c == '_':
			b[i] = '-'
		}
	}
	return string(b)
}
