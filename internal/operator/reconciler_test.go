package operator

import (
	"context"
	"fmt"
	"slices"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	vllmv1alpha1 "github.com/semantic-router/semantic-router/api/v1alpha1"
)

// createSR creates a SemanticRouter and returns it as stored. A spec that
// neither configures nor discovers a model gets modelConfig(""), since the
// router needs one.
func createSR(t *testing.T, ns, name string, spec vllmv1alpha1.SemanticRouterSpec) *vllmv1alpha1.SemanticRouter {
	t.Helper()
	return createSRWith(t, ns, name, nil, spec)
}

// createBareSR creates a SemanticRouter that the bare manager reconciles:
// it sees a cluster without the optional APIs.
func createBareSR(t *testing.T, ns, name string, spec vllmv1alpha1.SemanticRouterSpec) *vllmv1alpha1.SemanticRouter {
	t.Helper()
	return createSRWith(t, ns, name, map[string]string{bareLabel: "true"}, spec)
}

func createSRWith(t *testing.T, ns, name string, labels map[string]string, spec vllmv1alpha1.SemanticRouterSpec) *vllmv1alpha1.SemanticRouter {
	t.Helper()
	if spec.Config == nil && len(spec.VLLMEndpoints) == 0 {
		spec.Config = modelConfig("")
	}
	sr := &vllmv1alpha1.SemanticRouter{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: labels}, Spec: spec}
	if err := k8sClient.Create(context.Background(), sr); err != nil {
		t.Fatalf("creating SemanticRouter: %v", err)
	}
	return sr
}

// waitFor waits until obj (namespace and name set) exists and check accepts it.
func waitFor(t *testing.T, obj client.Object, check func() error) {
	t.Helper()
	what := fmt.Sprintf("%T %s", obj, obj.GetName())
	eventually(t, what, func(ctx context.Context) (bool, error) {
		if err := k8sClient.Get(ctx, client.ObjectKeyFromObject(obj), obj); err != nil {
			return false, err
		}
		if check == nil {
			return true, nil
		}
		err := check()
		return err == nil, err
	})
}

// waitGone waits until obj no longer exists.
func waitGone(t *testing.T, obj client.Object) {
	t.Helper()
	eventually(t, fmt.Sprintf("%T %s to be deleted", obj, obj.GetName()), func(ctx context.Context) (bool, error) {
		err := k8sClient.Get(ctx, client.ObjectKeyFromObject(obj), obj)
		if apierrors.IsNotFound(err) {
			return true, nil
		}
		return false, err
	})
}

func key(ns, name string) metav1.ObjectMeta { return metav1.ObjectMeta{Namespace: ns, Name: name} }

// checkOwned verifies the recommended labels and the controller reference.
func checkOwned(t *testing.T, obj client.Object, sr *vllmv1alpha1.SemanticRouter) {
	t.Helper()
	l := obj.GetLabels()
	want := map[string]string{
		labelInstance: sr.Name, labelName: "semantic-router", labelComponent: "router",
		labelPartOf: "semantic-router", labelManagedBy: "semantic-router-operator",
	}
	for k, v := range want {
		if l[k] != v {
			t.Errorf("%T %s: label %s = %q, want %q", obj, obj.GetName(), k, l[k], v)
		}
	}
	ref := metav1.GetControllerOf(obj)
	if ref == nil || ref.UID != sr.UID || ref.Kind != "SemanticRouter" || ref.APIVersion != "vllm.ai/v1alpha1" {
		t.Errorf("%T %s: controller reference = %+v, want SemanticRouter %s", obj, obj.GetName(), ref, sr.UID)
	}
}

