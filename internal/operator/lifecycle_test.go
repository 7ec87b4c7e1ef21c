package operator

import (
	"context"
	"fmt"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
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
	createSR(t, ns, "router", vllmv1alpha1.SemanticRouterSpec{Config: &apiextensionsv1.JSON{Raw: []byte(`{"default_model":"m"}`)}})
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
	t.Run("edited configmap is restored", func(t *testing.T) {
		cm := &corev1.ConfigMap{ObjectMeta: key(ns, "router-config")}
		waitFor(t, cm, nil)
		want := cm.Data[configKey]
		cm.Data[configKey] = "default_model: hijacked\n"
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
	createSR(t, ns, "router", vllmv1alpha1.SemanticRouterSpec{Config: &apiextensionsv1.JSON{Raw: []byte(`{"default_model":"a"}`)}})
	waitReconciled(t, ns, "router")
	dep := &appsv1.Deployment{ObjectMeta: key(ns, "router")}
	waitFor(t, dep, nil)
	before := dep.Spec.Template.Annotations[annotationConfigHash]

	updateSR(t, ns, "router", func(sr *vllmv1alpha1.SemanticRouter) {
		sr.Spec.Config = &apiextensionsv1.JSON{Raw: []byte(`{"default_model":"b"}`)}
	})
	waitReconciled(t, ns, "router")
	cm := &corev1.ConfigMap{ObjectMeta: key(ns, "router-config")}
	waitFor(t, cm, func() error {
		if cm.Data[configKey] != "default_model: b\n" {
			return fmt.Errorf("config.yaml = %q", cm.Data[configKey])
		}
		return nil
	})
	waitFor(t, dep, func() error {
		got := dep.Spec.Template.Annotations[annotationConfigHash]
		if got == before || got != configHash([]byte(cm.Data[configKey])) {
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
	if got := dep.Spec.Template.Annotations[annotationConfigHash]; got != configHash([]byte("default_model: b\n")) {
		t.Errorf("config hash changed on an args-only change: %q", got)
	}
}

func TestPlaintextSecretRejected(t *testing.T) {
	requireAPIServer(t)
	ns := newNamespace(t)
	ctx := context.Background()
	const leaked = "sk-live-0123456789"
	createSR(t, ns, "router", vllmv1alpha1.SemanticRouterSpec{Config: &apiextensionsv1.JSON{Raw: []byte(
		`{"providers":[{"name":"openai","api_key":"` + leaked + `"},{"name":"b","api_key":"env.B_KEY"}],"cache":{"password":"hunter2"}}`)}})

	const wantMsg = "configmap router-config: spec.config.cache.password: plaintext credential; use an env.VAR or file:/path reference\n" +
		"spec.config.providers[0].api_key: plaintext credential; use an env.VAR or file:/path reference"
	var sr *vllmv1alpha1.SemanticRouter
	eventually(t, "Degraded condition", func(ctx context.Context) (bool, error) {
		var err error
		sr, err = getSR(ctx, ns, "router")
		if err != nil {
			return false, err
		}
		return meta.FindStatusCondition(sr.Status.Conditions, vllmv1alpha1.ConditionDegraded) != nil, nil
	})
	c := meta.FindStatusCondition(sr.Status.Conditions, vllmv1alpha1.ConditionDegraded)
	if c.Status != metav1.ConditionTrue || c.Reason != "ReconcileFailed" || c.ObservedGeneration != sr.Generation {
		t.Errorf("Degraded = %s/%s@%d, want True/ReconcileFailed@%d", c.Status, c.Reason, c.ObservedGeneration, sr.Generation)
	}
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
	eventually(t, "a ReconcileFailed warning event", func(ctx context.Context) (bool, error) {
		var evs eventsv1.EventList
		if err := k8sClient.List(ctx, &evs, client.InNamespace(ns)); err != nil {
			return false, err
		}
		for _, e := range evs.Items {
			if e.Reason == "ReconcileFailed" && e.Type == corev1.EventTypeWarning && e.Regarding.Name == "router" {
				if strings.Contains(e.Note, leaked) {
					return false, fmt.Errorf("event note leaks the secret: %s", e.Note)
				}
				return true, nil
			}
		}
		return false, fmt.Errorf("%d events, none ReconcileFailed", len(evs.Items))
	})

	// Fixing the spec clears Degraded and writes the reference, not a value.
	updateSR(t, ns, "router", func(sr *vllmv1alpha1.SemanticRouter) {
		sr.Spec.Config = &apiextensionsv1.JSON{Raw: []byte(`{"providers":[{"name":"openai","api_key":"env.OPENAI_API_KEY"}],"cache":{"password":"file:/var/run/secrets/cache/password"}}`)}
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

	// A later bad change leaves the last good ConfigMap in place.
	good := cm.Data[configKey]
	updateSR(t, ns, "router", func(sr *vllmv1alpha1.SemanticRouter) {
		sr.Spec.Config = &apiextensionsv1.JSON{Raw: []byte(`{"providers":[{"name":"openai","apiKey":"` + leaked + `"}]}`)}
	})
	eventually(t, "Degraded for the new generation", func(ctx context.Context) (bool, error) {
		sr, err := getSR(ctx, ns, "router")
		if err != nil {
			return false, err
		}
		c := meta.FindStatusCondition(sr.Status.Conditions, vllmv1alpha1.ConditionDegraded)
		return c != nil && c.ObservedGeneration == sr.Generation && sr.Status.ObservedGeneration < sr.Generation, nil
	})
	waitFor(t, cm, nil)
	if cm.Data[configKey] != good {
		t.Errorf("config.yaml changed after a rejected update: %q", cm.Data[configKey])
	}
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
