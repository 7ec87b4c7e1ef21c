package operator

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/tools/events"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	vllmv1alpha1 "github.com/semantic-router/semantic-router/api/v1alpha1"
)

// waitEvent waits for an event with reason about the SemanticRouter name.
func waitEvent(t *testing.T, ns, name, reason string) eventsv1.Event {
	t.Helper()
	var found eventsv1.Event
	eventually(t, "event "+reason, func(ctx context.Context) (bool, error) {
		var evs eventsv1.EventList
		if err := k8sClient.List(ctx, &evs, client.InNamespace(ns)); err != nil {
			return false, err
		}
		for _, e := range evs.Items {
			if e.Reason == reason && e.Regarding.Name == name {
				found = e
				return true, nil
			}
		}
		return false, nil
	})
	return found
}

func gatewayObject(ns, name string) *unstructured.Unstructured {
	gw := &unstructured.Unstructured{}
	gw.SetGroupVersionKind(gatewayGVK)
	gw.SetNamespace(ns)
	gw.SetName(name)
	return gw
}

// servicePortNames lists the Service's ports as name:port.
func servicePortNames(svc *corev1.Service) []string {
	var ports []string
	for _, p := range svc.Spec.Ports {
		ports = append(ports, fmt.Sprintf("%s:%d", p.Name, p.Port))
	}
	return ports
}

// TestGatewayAPINotInstalled: on a cluster without the Gateway API the
// reference is recorded (with an event), not checked.
func TestGatewayAPINotInstalled(t *testing.T) {
	requireAPIServer(t)
	ns := newNamespace(t)
	createBareSR(t, ns, "recorded", vllmv1alpha1.SemanticRouterSpec{Gateway: vllmv1alpha1.GatewaySpec{
		ExistingRef: &vllmv1alpha1.GatewayReference{Name: "inference-gateway"}}})
	sr := waitReconciled(t, ns, "recorded")
	if sr.Status.GatewayMode != vllmv1alpha1.GatewayModeIntegration {
		t.Errorf("gatewayMode = %q, want gateway-integration", sr.Status.GatewayMode)
	}
	dep := &appsv1.Deployment{ObjectMeta: key(ns, "recorded")}
	waitFor(t, dep, nil)
	if args := dep.Spec.Template.Spec.Containers[0].Args; !slices.Equal(args[2:], []string{"-gateway", "extproc"}) {
		t.Errorf("args = %q, want extproc mode", args)
	}
	ev := waitEvent(t, ns, "recorded", reasonGatewayAPINotInstalled)
	if want := fmt.Sprintf("gateway %s/inference-gateway recorded but not checked: the Gateway API is not installed; "+
		"the router runs as an ExtProc server, and the ExtProc policy and routes must be configured separately", ns); ev.Note != want {
		t.Errorf("event note = %q, want %q", ev.Note, want)
	}
	// A new generation in the same mode announces nothing.
	updateSR(t, ns, "recorded", func(sr *vllmv1alpha1.SemanticRouter) { sr.Spec.Replicas = ptr.To(int32(2)) })
	waitReconciled(t, ns, "recorded")
	if ev := waitEvent(t, ns, "recorded", reasonGatewayAPINotInstalled); ev.Series != nil {
		t.Errorf("%s event repeated %d times, want once", reasonGatewayAPINotInstalled, ev.Series.Count)
	}
}

