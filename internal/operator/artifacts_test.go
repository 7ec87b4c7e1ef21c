package operator

import (
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	vllmv1alpha1 "github.com/semantic-router/semantic-router/api/v1alpha1"
)

// artifactConfig is a router config with one model and the artifact minilm;
// extra is added to the artifact's fields.
func artifactConfig(extra string) *apiextensionsv1.JSON {
	return modelConfig(`"artifacts":[{"name":"minilm","repository":"sentence-transformers/all-MiniLM-L6-v2",` +
		`"files":[{"path":"onnx/model.onnx","save_as":"model.onnx"},{"path":"tokenizer.json"}]` + extra + `}]`)
}

func secretEnv(name, secret, key string) vllmv1alpha1.EnvVar {
	return vllmv1alpha1.EnvVar{Name: name, ValueFrom: &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{
		LocalObjectReference: corev1.LocalObjectReference{Name: secret}, Key: key}}}
}

// planFor renders spec.config as the reconciler does and plans the artifacts.
func planFor(t *testing.T, sr *vllmv1alpha1.SemanticRouter) (artifactPlan, string, error) {
	t.Helper()
	out, parsed, err := renderRouterConfig(sr.Spec.Config, nil, artifactCacheDir(sr))
	if err != nil {
		t.Fatalf("rendering: %v", err)
	}
	plan, err := planArtifacts(sr, parsed)
	return plan, string(out), err
}

