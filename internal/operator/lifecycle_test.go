package operator

import (
	"context"
	"fmt"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	vllmv1alpha1 "github.com/semantic-router/semantic-router/api/v1alpha1"
)

func TestDriftRepair(t *testing.T) {
	requireAPIServer(t)
	ns := newNamespace(t)
	createSR(t, ns, "router", vllmv1alpha1.SemanticRouterSpec{Config: modelConfig("")})
	waitReconciled(t, ns, "router")
	ctx := context.Background()

	t.Run("deleted service is recreated", func(t *testing.T) {
		svc := &corev1.Service{ObjectMeta: key(ns, "router")}
		waitFor(t, svc, nil)
		oldUID := svc.UID
		if err := k8sClient.Delete(ctx, svc); err != nil {
			t.Fatal(err)
		}
		waitFor(t, svc, func() error {
			if svc.UID == oldUID {
				return fmt.Errorf("still the old service")
			}
			return nil
		})
	})
	t.Run("edited deployment image is restored", func(t *testing.T) {
		dep := &appsv1.Deployment{ObjectMeta: key(ns, "router")}
		waitFor(t, dep, nil)
		want := dep.Spec.Template.Spec.Containers[0].Image
		dep.Spec.Template.Spec.Containers[0].Image = "example.com/evil:latest"
		if err := k8sClient.Update(ctx, dep); err != nil {
			t.Fatal(err)
		}
		waitFor(t, dep, func() error {
			if got := dep.Spec.Template.Spec.Containers[0].Image; got != want {
				return fmt.Errorf("image = %s", got)
			}
			return nil
		})
	})
	t.Run("items added to the deployment's lists are removed", func(t *testing.T) {
		dep := &appsv1.Deployment{ObjectMeta: key(ns, "router")}
		waitFor(t, dep, nil)
		spec := &dep.Spec.Template.Spec
		wantArgs, wantEnv := len(spec.Containers[0].Args), len(spec.Containers[0].Env)
		spec.Containers[0].Args = append(spec.Containers[0].Args, "-gateway", "extproc")
		spec.Containers[0].Env = append(spec.Containers[0].Env, corev1.EnvVar{Name: "INJECTED", Value: "x"})
		spec.Containers = append(spec.Containers, corev1.Container{Name: "sidecar", Image: "example.com/sidecar:latest"})
		if err := k8sClient.Update(ctx, dep); err != nil {
			t.Fatal(err)
		}
		waitFor(t, dep, func() error {
			c := dep.Spec.Template.Spec.Containers
			if len(c) != 1 || len(c[0].Args) != wantArgs || len(c[0].Env) != wantEnv {
				return fmt.Errorf("%d containers, args %v, %d env vars", len(c), c[0].Args, len(c[0].Env))
			}
			return nil
		})
	})
	t.Run("edited configmap is restored", func(t *testing.T) {
		cm := &corev1.ConfigMap{ObjectMeta: key(ns, "router-config")}
		waitFor(t, cm, nil)
		want := cm.Data[configKey]
		cm.Data[configKey] = "models: []\n"
		if err := k8sClient.Update(ctx, cm); err != nil {
			t.Fatal(err)
		}
		waitFor(t, cm, func() error {
			if got := cm.Data[configKey]; got != want {
				return fmt.Errorf("config.yaml = %q", got)
			}
			return nil
		})
	})
	t.Run("extra labels survive, removed ones come back", func(t *testing.T) {
		sa := &corev1.ServiceAccount{ObjectMeta: key(ns, "router")}
		waitFor(t, sa, nil)
		delete(sa.Labels, labelInstance)
		sa.Labels["owner"] = "someone"
		if err := k8sClient.Update(ctx, sa); err != nil {
			t.Fatal(err)
		}
		waitFor(t, sa, func() error {
			if sa.Labels[labelInstance] != "router" || sa.Labels["owner"] != "someone" {
				return fmt.Errorf("labels = %v", sa.Labels)
			}
			return nil
		})
	})
}

