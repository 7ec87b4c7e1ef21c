package envoy

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// The structs below mirror, field for field and with the same JSON names, the parts of the
// Envoy Gateway API (gateway.envoyproxy.io/v1alpha1) and the Gateway API
// (gateway.networking.k8s.io/v1) that the files in envoy-gateway/ use, and nothing else:
// decoding strictly into them fails on a misspelled or misplaced field. The official Go
// types are not imported because their module would raise the repository's go directive
// and several shared dependencies for the sake of one test.

type objectMeta struct {
	Name      string `json:"name"`
	Namespace string `json:"namespace"`
}

// targetRef is a LocalPolicyTargetReferenceWithSectionName.
type targetRef struct {
	Group string `json:"group"`
	Kind  string `json:"kind"`
	Name  string `json:"name"`
}

// backendRef is a BackendObjectReference (Envoy Gateway's BackendRef inlines it).
type backendRef struct {
	Name string `json:"name"`
	Port int    `json:"port"`
}

type processingModeOptions struct {
	Body string `json:"body"`
}

type extProc struct {
	BackendRefs    []backendRef `json:"backendRefs"`
	ProcessingMode struct {
		Request  *processingModeOptions `json:"request"`
		Response *processingModeOptions `json:"response"`
	} `json:"processingMode"`
	MessageTimeout string `json:"messageTimeout"`
	FailOpen       *bool  `json:"failOpen"`
}

type envoyExtensionPolicy struct {
	APIVersion string     `json:"apiVersion"`
	Kind       string     `json:"kind"`
	Metadata   objectMeta `json:"metadata"`
	Spec       struct {
		TargetRefs []targetRef `json:"targetRefs"`
		ExtProc    []extProc   `json:"extProc"`
	} `json:"spec"`
}

type clientTrafficPolicy struct {
	APIVersion string     `json:"apiVersion"`
	Kind       string     `json:"kind"`
	Metadata   objectMeta `json:"metadata"`
	Spec       struct {
		TargetRefs []targetRef `json:"targetRefs"`
		Connection struct {
			BufferLimit string `json:"bufferLimit"`
		} `json:"connection"`
	} `json:"spec"`
}

type httpRoute struct {
	APIVersion string     `json:"apiVersion"`
	Kind       string     `json:"kind"`
	Metadata   objectMeta `json:"metadata"`
	Spec       struct {
		ParentRefs []struct {
			Name string `json:"name"`
		} `json:"parentRefs"`
		Rules []struct {
			Matches []struct {
				Path struct {
					Type  string `json:"type"`
					Value string `json:"value"`
				} `json:"path"`
			} `json:"matches"`
			BackendRefs []backendRef `json:"backendRefs"`
			Timeouts    struct {
				Request string `json:"request"`
			} `json:"timeouts"`
		} `json:"rules"`
	} `json:"spec"`
}