func TestModelsPullInitContainer(t *testing.T) {
	t.Parallel()
	env := []vllmv1alpha1.EnvVar{secretEnv("HF_TOKEN", "hf", "token"), {Name: "HTTPS_PROXY", Value: "http://proxy:3128"}}
	configMount := corev1.VolumeMount{Name: volumeConfig, MountPath: configDir, ReadOnly: true}
	tests := []struct {
		name        string
		spec        vllmv1alpha1.SemanticRouterSpec
		wantInit    bool
		initMounts  []corev1.VolumeMount // after the config mount
		routerExtra []corev1.VolumeMount // after the config and data mounts
		wantVolume  *corev1.Volume       // the cache volume added, if any
	}{
		{
			name:        "persistence at /data: the claim's models/ at /models",
			spec:        vllmv1alpha1.SemanticRouterSpec{},
			wantInit:    true,
			initMounts:  []corev1.VolumeMount{{Name: volumeData, MountPath: "/models", SubPath: "models"}},
			routerExtra: []corev1.VolumeMount{{Name: volumeData, MountPath: "/models", SubPath: "models"}},
		},
		{
			name:       "persistence mounted at the cache: the mount is shared",
			spec:       vllmv1alpha1.SemanticRouterSpec{Persistence: vllmv1alpha1.PersistenceSpec{MountPath: "/models"}},
			wantInit:   true,
			initMounts: []corev1.VolumeMount{{Name: volumeData, MountPath: "/models"}},
		},
		{
			name: "cache under the persistence mount",
			spec: vllmv1alpha1.SemanticRouterSpec{Persistence: vllmv1alpha1.PersistenceSpec{MountPath: "/data"},
				Artifacts: vllmv1alpha1.ArtifactsSpec{CacheDir: "/data/models"}},
			wantInit:   true,
			initMounts: []corev1.VolumeMount{{Name: volumeData, MountPath: "/data"}},
		},
		{
			name:        "no persistence: an emptyDir",
			spec:        vllmv1alpha1.SemanticRouterSpec{Persistence: vllmv1alpha1.PersistenceSpec{Enabled: ptr.To(false)}},
			wantInit:    true,
			initMounts:  []corev1.VolumeMount{{Name: volumeModels, MountPath: "/models"}},
			routerExtra: []corev1.VolumeMount{{Name: volumeModels, MountPath: "/models"}},
			wantVolume:  &corev1.Volume{Name: volumeModels, VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}},
		},
		{
			name:        "AtStart: the router downloads, no init container",
			spec:        vllmv1alpha1.SemanticRouterSpec{Artifacts: vllmv1alpha1.ArtifactsSpec{Download: vllmv1alpha1.ArtifactDownloadAtStart}},
			routerExtra: []corev1.VolumeMount{{Name: volumeData, MountPath: "/models", SubPath: "models"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			spec := tt.spec
			spec.Env = env
			spec.Image = vllmv1alpha1.ImageSpec{Repository: "reg/sr", Tag: "v2", PullPolicy: corev1.PullIfNotPresent}
			spec.Resources = corev1.ResourceRequirements{Limits: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("1Gi")}}
			spec.Config = artifactConfig(`,"token":"env.HF_TOKEN"`)
			sr := newSR(spec)
			plan, _, err := planFor(t, sr)
			if err != nil {
				t.Fatal(err)
			}
			tmpl := desiredPodTemplate(sr, vllmv1alpha1.GatewayModeStandalone, renderedConfig{hash: "h", env: []corev1.EnvVar{{Name: "BACKEND_KEY", Value: "x"}}, artifacts: plan})
			router := tmpl.Spec.Containers[0]

			wantRouter := []corev1.VolumeMount{configMount}
			if persistenceEnabled(sr) {
				wantRouter = append(wantRouter, corev1.VolumeMount{Name: volumeData, MountPath: mountPath(sr)})
			}
			wantRouter = append(wantRouter, tt.routerExtra...)
			if !equality.Semantic.DeepEqual(router.VolumeMounts, wantRouter) {
				t.Errorf("router mounts = %+v, want %+v", router.VolumeMounts, wantRouter)
			}
			if tt.wantVolume != nil && !slices.ContainsFunc(tmpl.Spec.Volumes, func(v corev1.Volume) bool {
				return equality.Semantic.DeepEqual(v, *tt.wantVolume)
			}) {
				t.Errorf("volumes = %+v, want %+v among them", tmpl.Spec.Volumes, *tt.wantVolume)
			}
			wantArgs := "-config /etc/semantic-router/config.yaml -gateway standalone -listener-address 0.0.0.0"
			if tt.wantInit {
				wantArgs += " -offline"
			}
			if got := strings.Join(router.Args, " "); got != wantArgs {
				t.Errorf("router args = %q, want %q", got, wantArgs)
			}
			if !tt.wantInit {
				if len(tmpl.Spec.InitContainers) != 0 {
					t.Errorf("init containers = %+v, want none", tmpl.Spec.InitContainers)
				}
				return
			}
			if len(tmpl.Spec.InitContainers) != 1 {
				t.Fatalf("init containers = %+v, want models-pull", tmpl.Spec.InitContainers)
			}
			want := corev1.Container{
				Name:            "models-pull",
				Image:           "reg/sr:v2",
				ImagePullPolicy: corev1.PullIfNotPresent,
				Args:            []string{"models", "pull", "-config", "/etc/semantic-router/config.yaml"},
				Env: []corev1.EnvVar{
					{Name: "HF_TOKEN", ValueFrom: &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{
						LocalObjectReference: corev1.LocalObjectReference{Name: "hf"}, Key: "token"}}},
					{Name: "HTTPS_PROXY", Value: "http://proxy:3128"},
				},
				Resources:                spec.Resources,
				SecurityContext:          router.SecurityContext,
				TerminationMessagePath:   "/dev/termination-log",
				TerminationMessagePolicy: corev1.TerminationMessageFallbackToLogsOnError,
				VolumeMounts:             append([]corev1.VolumeMount{configMount}, tt.initMounts...),
			}
			if got := tmpl.Spec.InitContainers[0]; !equality.Semantic.DeepEqual(got, want) {
				t.Errorf("init container =\n%+v\nwant\n%+v", got, want)
			}
		})
	}
}

