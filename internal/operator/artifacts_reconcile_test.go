package operator

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	vllmv1alpha1 "github.com/semantic-router/semantic-router/api/v1alpha1"
)

// hubToken is the token in the test Secret; it must never leave it.
const hubToken = "hf_t0ps3cretTokenValue"

// requireNoValue fails when any of the objects, as JSON, contains s.
func requireNoValue(t *testing.T, s string, objs ...any) {
	t.Helper()
	for _, o := range objs {
		b, err := json.Marshal(o)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), s) {
			t.Errorf("%T shows the token value: %s", o, b)
		}
	}
}

func namespaceEvents(t *testing.T, ns string) *eventsv1.EventList {
	t.Helper()
	var evs eventsv1.EventList
	if err := k8sClient.List(context.Background(), &evs, client.InNamespace(ns)); err != nil {
		t.Fatal(err)
	}
	return &evs
}

// TestArtifactTokenFromSecret: a CR with an artifact and its token from a
// Secret gets the models-pull init container, the cache on the claim and
// the token as a secretKeyRef; the value is nowhere the operator writes.
func TestArtifactTokenFromSecret(t *testing.T) {
	requireAPIServer(t)
	ns := newNamespace(t)
	ctx := context.Background()
	secret := &corev1.Secret{ObjectMeta: key(ns, "hf"), StringData: map[string]string{"token": hubToken}}
	if err := k8sClient.Create(ctx, secret); err != nil {
		t.Fatal(err)
	}
	createSR(t, ns, "router", vllmv1alpha1.SemanticRouterSpec{
		Env:    []vllmv1alpha1.EnvVar{secretEnv("HF_TOKEN", "hf", "token")},
		Config: artifactConfig(`,"token":"env.HF_TOKEN"`),
	})
	sr := waitReconciled(t, ns, "router")
	if c := meta.FindStatusCondition(sr.Status.Conditions, vllmv1alpha1.ConditionDegraded); c != nil {
		t.Fatalf("Degraded = %+v", c)
	}
	if sr.Spec.Artifacts.Download != vllmv1alpha1.ArtifactDownloadInitContainer || sr.Spec.Artifacts.CacheDir != "/models" {
		t.Errorf("spec.artifacts defaults = %+v", sr.Spec.Artifacts)
	}

	dep := &appsv1.Deployment{ObjectMeta: key(ns, "router")}
	waitFor(t, dep, nil)
	pod := dep.Spec.Template.Spec
	if len(pod.InitContainers) != 1 {
		t.Fatalf("init containers = %+v", pod.InitContainers)
	}
	ic := pod.InitContainers[0]
	if ic.Name != "models-pull" || ic.Image != imageRef(sr) ||
		strings.Join(ic.Args, " ") != "models pull -config /etc/semantic-router/config.yaml" ||
		ic.TerminationMessagePolicy != corev1.TerminationMessageFallbackToLogsOnError {
		t.Errorf("init container = %+v", ic)
	}
	if len(ic.Env) != 1 || ic.Env[0].Name != "HF_TOKEN" || ic.Env[0].Value != "" || ic.Env[0].ValueFrom == nil ||
		ic.Env[0].ValueFrom.SecretKeyRef == nil || ic.Env[0].ValueFrom.SecretKeyRef.Name != "hf" || ic.Env[0].ValueFrom.SecretKeyRef.Key != "token" {
		t.Errorf("init container env = %+v, want HF_TOKEN from secret hf key token", ic.Env)
	}
	if args := strings.Join(pod.Containers[0].Args, " "); !strings.HasSuffix(args, " -offline") {
		t.Errorf("router args = %q, want -offline (the init container downloads)", args)
	}
	cacheMount := corev1.VolumeMount{Name: volumeData, MountPath: "/models", SubPath: "models"}
	for _, c := range []corev1.Container{ic, pod.Containers[0]} {
		if !containsMount(c.VolumeMounts, cacheMount) {
			t.Errorf("%s mounts = %+v, want the claim's models/ at /models", c.Name, c.VolumeMounts)
		}
	}

	cm := &corev1.ConfigMap{ObjectMeta: key(ns, "router-config")}
	waitFor(t, cm, nil)
	for _, want := range []string{"token: env.HF_TOKEN", "dir: /models/minilm", "repository: sentence-transformers/all-MiniLM-L6-v2"} {
		if !strings.Contains(cm.Data[configKey], want) {
			t.Errorf("config.yaml lacks %q:\n%s", want, cm.Data[configKey])
		}
	}
	requireNoValue(t, hubToken, dep, cm, sr, namespaceEvents(t, ns))

	// Persistence off: an emptyDir, with a Warning that says so.
	updateSR(t, ns, "router", func(sr *vllmv1alpha1.SemanticRouter) { sr.Spec.Persistence.Enabled = ptr.To(false) })
	waitReconciled(t, ns, "router")
	ev := waitEvent(t, ns, "router", reasonArtifactsNotPersisted)
	const note = "spec.persistence is disabled: model artifacts are cached in an emptyDir at /models and downloaded again whenever a pod starts; enable spec.persistence to keep them"
	if ev.Type != corev1.EventTypeWarning || ev.Note != note {
		t.Errorf("event = %s %q", ev.Type, ev.Note)
	}
	waitFor(t, dep, func() error {
		for _, v := range dep.Spec.Template.Spec.Volumes {
			if v.Name == volumeModels && v.EmptyDir != nil {
				return nil
			}
		}
		return fmt.Errorf("volumes = %+v, want the emptyDir models", dep.Spec.Template.Spec.Volumes)
	})
}