func decodeStrict(t *testing.T, name string, v any) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("envoy-gateway", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.UnmarshalStrict(data, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

func TestEnvoyGatewayExamples(t *testing.T) {
	t.Parallel()
	var route httpRoute
	decodeStrict(t, "httproute.yaml", &route)
	var policy envoyExtensionPolicy
	decodeStrict(t, "extension-policy.yaml", &policy)
	var traffic clientTrafficPolicy
	decodeStrict(t, "client-traffic-policy.yaml", &traffic)

	if route.APIVersion != "gateway.networking.k8s.io/v1" || route.Kind != "HTTPRoute" {
		t.Errorf("httproute.yaml is %s %s", route.APIVersion, route.Kind)
	}
	if len(route.Spec.ParentRefs) != 1 || len(route.Spec.Rules) != 1 {
		t.Fatalf("httproute.yaml: want one parentRef and one rule, got %+v", route.Spec)
	}
	rule := route.Spec.Rules[0]
	// Only the path the router checks: every other one passes the processor untouched, so a
	// wider match would let any client reach the model server past keys and policies.
	var paths []string
	for _, m := range rule.Matches {
		paths = append(paths, m.Path.Type+" "+m.Path.Value)
	}
	if want := []string{"Exact /v1/chat/completions", "Exact /v1/models"}; !slices.Equal(paths, want) {
		t.Errorf("httproute.yaml matches %v, want %v", paths, want)
	}
	if len(rule.BackendRefs) != 1 || rule.BackendRefs[0].Port == 0 {
		t.Errorf("httproute.yaml backendRefs %+v, want the model server's Service and port", rule.BackendRefs)
	}
	if rule.Timeouts.Request == "" {
		t.Error("httproute.yaml has no request timeout")
	}

	if policy.APIVersion != "gateway.envoyproxy.io/v1alpha1" || policy.Kind != "EnvoyExtensionPolicy" {
		t.Errorf("extension-policy.yaml is %s %s", policy.APIVersion, policy.Kind)
	}
	if policy.Metadata.Namespace != route.Metadata.Namespace {
		t.Errorf("the policy is in namespace %q, its HTTPRoute in %q: a policy attaches only in its own namespace", policy.Metadata.Namespace, route.Metadata.Namespace)
	}
	want := targetRef{Group: "gateway.networking.k8s.io", Kind: "HTTPRoute", Name: route.Metadata.Name}
	if len(policy.Spec.TargetRefs) != 1 || policy.Spec.TargetRefs[0] != want {
		t.Errorf("extension-policy.yaml targetRefs %+v, want %+v", policy.Spec.TargetRefs, want)
	}
	if len(policy.Spec.ExtProc) != 1 {
		t.Fatalf("extension-policy.yaml: %d extProc entries, want 1", len(policy.Spec.ExtProc))
	}
	ep := policy.Spec.ExtProc[0]
	if len(ep.BackendRefs) != 1 || ep.BackendRefs[0] != (backendRef{Name: "semantic-router", Port: 50051}) {
		t.Errorf("extProc backendRefs %+v, want the semantic-router Service on 50051", ep.BackendRefs)
	}
	// A present request or response section makes Envoy Gateway send those headers too.
	if r := ep.ProcessingMode.Request; r == nil || r.Body != "Buffered" {
		t.Errorf("extProc processingMode.request %+v, want body Buffered", r)
	}
	if r := ep.ProcessingMode.Response; r == nil || r.Body != "Streamed" {
		t.Errorf("extProc processingMode.response %+v, want body Streamed", r)
	}
	if ep.MessageTimeout == "" {
		t.Error("extProc has no messageTimeout (Envoy Gateway's default is 200ms)")
	}
	if ep.FailOpen == nil || *ep.FailOpen {
		t.Error("extProc must say failOpen: false")
	}

	if traffic.APIVersion != "gateway.envoyproxy.io/v1alpha1" || traffic.Kind != "ClientTrafficPolicy" {
		t.Errorf("client-traffic-policy.yaml is %s %s", traffic.APIVersion, traffic.Kind)
	}
	gw := targetRef{Group: "gateway.networking.k8s.io", Kind: "Gateway", Name: route.Spec.ParentRefs[0].Name}
	if len(traffic.Spec.TargetRefs) != 1 || traffic.Spec.TargetRefs[0] != gw {
		t.Errorf("client-traffic-policy.yaml targetRefs %+v, want the route's Gateway %+v", traffic.Spec.TargetRefs, gw)
	}
	if traffic.Spec.Connection.BufferLimit != "10Mi" {
		t.Errorf("client-traffic-policy.yaml bufferLimit %q, want 10Mi (the router's default body limit)", traffic.Spec.Connection.BufferLimit)
	}
}

// TestEnvoyGatewayDecodeIsStrict: the mirror structs refuse a field they do not have, so a
// typo in the examples fails the test above.
func TestEnvoyGatewayDecodeIsStrict(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("envoy-gateway", "extension-policy.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.Replace(string(data), "processingMode:", "processingModes:", 1)
	err = yaml.UnmarshalStrict([]byte(broken), &envoyExtensionPolicy{})
	if err == nil || !strings.Contains(err.Error(), `json: unknown field "processingModes"`) {
		t.Errorf("a misspelled field decoded: %v", err)
	}
}