// TestExtProcMode: with the Gateway API installed, a missing Gateway fails
// the reconcile until it appears; then the router runs as an external
// processor, its Service exposes 50051 and not 8801, and no Ingress, Route
// or HTTPRoute points at 8801 although spec.ingress and spec.route ask.
func TestExtProcMode(t *testing.T) {
	requireAPIServer(t)
	ns := newNamespace(t)
	createSR(t, ns, "extproc", vllmv1alpha1.SemanticRouterSpec{
		Gateway: vllmv1alpha1.GatewaySpec{ExistingRef: &vllmv1alpha1.GatewayReference{Name: "inference-gateway"}},
		Ingress: vllmv1alpha1.IngressSpec{Enabled: true, Hosts: []vllmv1alpha1.IngressHost{{Host: "router.example"}}},
		Route:   vllmv1alpha1.RouteSpec{Enabled: true},
	})
	sr := waitDegraded(t, ns, "extproc", reasonGatewayNotFound)
	if c := meta.FindStatusCondition(sr.Status.Conditions, vllmv1alpha1.ConditionDegraded); c.Message !=
		fmt.Sprintf("spec.gateway.existingRef: gateway %s/inference-gateway not found", ns) {
		t.Errorf("Degraded message = %q", c.Message)
	}
	if sr.Status.ObservedGeneration != 0 || sr.Status.Phase != vllmv1alpha1.PhasePending {
		t.Errorf("observedGeneration/phase = %d/%s with a missing gateway, want 0/Pending", sr.Status.ObservedGeneration, sr.Status.Phase)
	}
	if err := k8sClient.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: "extproc"}, &appsv1.Deployment{}); err == nil {
		t.Error("Deployment created although the gateway step failed")
	}

	if err := k8sClient.Create(context.Background(), gatewayObject(ns, "inference-gateway")); err != nil {
		t.Fatalf("creating gateway: %v", err)
	}
	sr = waitReconciled(t, ns, "extproc")
	if sr.Status.GatewayMode != vllmv1alpha1.GatewayModeIntegration {
		t.Errorf("gatewayMode = %q", sr.Status.GatewayMode)
	}
	ev := waitEvent(t, ns, "extproc", reasonGatewayIntegration)
	if !strings.Contains(ev.Note, "ExtProc policy and routes must be configured separately") || ev.Type != corev1.EventTypeNormal {
		t.Errorf("event = %s %q", ev.Type, ev.Note)
	}
	svc := &corev1.Service{ObjectMeta: key(ns, "extproc")}
	waitFor(t, svc, nil)
	if got, want := servicePortNames(svc), []string{"grpc:50051", "api:8080", "metrics:9190"}; !slices.Equal(got, want) {
		t.Errorf("service ports = %v, want %v", got, want)
	}
	requireAbsent(t, &networkingv1.Ingress{}, ns, "extproc")
	route := &unstructured.Unstructured{}
	route.SetGroupVersionKind(routeGVK)
	requireAbsent(t, route, ns, "extproc")
	hr := &unstructured.Unstructured{}
	hr.SetGroupVersionKind(httpRouteGVK)
	requireAbsent(t, hr, ns, "extproc")

	// Back to standalone: 8801 again, and the Ingress it asks for.
	updateSR(t, ns, "extproc", func(sr *vllmv1alpha1.SemanticRouter) { sr.Spec.Gateway.ExistingRef = nil })
	waitReconciled(t, ns, "extproc")
	waitFor(t, svc, func() error {
		if got := servicePortNames(svc); !slices.Equal(got, []string{"http:8801", "api:8080", "metrics:9190"}) {
			return fmt.Errorf("ports %v", got)
		}
		return nil
	})
	waitFor(t, &networkingv1.Ingress{ObjectMeta: key(ns, "extproc")}, nil)
}

// requireAbsent fails unless obj ns/name does not exist.
func requireAbsent(t *testing.T, obj client.Object, ns, name string) {
	t.Helper()
	err := k8sClient.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: name}, obj)
	if err == nil || client.IgnoreNotFound(err) != nil {
		t.Errorf("%T %s/%s: err %v, want NotFound", obj, ns, name, err)
	}
}