func containsMount(ms []corev1.VolumeMount, m corev1.VolumeMount) bool {
	for _, x := range ms {
		if x.Name == m.Name && x.MountPath == m.MountPath && x.SubPath == m.SubPath {
			return true
		}
	}
	return false
}

// TestArtifactTokenNotFromSecretRefused: a token variable with a plain value
// or from a ConfigMap is refused, Degraded names the field, and nothing is
// written: no ConfigMap, no Deployment, no value in status or events. The
// names are chosen so the CRD's own rule (names that look like a token
// need a secretKeyRef) does not catch them first.
func TestArtifactTokenNotFromSecretRefused(t *testing.T) {
	requireAPIServer(t)
	const value = "hub-plain-value-0123"
	tests := []struct {
		name string
		env  vllmv1alpha1.EnvVar
		msg  string
	}{
		{"plain value", vllmv1alpha1.EnvVar{Name: "HUB_AUTH", Value: value},
			"configmap router-config not updated: spec.config.artifacts[0].token: env.HUB_AUTH comes from spec.env[0].value (a plain value); an artifact token must come from a Secret: set spec.env[0].valueFrom.secretKeyRef"},
		{"configMapKeyRef", vllmv1alpha1.EnvVar{Name: "HUB_AUTH", ValueFrom: &corev1.EnvVarSource{ConfigMapKeyRef: &corev1.ConfigMapKeySelector{
			LocalObjectReference: corev1.LocalObjectReference{Name: "hub"}, Key: "auth"}}},
			"configmap router-config not updated: spec.config.artifacts[0].token: env.HUB_AUTH comes from spec.env[0].valueFrom.configMapKeyRef (a ConfigMap); an artifact token must come from a Secret: set spec.env[0].valueFrom.secretKeyRef"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ns := newNamespace(t)
			ctx := context.Background()
			hub := &corev1.ConfigMap{ObjectMeta: key(ns, "hub"), Data: map[string]string{"auth": value}}
			if err := k8sClient.Create(ctx, hub); err != nil {
				t.Fatal(err)
			}
			createSR(t, ns, "router", vllmv1alpha1.SemanticRouterSpec{
				Env:    []vllmv1alpha1.EnvVar{tt.env},
				Config: artifactConfig(`,"token":"env.HUB_AUTH"`),
			})
			sr := waitDegraded(t, ns, "router", reasonArtifactTokenNotSecret)
			if c := meta.FindStatusCondition(sr.Status.Conditions, vllmv1alpha1.ConditionDegraded); c.Message != tt.msg {
				t.Errorf("Degraded message =\n%s\nwant\n%s", c.Message, tt.msg)
			}
			ev := waitEvent(t, ns, "router", reasonArtifactTokenNotSecret)
			if ev.Type != corev1.EventTypeWarning || ev.Note != tt.msg {
				t.Errorf("event = %s %q", ev.Type, ev.Note)
			}
			requireAbsent(t, &corev1.ConfigMap{}, ns, "router-config")
			requireAbsent(t, &appsv1.Deployment{}, ns, "router")
			requireNoValue(t, value, sr.Status, namespaceEvents(t, ns))
		})
	}
}