func TestPlanArtifacts(t *testing.T) {
	t.Parallel()
	cm := vllmv1alpha1.EnvVar{Name: "HUB_AUTH", ValueFrom: &corev1.EnvVarSource{ConfigMapKeyRef: &corev1.ConfigMapKeySelector{
		LocalObjectReference: corev1.LocalObjectReference{Name: "hub"}, Key: "token"}}}
	field := vllmv1alpha1.EnvVar{Name: "HUB_AUTH", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}}}
	tests := []struct {
		name    string
		env     []vllmv1alpha1.EnvVar
		extra   string
		cache   string
		reason  string
		wantErr string
		wantDir string
	}{
		{name: "no token", wantDir: "dir: /models/minilm"},
		{name: "token from a Secret", env: []vllmv1alpha1.EnvVar{secretEnv("HF_TOKEN", "hf", "token")}, extra: `,"token":"env.HF_TOKEN"`},
		{name: "other cache dir sets the dir", cache: "/cache", wantDir: "dir: /cache/minilm"},
		{name: "plain value", env: []vllmv1alpha1.EnvVar{{Name: "A", Value: "a"}, {Name: "HUB_AUTH", Value: "hub-secret-value"}},
			extra: `,"token":"env.HUB_AUTH"`, reason: reasonArtifactTokenNotSecret,
			wantErr: "spec.config.artifacts[0].token: env.HUB_AUTH comes from spec.env[1].value (a plain value); an artifact token must come from a Secret: set spec.env[1].valueFrom.secretKeyRef"},
		{name: "configMapKeyRef", env: []vllmv1alpha1.EnvVar{cm}, extra: `,"token":"env.HUB_AUTH"`, reason: reasonArtifactTokenNotSecret,
			wantErr: "spec.config.artifacts[0].token: env.HUB_AUTH comes from spec.env[0].valueFrom.configMapKeyRef (a ConfigMap); an artifact token must come from a Secret: set spec.env[0].valueFrom.secretKeyRef"},
		{name: "fieldRef", env: []vllmv1alpha1.EnvVar{field}, extra: `,"token":"env.HUB_AUTH"`, reason: reasonArtifactTokenNotSecret,
			wantErr: "spec.config.artifacts[0].token: env.HUB_AUTH comes from spec.env[0].valueFrom, not a secretKeyRef; an artifact token must come from a Secret: set spec.env[0].valueFrom.secretKeyRef"},
		{name: "not in spec.env", extra: `,"token":"env.HF_TOKEN"`, reason: reasonArtifactTokenNotSecret,
			wantErr: "spec.config.artifacts[0].token: env.HF_TOKEN is not in spec.env; add HF_TOKEN to spec.env with valueFrom.secretKeyRef (a Secret)"},
		{name: "file reference", extra: `,"token":"file:/var/run/hf/token"`, reason: reasonArtifactTokenNotSecret,
			wantErr: "spec.config.artifacts[0].token: file:/var/run/hf/token: an artifact token must be an env.VAR reference to a spec.env entry with valueFrom.secretKeyRef (a Secret)"},
		{name: "dir outside the cache", extra: `,"dir":"/opt/minilm"`, reason: reasonInvalidArtifacts,
			wantErr: "spec.config.artifacts[0].dir: /opt/minilm is not under the artifact cache /models (spec.artifacts.cacheDir): a download there would not be kept; put it under /models"},
		{name: "the cache itself is not an artifact dir", extra: `,"dir":"/models"`, reason: reasonInvalidArtifacts,
			wantErr: "spec.config.artifacts[0].dir: /models is not under the artifact cache /models (spec.artifacts.cacheDir): a download there would not be kept; put it under /models"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			sr := newSR(vllmv1alpha1.SemanticRouterSpec{Env: tt.env, Config: artifactConfig(tt.extra),
				Artifacts: vllmv1alpha1.ArtifactsSpec{CacheDir: tt.cache}})
			plan, rendered, err := planFor(t, sr)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(plan.names, []string{"minilm"}) || plan.download != vllmv1alpha1.ArtifactDownloadInitContainer {
					t.Errorf("plan = %+v", plan)
				}
				if !strings.Contains(rendered, tt.wantDir) {
					t.Errorf("config.yaml = %s, want %q", rendered, tt.wantDir)
				}
				return
			}
			if err == nil || err.Error() != tt.wantErr || failureReason(err) != tt.reason {
				t.Fatalf("err = %v (%s)\nwant %s (%s)", err, failureReason(err), tt.wantErr, tt.reason)
			}
			if strings.Contains(err.Error(), "hub-secret-value") {
				t.Error("the error shows the value")
			}
		})
	}
}

func TestNoArtifactsNoChange(t *testing.T) {
	t.Parallel()
	sr := newSR(vllmv1alpha1.SemanticRouterSpec{Config: modelConfig("")})
	plan, _, err := planFor(t, sr)
	if err != nil || plan.active() {
		t.Fatalf("plan = %+v, %v", plan, err)
	}
	tmpl := desiredPodTemplate(sr, vllmv1alpha1.GatewayModeStandalone, renderedConfig{hash: "h", artifacts: plan})
	if len(tmpl.Spec.InitContainers) != 0 || len(tmpl.Spec.Volumes) != 2 || len(tmpl.Spec.Containers[0].VolumeMounts) != 2 {
		t.Errorf("pod = %+v", tmpl.Spec)
	}
}