func TestAutoscalingOnOff(t *testing.T) {
	requireAPIServer(t)
	ns := newNamespace(t)
	ctx := context.Background()
	createSR(t, ns, "router", vllmv1alpha1.SemanticRouterSpec{
		Replicas: ptr.To[int32](3),
		Autoscaling: vllmv1alpha1.AutoscalingSpec{Enabled: true, MinReplicas: 2, MaxReplicas: 6,
			TargetCPUUtilizationPercentage: 70, TargetMemoryUtilizationPercentage: ptr.To[int32](75)},
	})
	sr := waitReconciled(t, ns, "router")

	hpa := &autoscalingv2.HorizontalPodAutoscaler{ObjectMeta: key(ns, "router")}
	waitFor(t, hpa, nil)
	checkOwned(t, hpa, sr)
	if hpa.Spec.ScaleTargetRef.Kind != "Deployment" || hpa.Spec.ScaleTargetRef.Name != "router" {
		t.Errorf("scaleTargetRef = %+v, want Deployment router", hpa.Spec.ScaleTargetRef)
	}
	if *hpa.Spec.MinReplicas != 2 || hpa.Spec.MaxReplicas != 6 {
		t.Errorf("min/max = %d/%d, want 2/6", *hpa.Spec.MinReplicas, hpa.Spec.MaxReplicas)
	}
	var targets []string
	for _, m := range hpa.Spec.Metrics {
		targets = append(targets, fmt.Sprintf("%s=%d", m.Resource.Name, *m.Resource.Target.AverageUtilization))
	}
	if got, want := strings.Join(targets, ","), "cpu=70,memory=75"; got != want {
		t.Errorf("HPA targets = %s, want %s", got, want)
	}

	dep := &appsv1.Deployment{ObjectMeta: key(ns, "router")}
	waitFor(t, dep, nil)
	if got := *dep.Spec.Replicas; got != 2 {
		t.Errorf("deployment replicas on create with HPA = %d, want minReplicas 2", got)
	}

	// The HPA scales the Deployment; a later reconcile must leave that alone.
	dep.Spec.Replicas = ptr.To[int32](5)
	if err := k8sClient.Update(ctx, dep); err != nil {
		t.Fatal(err)
	}
	updateSR(t, ns, "router", func(sr *vllmv1alpha1.SemanticRouter) { sr.Spec.PodAnnotations = map[string]string{"touch": "1"} })
	waitReconciled(t, ns, "router")
	waitFor(t, dep, func() error {
		if dep.Spec.Template.Annotations["touch"] != "1" {
			return fmt.Errorf("template not updated yet")
		}
		return nil
	})
	if got := *dep.Spec.Replicas; got != 5 {
		t.Errorf("deployment replicas after reconcile with HPA = %d, want 5 (left to the HPA)", got)
	}

	// Off again: the HPA goes and spec.replicas rules.
	updateSR(t, ns, "router", func(sr *vllmv1alpha1.SemanticRouter) { sr.Spec.Autoscaling.Enabled = false })
	waitReconciled(t, ns, "router")
	waitGone(t, hpa)
	waitFor(t, dep, func() error {
		if *dep.Spec.Replicas != 3 {
			return fmt.Errorf("replicas = %d", *dep.Spec.Replicas)
		}
		return nil
	})
}

