package operator

import (
	"os"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"sigs.k8s.io/yaml"

	vllmv1alpha1 "github.com/semantic-router/semantic-router/api/v1alpha1"
)

// TestShippedMonitoringFindsOperatorRouters: deploy/monitoring's ServiceMonitor selects the
// Service the operator creates and scrapes the port and path its own ServiceMonitor does, and
// the router's container has the name the shipped alerts select it by.
func TestShippedMonitoringFindsOperatorRouters(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../../deploy/monitoring/servicemonitor.yaml")
	if err != nil {
		t.Fatal(err)
	}
	shipped := &unstructured.Unstructured{}
	if err := yaml.Unmarshal(data, &shipped.Object); err != nil {
		t.Fatal(err)
	}
	sr := newSR(vllmv1alpha1.SemanticRouterSpec{})
	svc := &corev1.Service{}
	mutateService(svc, sr, vllmv1alpha1.GatewayModeStandalone)

	match, _, err := unstructured.NestedStringMap(shipped.Object, "spec", "selector", "matchLabels")
	if err != nil || len(match) == 0 {
		t.Fatalf("spec.selector.matchLabels: %v %v", match, err)
	}
	if !labels.SelectorFromSet(match).Matches(labels.Set(svc.Labels)) {
		t.Errorf("the shipped selector %v does not select the operator's Service, labelled %v", match, svc.Labels)
	}

	own := &unstructured.Unstructured{}
	if err := mutateServiceMonitor(own, sr); err != nil {
		t.Fatal(err)
	}
	endpoint := func(u *unstructured.Unstructured) map[string]any {
		eps, _, _ := unstructured.NestedSlice(u.Object, "spec", "endpoints")
		if len(eps) != 1 {
			t.Fatalf("%d endpoints, want 1", len(eps))
		}
		return eps[0].(map[string]any)
	}
	got, want := endpoint(shipped), endpoint(own)
	for _, k := range []string{"port", "path", "scheme"} {
		if got[k] != want[k] {
			t.Errorf("endpoint %s = %v, the operator's %v", k, got[k], want[k])
		}
	}
	portNamed := false
	for _, p := range svc.Spec.Ports {
		portNamed = portNamed || p.Name == got["port"]
	}
	if !portNamed {
		t.Errorf("the operator's Service has no port named %v", got["port"])
	}

	// prometheusrule.yaml finds routers by up{container="semantic-router"}.
	tmpl := desiredPodTemplate(sr, vllmv1alpha1.GatewayModeStandalone, renderedConfig{hash: "abc"})
	if name := tmpl.Spec.Containers[0].Name; name != "semantic-router" {
		t.Errorf("the router's container is %q; the shipped alerts select semantic-router", name)
	}
}