func TestReconcileCreatesOwnedObjects(t *testing.T) {
	requireAPIServer(t)
	ns := newNamespace(t)
	createSR(t, ns, "router", vllmv1alpha1.SemanticRouterSpec{
		Replicas:       ptr.To[int32](2),
		Env:            []vllmv1alpha1.EnvVar{{Name: "LOG_LEVEL", Value: "debug"}},
		Args:           []string{"-log-format", "json"},
		PodAnnotations: map[string]string{"team": "ml"},
		Ingress:        vllmv1alpha1.IngressSpec{Enabled: true, Hosts: []vllmv1alpha1.IngressHost{{Host: "router.example"}}},
		Service:        vllmv1alpha1.ServiceSpec{Metrics: vllmv1alpha1.PortSpec{Enabled: ptr.To(false)}},
		Config:         modelConfig(`"observability":{"tracing":{"enabled":true,"sampling":{"type":"probabilistic","rate":0.25}}}`),
	})
	sr := waitReconciled(t, ns, "router")

	if !slices.Contains(sr.Finalizers, vllmv1alpha1.Finalizer) {
		t.Errorf("finalizers = %v, want %s", sr.Finalizers, vllmv1alpha1.Finalizer)
	}
	if sr.Status.GatewayMode != vllmv1alpha1.GatewayModeStandalone {
		t.Errorf("gatewayMode = %q, want standalone", sr.Status.GatewayMode)
	}
	if sr.Status.Phase != vllmv1alpha1.PhasePending {
		t.Errorf("phase = %q, want Pending (no pod is ready)", sr.Status.Phase)
	}

	sa := &corev1.ServiceAccount{ObjectMeta: key(ns, "router")}
	cm := &corev1.ConfigMap{ObjectMeta: key(ns, "router-config")}
	pvc := &corev1.PersistentVolumeClaim{ObjectMeta: key(ns, "router-data")}
	dep := &appsv1.Deployment{ObjectMeta: key(ns, "router")}
	svc := &corev1.Service{ObjectMeta: key(ns, "router")}
	ing := &networkingv1.Ingress{ObjectMeta: key(ns, "router")}
	for _, obj := range []client.Object{sa, cm, pvc, dep, svc, ing} {
		waitFor(t, obj, nil)
		checkOwned(t, obj, sr)
	}
	hpa := &autoscalingv2.HorizontalPodAutoscaler{}
	if err := k8sClient.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: "router"}, hpa); !apierrors.IsNotFound(err) {
		t.Errorf("HPA with autoscaling off: got err %v, want NotFound", err)
	}

	wantConfig := qwenYAML + `observability:
  tracing:
    enabled: true
    exporter:
      endpoint: jaeger:4317
      insecure: true
      type: otlp
    provider: opentelemetry
    sampling:
      rate: "0.25"
      type: probabilistic
` + serverYAML
	if got := cm.Data["config.yaml"]; got != wantConfig {
		t.Errorf("config.yaml =\n%s\nwant\n%s", got, wantConfig)
	}

	if got := *dep.Spec.Replicas; got != 2 {
		t.Errorf("deployment replicas = %d, want 2", got)
	}
	pod := dep.Spec.Template
	if got := pod.Annotations[annotationConfigHash]; got != configHash([]byte(wantConfig)) {
		t.Errorf("config hash annotation = %q, want %q", got, configHash([]byte(wantConfig)))
	}
	// The router's shutdown_delay (5s) and shutdown_timeout (30s), and a margin.
	if g := pod.Spec.TerminationGracePeriodSeconds; g == nil || *g != 45 {
		t.Errorf("terminationGracePeriodSeconds = %v, want 45", g)
	}
	if pod.Annotations["team"] != "ml" {
		t.Errorf("pod annotations = %v, want team=ml", pod.Annotations)
	}
	c := pod.Spec.Containers[0]
	wantArgs := []string{"-config", "/etc/semantic-router/config.yaml", "-gateway", "standalone", "-listener-address", "0.0.0.0", "-log-format", "json"}
	if !slices.Equal(c.Args, wantArgs) {
		t.Errorf("args = %q, want %q", c.Args, wantArgs)
	}
	if want := "ghcr.io/vllm-project/semantic-router/vllm-sr:" + vllmv1alpha1.DefaultImageTag; c.Image != want {
		t.Errorf("image = %q, want %q", c.Image, want)
	}
	if p := c.LivenessProbe.HTTPGet; p.Path != "/health" || p.Port.IntVal != 8080 {
		t.Errorf("liveness probe = %s:%s, want /health:8080", p.Path, p.Port.String())
	}
	if p := c.ReadinessProbe.HTTPGet; p.Path != "/ready" || p.Port.IntVal != 8080 {
		t.Errorf("readiness probe = %s:%s, want /ready:8080", p.Path, p.Port.String())
	}
	if pod.Spec.ServiceAccountName != "router" {
		t.Errorf("serviceAccountName = %q, want router", pod.Spec.ServiceAccountName)
	}
	var claims []string
	for _, v := range pod.Spec.Volumes {
		if v.PersistentVolumeClaim != nil {
			claims = append(claims, v.PersistentVolumeClaim.ClaimName)
		}
	}
	if !slices.Equal(claims, []string{"router-data"}) {
		t.Errorf("claims mounted = %v, want [router-data]", claims)
	}
	if got := pvc.Spec.Resources.Requests[corev1.ResourceStorage]; got.String() != "10Gi" {
		t.Errorf("pvc size = %s, want 10Gi", got.String())
	}

	var ports []string
	for _, p := range svc.Spec.Ports {
		ports = append(ports, fmt.Sprintf("%s:%d", p.Name, p.Port))
	}
	if want := []string{"http:8801", "api:8080"}; !slices.Equal(ports, want) {
		t.Errorf("service ports = %v, want %v (metrics disabled)", ports, want)
	}
	if got := ing.Spec.Rules[0].HTTP.Paths[0].Backend.Service; got.Name != "router" || got.Port.Name != "http" {
		t.Errorf("ingress backend = %+v, want router:http", got)
	}

	// The guide's label query finds the workload.
	var deps appsv1.DeploymentList
	if err := k8sClient.List(context.Background(), &deps, client.InNamespace(ns), client.MatchingLabels{labelInstance: "router"}); err != nil || len(deps.Items) != 1 {
		t.Errorf("deployments with app.kubernetes.io/instance=router: %d (err %v), want 1", len(deps.Items), err)
	}
}