// TestHTTPRoute: the opt-in HTTPRoute goes to the inference port 8801 in
// standalone mode, follows the spec, and goes away when turned off; on a
// cluster without the Gateway API none is made and a Warning says why.
func TestHTTPRoute(t *testing.T) {
	requireAPIServer(t)
	ns := newNamespace(t)
	spec := vllmv1alpha1.SemanticRouterSpec{Gateway: vllmv1alpha1.GatewaySpec{HTTPRoute: vllmv1alpha1.HTTPRouteSpec{
		Enabled:    true,
		ParentRefs: []vllmv1alpha1.GatewayParentRef{{Name: "public", Namespace: "gateway-system", SectionName: "https"}},
		Hostnames:  []string{"router.example.com"},
	}}}
	createSR(t, ns, "router", spec)
	sr := waitReconciled(t, ns, "router")
	hr := &unstructured.Unstructured{}
	hr.SetGroupVersionKind(httpRouteGVK)
	hr.SetNamespace(ns)
	hr.SetName("router")
	waitFor(t, hr, nil)
	checkOwned(t, hr, sr)
	if got := conditionStatus(sr, vllmv1alpha1.ConditionRouteReady); got != fmt.Sprintf("True/Created@%d", sr.Generation) {
		t.Errorf("RouteReady = %s", got)
	}
	rules, _, _ := unstructured.NestedSlice(hr.Object, "spec", "rules")
	backend := rules[0].(map[string]any)["backendRefs"].([]any)[0].(map[string]any)
	parent, _, _ := unstructured.NestedSlice(hr.Object, "spec", "parentRefs")
	hosts, _, _ := unstructured.NestedStringSlice(hr.Object, "spec", "hostnames")
	if backend["name"] != "router" || backend["port"] != int64(8801) || backend["kind"] != "Service" {
		t.Errorf("backendRef = %v, want Service router port 8801", backend)
	}
	if p := parent[0].(map[string]any); p["name"] != "public" || p["namespace"] != "gateway-system" || p["sectionName"] != "https" {
		t.Errorf("parentRefs = %v", parent)
	}
	if !slices.Equal(hosts, []string{"router.example.com"}) {
		t.Errorf("hostnames = %v", hosts)
	}

	updateSR(t, ns, "router", func(sr *vllmv1alpha1.SemanticRouter) { sr.Spec.Gateway.HTTPRoute.Enabled = false })
	waitReconciled(t, ns, "router")
	waitGone(t, hr)

	createBareSR(t, ns, "bare", spec)
	bare := waitReconciled(t, ns, "bare")
	const want = "spec.gateway.httpRoute is enabled but the Gateway API (gateway.networking.k8s.io/v1 HTTPRoute) is not installed; " +
		"no route was created. It is created once the API is installed"
	c := meta.FindStatusCondition(bare.Status.Conditions, vllmv1alpha1.ConditionRouteReady)
	if c == nil || c.Status != metav1.ConditionFalse || c.Reason != reasonHTTPRouteAPIMissing || c.Message != want {
		t.Errorf("RouteReady = %+v, want False %s: %s", c, reasonHTTPRouteAPIMissing, want)
	}
	ev := waitEvent(t, ns, "bare", reasonHTTPRouteAPIMissing)
	if ev.Type != corev1.EventTypeWarning || ev.Note != want {
		t.Errorf("event = %s %q", ev.Type, ev.Note)
	}
	// The reconcile runs again to find the API once installed, announcing nothing new.
	updateSR(t, ns, "bare", func(sr *vllmv1alpha1.SemanticRouter) { sr.Spec.Replicas = ptr.To(int32(2)) })
	waitReconciled(t, ns, "bare")
	if ev := waitEvent(t, ns, "bare", reasonHTTPRouteAPIMissing); ev.Series != nil {
		t.Errorf("%s event repeated %d times, want once", reasonHTTPRouteAPIMissing, ev.Series.Count)
	}
	requireAbsent(t, hr.DeepCopy(), ns, "bare")
}