func terminated(code int32, reason, msg string) corev1.ContainerState {
	return corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: code, Reason: reason, Message: msg}}
}

func TestDownloadFailure(t *testing.T) {
	t.Parallel()
	const cause = `semantic-router: models pull: 1 of 1 artifacts not available:
artifact "minilm": onnx/model.onnx: 401 Unauthorized from https://huggingface.co: the token from env.HF_TOKEN was refused`
	pod := func(name, hash string, s corev1.ContainerStatus) corev1.Pod {
		s.Name = initContainerName
		return corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: name, Annotations: map[string]string{annotationConfigHash: hash}},
			Status:     corev1.PodStatus{InitContainerStatuses: []corev1.ContainerStatus{s}},
		}
	}
	long := strings.Repeat("progress line\n", 100) + "the cause"
	tests := []struct {
		name string
		pods []corev1.Pod
		want string
	}{
		{"no pods", nil, ""},
		{"running", []corev1.Pod{pod("p", "h", corev1.ContainerStatus{State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}})}, ""},
		{"succeeded", []corev1.Pod{pod("p", "h", corev1.ContainerStatus{State: terminated(0, "Completed", "")})}, ""},
		{"failed", []corev1.Pod{pod("p", "h", corev1.ContainerStatus{State: terminated(1, "Error", cause+"\n")})},
			"pod p: init container models-pull failed (exit code 1): " + cause},
		{"log lines before the closing error are dropped", []corev1.Pod{pod("p", "h", corev1.ContainerStatus{State: terminated(1, "Error",
			"minilm: FAILED: artifact \"minilm\": ...\n{\"level\":\"ERROR\",\"msg\":\"artifact not available\"}\n"+cause+"\n")})},
			"pod p: init container models-pull failed (exit code 1): " + cause},
		{"crash loop keeps the last failure", []corev1.Pod{pod("p", "h", corev1.ContainerStatus{
			State:                corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff"}},
			LastTerminationState: terminated(1, "Error", cause)})},
			"pod p: init container models-pull failed (exit code 1): " + cause},
		{"a retry running after a failure is not a failure", []corev1.Pod{pod("p", "h", corev1.ContainerStatus{
			State:                corev1.ContainerState{Running: &corev1.ContainerStateRunning{}},
			LastTerminationState: terminated(1, "Error", cause)})}, ""},
		{"no message: the reason", []corev1.Pod{pod("p", "h", corev1.ContainerStatus{State: terminated(137, "OOMKilled", "")})},
			"pod p: init container models-pull failed (exit code 137): OOMKilled"},
		{"another config's pod is ignored", []corev1.Pod{pod("p", "old", corev1.ContainerStatus{State: terminated(1, "Error", cause)})}, ""},
		{"several pods: the first by name", []corev1.Pod{
			pod("p2", "h", corev1.ContainerStatus{State: terminated(2, "Error", "b")}),
			pod("p1", "h", corev1.ContainerStatus{State: terminated(1, "Error", "a")})},
			"pod p1: init container models-pull failed (exit code 1): a (and 1 more pods)"},
		{"a long message keeps its tail", []corev1.Pod{pod("p", "h", corev1.ContainerStatus{State: terminated(1, "Error", long)})},
			"pod p: init container models-pull failed (exit code 1): …" + strings.Repeat("progress line\n", 54) + "the cause"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := downloadFailure(tt.pods, "h"); got != tt.want {
				t.Errorf("downloadFailure =\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

func TestCacheDirDefaultMatchesRouter(t *testing.T) {
	t.Parallel()
	sr := newSR(vllmv1alpha1.SemanticRouterSpec{Config: artifactConfig("")})
	out, parsed, err := renderRouterConfig(sr.Spec.Config, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	// Without the operator's dir, the router puts the artifact in the
	// default cache directory.
	if parsed.Artifacts[0].Dir != vllmv1alpha1.DefaultArtifactsCacheDir+"/minilm" || strings.Contains(string(out), "dir:") {
		t.Errorf("dir = %s; config.yaml = %s", parsed.Artifacts[0].Dir, out)
	}
}