// setDeploymentReady simulates the Deployment controller (envtest runs none)
// by writing replica counts into the Deployment's status.
func setDeploymentReady(t *testing.T, ns, name string, replicas, ready int32) {
	t.Helper()
	setRollout(t, ns, name, replicas, replicas, ready)
}

// setRollout writes a Deployment status with updated of replicas running
// the latest template, as mid-rollout.
func setRollout(t *testing.T, ns, name string, replicas, updated, ready int32) {
	t.Helper()
	eventually(t, "writing deployment status", func(ctx context.Context) (bool, error) {
		dep := &appsv1.Deployment{}
		if err := k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, dep); err != nil {
			return false, err
		}
		dep.Status.ObservedGeneration = dep.Generation
		dep.Status.Replicas = replicas
		dep.Status.UpdatedReplicas = updated
		dep.Status.ReadyReplicas = ready
		dep.Status.AvailableReplicas = ready
		if err := k8sClient.Status().Update(ctx, dep); err != nil {
			return false, err
		}
		return true, nil
	})
}

// waitPhase waits for phase and returns the SemanticRouter then.
func waitPhase(t *testing.T, ns, name string, phase vllmv1alpha1.Phase, replicas, ready int32) *vllmv1alpha1.SemanticRouter {
	t.Helper()
	var out *vllmv1alpha1.SemanticRouter
	eventually(t, fmt.Sprintf("phase %s with %d/%d ready", phase, ready, replicas), func(ctx context.Context) (bool, error) {
		sr, err := getSR(ctx, ns, name)
		if err != nil {
			return false, err
		}
		out = sr
		return sr.Status.Phase == phase && sr.Status.Replicas == replicas && sr.Status.ReadyReplicas == ready && sr.Status.ObservedGeneration == sr.Generation, nil
	})
	return out
}

func conditionStatus(sr *vllmv1alpha1.SemanticRouter, typ string) string {
	c := meta.FindStatusCondition(sr.Status.Conditions, typ)
	if c == nil {
		return "absent"
	}
	return fmt.Sprintf("%s/%s@%d", c.Status, c.Reason, c.ObservedGeneration)
}

func TestStatusTransitions(t *testing.T) {
	requireAPIServer(t)
	ns := newNamespace(t)
	createSR(t, ns, "router", vllmv1alpha1.SemanticRouterSpec{Replicas: ptr.To[int32](2), Config: modelConfig(""),
		Persistence: vllmv1alpha1.PersistenceSpec{AccessMode: corev1.ReadWriteMany}})
	sr := waitPhase(t, ns, "router", vllmv1alpha1.PhasePending, 0, 0)
	gen := sr.Generation

	steps := []struct {
		name                     string
		replicas, updated, ready int32
		phase                    vllmv1alpha1.Phase
		available                string
		progressing              string
	}{
		{"pending", 2, 2, 0, vllmv1alpha1.PhasePending, fmt.Sprintf("False/NoReplicasReady@%d", gen), "absent"},
		{"progressing", 2, 2, 1, vllmv1alpha1.PhaseProgressing, fmt.Sprintf("False/ReplicasNotReady@%d", gen), fmt.Sprintf("True/RollingOut@%d", gen)},
		{"running", 2, 2, 2, vllmv1alpha1.PhaseRunning, fmt.Sprintf("True/AllReplicasReady@%d", gen), "absent"},
		// Two old pods ready and a surge pod of the new template not yet.
		{"mid-rollout", 3, 1, 2, vllmv1alpha1.PhaseProgressing, fmt.Sprintf("False/ReplicasNotReady@%d", gen), fmt.Sprintf("True/RollingOut@%d", gen)},
		{"rolled out", 2, 2, 2, vllmv1alpha1.PhaseRunning, fmt.Sprintf("True/AllReplicasReady@%d", gen), "absent"},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			setRollout(t, ns, "router", st.replicas, st.updated, st.ready)
			sr := waitPhase(t, ns, "router", st.phase, st.replicas, st.ready)
			if got := conditionStatus(sr, vllmv1alpha1.ConditionAvailable); got != st.available {
				t.Errorf("Available = %s, want %s", got, st.available)
			}
			if got := conditionStatus(sr, vllmv1alpha1.ConditionProgressing); got != st.progressing {
				t.Errorf("Progressing = %s, want %s", got, st.progressing)
			}
		})
	}

	// A spec change bumps the generation; every condition follows it.
	updateSR(t, ns, "router", func(sr *vllmv1alpha1.SemanticRouter) { sr.Spec.Args = []string{"-v"} })
	sr = waitReconciled(t, ns, "router")
	if sr.Generation == gen {
		t.Fatalf("generation did not change")
	}
	for _, c := range sr.Status.Conditions {
		if c.ObservedGeneration != sr.Generation {
			t.Errorf("condition %s observedGeneration = %d, want %d", c.Type, c.ObservedGeneration, sr.Generation)
		}
	}
}