// TestHTTPRouteAPIRemoved: an HTTPRoute API that goes away while the
// operator runs (its REST mapping still cached, the API server answering
// 404) is reported as not installed, not as a failed reconcile, and the
// route is made once the API is back.
func TestHTTPRouteAPIRemoved(t *testing.T) {
	requireAPIServer(t)
	ctx := context.Background()
	ns := newNamespace(t)
	sr := createBareSR(t, ns, "router", vllmv1alpha1.SemanticRouterSpec{Gateway: vllmv1alpha1.GatewaySpec{HTTPRoute: vllmv1alpha1.HTTPRouteSpec{
		Enabled: true, ParentRefs: []vllmv1alpha1.GatewayParentRef{{Name: "public"}}}}})
	reconcileWith := func(resource string) (bool, error) {
		mapper := meta.NewDefaultRESTMapper(nil)
		mapper.AddSpecific(httpRouteGVK, httpRouteGVK.GroupVersion().WithResource(resource),
			httpRouteGVK.GroupVersion().WithResource("httproute"), meta.RESTScopeNamespace)
		c, err := client.New(restCfg, client.Options{Scheme: k8sClient.Scheme(), Mapper: mapper})
		if err != nil {
			t.Fatal(err)
		}
		r := &Reconciler{Client: c, Recorder: events.NewFakeRecorder(10)}
		return r.reconcileHTTPRoute(ctx, sr, vllmv1alpha1.GatewayModeStandalone)
	}

	waiting, err := reconcileWith("removedhttproutes")
	c := meta.FindStatusCondition(sr.Status.Conditions, vllmv1alpha1.ConditionRouteReady)
	if err != nil || !waiting || c == nil || c.Reason != reasonHTTPRouteAPIMissing {
		t.Fatalf("API removed: waiting %t, err %v, RouteReady %+v; want waiting, no error, %s", waiting, err, c, reasonHTTPRouteAPIMissing)
	}
	waiting, err = reconcileWith("httproutes")
	c = meta.FindStatusCondition(sr.Status.Conditions, vllmv1alpha1.ConditionRouteReady)
	if err != nil || waiting || c == nil || c.Status != metav1.ConditionTrue {
		t.Fatalf("API back: waiting %t, err %v, RouteReady %+v; want True", waiting, err, c)
	}
}

// TestServiceMonitor: created where the Prometheus Operator API exists,
// selecting the router Service by its instance labels on port metrics;
// elsewhere a condition says why there is none.
func TestServiceMonitor(t *testing.T) {
	requireAPIServer(t)
	ns := newNamespace(t)
	spec := vllmv1alpha1.SemanticRouterSpec{ServiceMonitor: vllmv1alpha1.ServiceMonitorSpec{
		Enabled: true, Interval: "15s", Labels: map[string]string{"release": "prometheus"}}}
	createSR(t, ns, "router", spec)
	sr := waitReconciled(t, ns, "router")
	sm := &unstructured.Unstructured{}
	sm.SetGroupVersionKind(serviceMonitorGVK)
	sm.SetNamespace(ns)
	sm.SetName("router")
	waitFor(t, sm, nil)
	checkOwned(t, sm, sr)
	if sm.GetLabels()["release"] != "prometheus" {
		t.Errorf("labels = %v", sm.GetLabels())
	}
	match, _, _ := unstructured.NestedStringMap(sm.Object, "spec", "selector", "matchLabels")
	eps, _, _ := unstructured.NestedSlice(sm.Object, "spec", "endpoints")
	if match[labelInstance] != "router" || match[labelName] != "semantic-router" || len(match) != 2 {
		t.Errorf("selector = %v", match)
	}
	if ep := eps[0].(map[string]any); ep["port"] != "metrics" || ep["interval"] != "15s" || ep["path"] != "/metrics" {
		t.Errorf("endpoints = %v", eps)
	}
	// The selector finds the router Service and only it.
	var svcs corev1.ServiceList
	if err := k8sClient.List(context.Background(), &svcs, client.InNamespace(ns), client.MatchingLabels(match)); err != nil || len(svcs.Items) != 1 {
		t.Errorf("services matching the selector: %d (%v)", len(svcs.Items), err)
	}
	if got := conditionStatus(sr, vllmv1alpha1.ConditionMonitoring); got != fmt.Sprintf("True/Created@%d", sr.Generation) {
		t.Errorf("ServiceMonitorReady = %s", got)
	}

	updateSR(t, ns, "router", func(sr *vllmv1alpha1.SemanticRouter) { sr.Spec.ServiceMonitor.Enabled = false })
	sr = waitReconciled(t, ns, "router")
	waitGone(t, sm)
	if got := conditionStatus(sr, vllmv1alpha1.ConditionMonitoring); got != "absent" {
		t.Errorf("ServiceMonitorReady after off = %s", got)
	}

	createBareSR(t, ns, "bare", spec)
	bare := waitReconciled(t, ns, "bare")
	if got := conditionStatus(bare, vllmv1alpha1.ConditionMonitoring); got != fmt.Sprintf("False/MonitoringAPINotInstalled@%d", bare.Generation) {
		t.Errorf("ServiceMonitorReady on a cluster without the API = %s", got)
	}
	requireAbsent(t, sm.DeepCopy(), ns, "bare")
}