func TestConfigChangeRollsPods(t *testing.T) {
	requireAPIServer(t)
	ns := newNamespace(t)
	createSR(t, ns, "router", vllmv1alpha1.SemanticRouterSpec{Config: modelConfig(`"routing":{"virtual_model":"a"}`)})
	waitReconciled(t, ns, "router")
	dep := &appsv1.Deployment{ObjectMeta: key(ns, "router")}
	waitFor(t, dep, nil)
	before := dep.Spec.Template.Annotations[annotationConfigHash]

	updateSR(t, ns, "router", func(sr *vllmv1alpha1.SemanticRouter) {
		sr.Spec.Config = modelConfig(`"routing":{"virtual_model":"b"}`)
	})
	waitReconciled(t, ns, "router")
	want, err := renderConfig(modelConfig(`"routing":{"virtual_model":"b"}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	cm := &corev1.ConfigMap{ObjectMeta: key(ns, "router-config")}
	waitFor(t, cm, func() error {
		if cm.Data[configKey] != string(want) {
			return fmt.Errorf("config.yaml = %q", cm.Data[configKey])
		}
		return nil
	})
	waitFor(t, dep, func() error {
		got := dep.Spec.Template.Annotations[annotationConfigHash]
		if got == before || got != configHash(want) {
			return fmt.Errorf("config hash %q (was %q)", got, before)
		}
		return nil
	})

	// A change outside the config keeps the hash.
	updateSR(t, ns, "router", func(sr *vllmv1alpha1.SemanticRouter) { sr.Spec.Args = []string{"-v"} })
	waitReconciled(t, ns, "router")
	waitFor(t, dep, func() error {
		if len(dep.Spec.Template.Spec.Containers[0].Args) == 0 || !strings.HasSuffix(strings.Join(dep.Spec.Template.Spec.Containers[0].Args, " "), "-v") {
			return fmt.Errorf("args not updated")
		}
		return nil
	})
	if got := dep.Spec.Template.Annotations[annotationConfigHash]; got != configHash(want) {
		t.Errorf("config hash changed on an args-only change: %q", got)
	}
}

// badModel is a model whose provider holds a literal key (and, for the
// URL case, credentials in base_url).
func badModel(field, value string) string {
	return `{"model_name":"openai","provider":{"type":"openai_compatible","base_url":"http://vllm:8000/v1","` + field + `":"` + value + `"}}`
}

func TestPlaintextSecretRejected(t *testing.T) {
	requireAPIServer(t)
	ns := newNamespace(t)
	ctx := context.Background()
	const leaked = "sk-live-0123456789"
	createSR(t, ns, "router", vllmv1alpha1.SemanticRouterSpec{Config: &apiextensionsv1.JSON{Raw: []byte(
		`{"models":[` + badModel("api_key", leaked) + `,{"model_name":"b","provider":{"type":"openai_compatible","base_url":"http://u:` + leaked + `@vllm-b:8000/v1"}}],` +
			`"management":{"tokens":[{"name":"ops","token":"hunter2"}]}}`)}})

	const wantMsg = "configmap router-config not updated: spec.config.management.tokens[0].token: plaintext credential; use an env.VAR or file:/path reference\n" +
		"spec.config.models[0].provider.api_key: plaintext credential; use an env.VAR or file:/path reference\n" +
		"spec.config.models[1].provider.base_url: the URL carries credentials (user:password@); use api_key with an env.VAR reference"
	sr := waitDegraded(t, ns, "router", reasonInvalidConfig)
	c := meta.FindStatusCondition(sr.Status.Conditions, vllmv1alpha1.ConditionDegraded)
	if c.Message != wantMsg {
		t.Errorf("Degraded message =\n%s\nwant\n%s", c.Message, wantMsg)
	}
	if sr.Status.ObservedGeneration != 0 {
		t.Errorf("observedGeneration = %d after a failed reconcile, want 0", sr.Status.ObservedGeneration)
	}
	err := k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: "router-config"}, &corev1.ConfigMap{})
	if !apierrors.IsNotFound(err) {
		t.Errorf("ConfigMap with a plaintext secret: got err %v, want NotFound (never written)", err)
	}
	ev := waitEvent(t, ns, "router", reasonInvalidConfig)
	if ev.Type != corev1.EventTypeWarning || strings.Contains(ev.Note, leaked) {
		t.Errorf("event = %s %q", ev.Type, ev.Note)
	}

	// Fixing the spec clears Degraded and writes the reference, not a value.
	updateSR(t, ns, "router", func(sr *vllmv1alpha1.SemanticRouter) {
		sr.Spec.Config = &apiextensionsv1.JSON{Raw: []byte(`{"models":[` + badModel("api_key", "env.OPENAI_API_KEY") + `],` +
			`"management":{"tokens":[{"name":"ops","token":"file:/var/run/secrets/mgmt/token"}]}}`)}
	})
	sr = waitReconciled(t, ns, "router")
	if c := meta.FindStatusCondition(sr.Status.Conditions, vllmv1alpha1.ConditionDegraded); c != nil {
		t.Errorf("Degraded after the fix = %+v, want absent", c)
	}
	cm := &corev1.ConfigMap{ObjectMeta: key(ns, "router-config")}
	waitFor(t, cm, nil)
	if got := cm.Data[configKey]; !strings.Contains(got, "api_key: env.OPENAI_API_KEY") || strings.Contains(got, leaked) {
		t.Errorf("config.yaml = %q", got)
	}

	// Later bad changes leave the last good ConfigMap in place: a literal
	// key, and a config the router refuses, with the router's own message.
	good := cm.Data[configKey]
	for _, tc := range []struct{ config, msg string }{
		{`{"models":[` + badModel("apiKey", leaked) + `]}`, "configmap router-config not updated: spec.config.models[0].provider.apiKey: plaintext credential; use an env.VAR or file:/path reference"},
		{`{"models":[{"model_name":"m","provider":{"type":"openai_compatible"}}]}`, "configmap router-config not updated: the router refuses the rendered config.yaml:\n" +
			"models[0].provider.base_url (line 3): is required"},
	} {
		updateSR(t, ns, "router", func(sr *vllmv1alpha1.SemanticRouter) {
			sr.Spec.Config = &apiextensionsv1.JSON{Raw: []byte(tc.config)}
		})
		sr := waitDegraded(t, ns, "router", reasonInvalidConfig)
		if c := meta.FindStatusCondition(sr.Status.Conditions, vllmv1alpha1.ConditionDegraded); c.Message != tc.msg {
			t.Errorf("Degraded message =\n%s\nwant\n%s", c.Message, tc.msg)
		}
		waitFor(t, cm, nil)
		if cm.Data[configKey] != good {
			t.Errorf("config.yaml changed after a rejected update: %q", cm.Data[configKey])
		}
	}
}

// waitDegraded waits for Degraded=True with reason for the current
// generation, and returns the SemanticRouter then.
func waitDegraded(t *testing.T, ns, name, reason string) *vllmv1alpha1.SemanticRouter {
	t.Helper()
	var out *vllmv1alpha1.SemanticRouter
	eventually(t, "Degraded "+reason+" for the current generation", func(ctx context.Context) (bool, error) {
		sr, err := getSR(ctx, ns, name)
		if err != nil {
			return false, err
		}
		out = sr
		c := meta.FindStatusCondition(sr.Status.Conditions, vllmv1alpha1.ConditionDegraded)
		if c == nil || c.ObservedGeneration != sr.Generation {
			return false, nil
		}
		if c.Reason != reason {
			return false, fmt.Errorf("Degraded reason %s: %s", c.Reason, c.Message)
		}
		return c.Status == metav1.ConditionTrue, nil
	})
	return out
}

func TestDeletionWithFinalizer(t *testing.T) {
	requireAPIServer(t)
	ctx := context.Background()
	tests := []struct {
		name           string
		policy         vllmv1alpha1.RetentionPolicy
		persistenceOff bool
		wantStillOwned bool
	}{
		{name: "retain orphans the claim", policy: vllmv1alpha1.RetentionRetain},
		{name: "retain after persistence off", policy: vllmv1alpha1.RetentionRetain, persistenceOff: true},
		{name: "delete leaves it to the collector", policy: vllmv1alpha1.RetentionDelete, wantStillOwned: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ns := newNamespace(t)
			createSR(t, ns, "router", vllmv1alpha1.SemanticRouterSpec{
				Persistence: vllmv1alpha1.PersistenceSpec{RetentionPolicy: tt.policy}})
			sr := waitReconciled(t, ns, "router")
			pvc := &corev1.PersistentVolumeClaim{ObjectMeta: key(ns, "router-data")}
			waitFor(t, pvc, nil)
			checkOwned(t, pvc, sr)
			if tt.persistenceOff {
				updateSR(t, ns, "router", func(sr *vllmv1alpha1.SemanticRouter) { sr.Spec.Persistence.Enabled = ptr.To(false) })
				sr = waitReconciled(t, ns, "router")
				waitFor(t, pvc, nil) // a spec edit never deletes a claim
			}

			if err := k8sClient.Delete(ctx, sr); err != nil {
				t.Fatal(err)
			}
			waitGone(t, &vllmv1alpha1.SemanticRouter{ObjectMeta: key(ns, "router")})

			// envtest runs no garbage collector, so what remains shows the
			// owner references the collector would act on.
			waitFor(t, pvc, nil)
			if owned := metav1.GetControllerOf(pvc) != nil; owned != tt.wantStillOwned {
				t.Errorf("pvc owned after delete = %t, want %t", owned, tt.wantStillOwned)
			}
		})
	}
}

// TestRefusedGenerationWritesNothing: a generation with a valid config
// change and a Deployment or Service the API server or the operator refuses writes none of
// the ConfigMap, the Deployment and the Service, so pods never load the
// refused generation's config and no half of it rolls out.
func TestRefusedGenerationWritesNothing(t *testing.T) {
	requireAPIServer(t)
	const annotationRule = `name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character ` +
		`(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`
	tests := []struct {
		name   string
		change func(*vllmv1alpha1.SemanticRouter)
		want   string
	}{{
		name:   "pod annotation",
		change: func(sr *vllmv1alpha1.SemanticRouter) { sr.Spec.PodAnnotations = map[string]string{"bad key!": "x"} },
		want: `deployment router refused by the API server, nothing of this generation was written: ` +
			`Deployment.apps "router" is invalid: spec.template.annotations: Invalid value: "bad key!": ` + annotationRule,
	}, {
		name: "service annotation",
		change: func(sr *vllmv1alpha1.SemanticRouter) {
			sr.Spec.Service.Annotations = map[string]string{"bad key!": "x"}
		},
		want: `service router refused by the API server, nothing of this generation was written: ` +
			`Service "router" is invalid: metadata.annotations: Invalid value: "bad key!": ` + annotationRule,
	}, {
		name:   "two listeners on one port",
		change: func(sr *vllmv1alpha1.SemanticRouter) { sr.Spec.Service.Metrics.TargetPort = 8080 },
		want:   "spec.service.api and spec.service.metrics both have the router listen on container port 8080: give one another targetPort",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			ns := newNamespace(t)
			createSR(t, ns, "router", vllmv1alpha1.SemanticRouterSpec{Config: modelConfig(`"routing":{"virtual_model":"a"}`)})
			waitReconciled(t, ns, "router")
			cm := &corev1.ConfigMap{ObjectMeta: key(ns, "router-config")}
			dep := &appsv1.Deployment{ObjectMeta: key(ns, "router")}
			svc := &corev1.Service{ObjectMeta: key(ns, "router")}
			for _, obj := range []client.Object{cm, dep, svc} {
				waitFor(t, obj, nil)
			}

			updateSR(t, ns, "router", func(sr *vllmv1alpha1.SemanticRouter) {
				tt.change(sr)
				sr.Spec.Config = modelConfig(`"routing":{"virtual_model":"smart"}`)
			})
			sr := waitDegraded(t, ns, "router", reasonInvalidSpec)
			if c := meta.FindStatusCondition(sr.Status.Conditions, vllmv1alpha1.ConditionDegraded); c.Message != tt.want {
				t.Errorf("Degraded message\n got: %s\nwant: %s", c.Message, tt.want)
			}
			for _, obj := range []client.Object{cm, dep, svc} {
				now := obj.DeepCopyObject().(client.Object)
				if err := k8sClient.Get(ctx, client.ObjectKeyFromObject(obj), now); err != nil {
					t.Fatal(err)
				}
				if now.GetResourceVersion() != obj.GetResourceVersion() {
					t.Errorf("%T %s was written by the refused generation", obj, obj.GetName())
				}
			}
		})
	}
}

// TestHTTPAppProtocol: spec.service.http.appProtocol reaches the Service, so that a gateway
// can speak HTTP/2 without TLS to the router; a config that refuses HTTP/2 without TLS is
// refused beside it, and the Service keeps what it had.
func TestHTTPAppProtocol(t *testing.T) {
	requireAPIServer(t)
	ns := newNamespace(t)
	ctx := context.Background()
	models := `"models":[` + badModel("api_key", "env.OPENAI_API_KEY") + `]`
	createSR(t, ns, "router", vllmv1alpha1.SemanticRouterSpec{
		Config:  &apiextensionsv1.JSON{Raw: []byte(`{` + models + `}`)},
		Service: vllmv1alpha1.ServiceSpec{HTTP: vllmv1alpha1.PortSpec{AppProtocol: "kubernetes.io/h2c"}},
	})
	waitReconciled(t, ns, "router")
	httpAppProtocol := func() string {
		svc := &corev1.Service{}
		if err := k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: "router"}, svc); err != nil {
			t.Fatal(err)
		}
		for _, p := range svc.Spec.Ports {
			if p.Name == portNameHTTP && p.AppProtocol != nil {
				return *p.AppProtocol
			}
		}
		return ""
	}
	if got := httpAppProtocol(); got != "kubernetes.io/h2c" {
		t.Fatalf("the http port's appProtocol = %q, want kubernetes.io/h2c", got)
	}

	updateSR(t, ns, "router", func(sr *vllmv1alpha1.SemanticRouter) {
		sr.Spec.Config = &apiextensionsv1.JSON{Raw: []byte(`{` + models + `,"server":{"h2c":false}}`)}
	})
	sr := waitDegraded(t, ns, "router", reasonInvalidConfig)
	const want = "configmap router-config not updated: spec.service.http.appProtocol is kubernetes.io/h2c, which has gateways speak HTTP/2 without TLS to the router, " +
		"and spec.config.server.h2c is false, which refuses it: remove one of the two"
	if c := meta.FindStatusCondition(sr.Status.Conditions, vllmv1alpha1.ConditionDegraded); c.Message != want {
		t.Errorf("Degraded message =\n%s\nwant\n%s", c.Message, want)
	}
	if got := httpAppProtocol(); got != "kubernetes.io/h2c" {
		t.Errorf("after the refused generation the http port's appProtocol = %q, want kubernetes.io/h2c (unchanged)", got)
	}
}