// TestArtifactDownloadFailed: a router pod whose models-pull init container
// failed makes the SemanticRouter Degraded with the cause from the
// termination message; a later success clears it. envtest runs no kubelet,
// so the test writes the pod and its status as the kubelet would.
func TestArtifactDownloadFailed(t *testing.T) {
	requireAPIServer(t)
	ns := newNamespace(t)
	ctx := context.Background()
	createSR(t, ns, "router", vllmv1alpha1.SemanticRouterSpec{
		Env:    []vllmv1alpha1.EnvVar{secretEnv("HF_TOKEN", "hf", "token")},
		Config: artifactConfig(`,"token":"env.HF_TOKEN"`),
	})
	waitReconciled(t, ns, "router")
	dep := &appsv1.Deployment{ObjectMeta: key(ns, "router")}
	waitFor(t, dep, nil)

	tmpl := dep.Spec.Template
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "router-abc12", Labels: tmpl.Labels, Annotations: tmpl.Annotations},
		Spec:       tmpl.Spec,
	}
	if err := k8sClient.Create(ctx, pod); err != nil {
		t.Fatalf("creating pod: %v", err)
	}
	// The tail of the output of `models pull`, as FallbackToLogsOnError
	// keeps it: its log lines, then the error it exits with.
	const cause = "semantic-router: models pull: 1 of 1 artifacts not available:\n" +
		`artifact "minilm": onnx/model.onnx: 401 Unauthorized: check the token in env.HF_TOKEN`
	const output = `minilm: FAILED: artifact "minilm": onnx/model.onnx: 401 Unauthorized` + "\n" +
		`{"level":"ERROR","msg":"artifact not available","artifact":"minilm"}` + "\n" + cause + "\n"
	setInitStatus(t, pod, corev1.ContainerStatus{
		State:                corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff"}},
		LastTerminationState: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 1, Reason: "Error", Message: output}},
	})

	const want = "pod router-abc12: init container models-pull failed (exit code 1): " + cause
	sr := waitDegraded(t, ns, "router", reasonArtifactDownloadFailed)
	if c := meta.FindStatusCondition(sr.Status.Conditions, vllmv1alpha1.ConditionDegraded); c.Message != want {
		t.Errorf("Degraded message =\n%s\nwant\n%s", c.Message, want)
	}
	if ev := waitEvent(t, ns, "router", reasonArtifactDownloadFailed); ev.Type != corev1.EventTypeWarning || ev.Note != want {
		t.Errorf("event = %s %q", ev.Type, ev.Note)
	}

	// The reconciles that the pod's status brought rewrote nothing: the
	// stored template, with the API server's defaults, matches the desired.
	if got := updates.inNamespace(ns)[fmt.Sprintf("*v1.Deployment %s/router", ns)]; got != 0 {
		t.Errorf("deployment updates = %d, want 0", got)
	}

	// The download succeeds on a retry: Degraded goes away.
	setInitStatus(t, pod, corev1.ContainerStatus{
		State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 0, Reason: "Completed"}},
	})
	eventually(t, "Degraded to clear", func(ctx context.Context) (bool, error) {
		sr, err := getSR(ctx, ns, "router")
		if err != nil {
			return false, err
		}
		return meta.FindStatusCondition(sr.Status.Conditions, vllmv1alpha1.ConditionDegraded) == nil, nil
	})
}

// setInitStatus writes the models-pull init container's status, as the
// kubelet does.
func setInitStatus(t *testing.T, pod *corev1.Pod, s corev1.ContainerStatus) {
	t.Helper()
	s.Name = initContainerName
	s.Image = pod.Spec.InitContainers[0].Image
	eventually(t, "writing pod status", func(ctx context.Context) (bool, error) {
		if err := k8sClient.Get(ctx, client.ObjectKeyFromObject(pod), pod); err != nil {
			return false, err
		}
		pod.Status.Phase = corev1.PodPending
		pod.Status.InitContainerStatuses = []corev1.ContainerStatus{s}
		if err := k8sClient.Status().Update(ctx, pod); err != nil {
			return false, err
		}
		return true, nil
	})
}