// TestOptionalAPIsInstalledLater: the Gateway API, the Prometheus
// Operator's API and KServe installed after the operator started. The
// route and the monitor are made and the InferenceService is resolved once
// the APIs appear, and from then on an edit or a delete from outside is
// seen at once, as when the APIs were there from the start.
func TestOptionalAPIsInstalledLater(t *testing.T) {
	requireAPIServer(t)
	ctx := context.Background()
	ns := newNamespace(t)
	createSampleBackends(t, ns)
	createSRWith(t, ns, "router", map[string]string{bareLabel: lateValue}, vllmv1alpha1.SemanticRouterSpec{
		VLLMEndpoints: []vllmv1alpha1.VLLMEndpointSpec{
			serviceEndpoint("qwen", "qwen3-8b", "vllm-qwen", 8000, 1),
			{Name: "llama", Model: "llama-3-8b", Backend: vllmv1alpha1.BackendSpec{Type: vllmv1alpha1.BackendKServe,
				KServe: &vllmv1alpha1.KServeBackend{InferenceServiceName: "llama-3-8b"}}},
		},
		Gateway:        vllmv1alpha1.GatewaySpec{HTTPRoute: vllmv1alpha1.HTTPRouteSpec{Enabled: true, ParentRefs: []vllmv1alpha1.GatewayParentRef{{Name: "public"}}}},
		ServiceMonitor: vllmv1alpha1.ServiceMonitorSpec{Enabled: true},
	})
	waitBackends(t, ns, "router", "False",
		"1/2 backends resolved; skipped: llama: the KServe API (serving.kserve.io/v1beta1 InferenceService) is not installed")
	sr := waitReconciled(t, ns, "router")
	if got := conditionStatus(sr, vllmv1alpha1.ConditionRouteReady); got != fmt.Sprintf("False/%s@%d", reasonHTTPRouteAPIMissing, sr.Generation) {
		t.Fatalf("RouteReady before the API is installed = %s", got)
	}

	lateAPIsInstalled.Store(true)
	hr := &unstructured.Unstructured{}
	hr.SetGroupVersionKind(httpRouteGVK)
	hr.SetNamespace(ns)
	hr.SetName("router")
	waitFor(t, hr, nil)
	sm := &unstructured.Unstructured{}
	sm.SetGroupVersionKind(serviceMonitorGVK)
	sm.SetNamespace(ns)
	sm.SetName("router")
	waitFor(t, sm, nil)

	backendPort := func() int64 {
		rules, _, _ := unstructured.NestedSlice(hr.Object, "spec", "rules")
		refs, _, _ := unstructured.NestedSlice(rules[0].(map[string]any), "backendRefs")
		port, _ := refs[0].(map[string]any)["port"].(int64)
		return port
	}
	rules, _, _ := unstructured.NestedSlice(hr.Object, "spec", "rules")
	rules[0].(map[string]any)["backendRefs"].([]any)[0].(map[string]any)["port"] = int64(9999)
	if err := unstructured.SetNestedSlice(hr.Object, rules, "spec", "rules"); err != nil {
		t.Fatal(err)
	}
	if err := k8sClient.Update(ctx, hr); err != nil {
		t.Fatalf("editing the route: %v", err)
	}
	waitFor(t, hr, func() error {
		if port := backendPort(); port != 8801 {
			return fmt.Errorf("backend port %d, want it repaired to 8801", port)
		}
		return nil
	})
	if err := k8sClient.Delete(ctx, sm); err != nil {
		t.Fatalf("deleting the monitor: %v", err)
	}
	waitFor(t, sm, func() error {
		if sm.GetDeletionTimestamp() != nil {
			return fmt.Errorf("still being deleted")
		}
		return nil
	})

	waitBackends(t, ns, "router", "True", "2/2 backends resolved")
	setInferenceServiceReady(t, ns, "llama-3-8b", "False")
	waitBackends(t, ns, "router", "False", fmt.Sprintf(
		"1/2 backends resolved; skipped: llama: inferenceservice %s/llama-3-8b is not Ready: Ready=False (PredictorNotReady): predictor pods are not ready", ns))
}
