package envoy

import (
	"os"
	"strings"
	"testing"
	"time"

	bootstrapv3 "github.com/envoyproxy/go-control-plane/envoy/config/bootstrap/v3"
	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	streamv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/access_loggers/stream/v3"
	extprocv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/ext_proc/v3"
	headermutationv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/header_mutation/v3"
	routerv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/router/v3"
	hcmv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/http_connection_manager/v3"
	upstreamhttpv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/upstreams/http/v3"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"
	"sigs.k8s.io/yaml"

	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/extproc"
)

// The typed_config types envoy.yaml uses. Referencing them registers them with the protobuf
// registry, which protojson consults to decode each "@type".
var _ = []proto.Message{
	(*hcmv3.HttpConnectionManager)(nil), (*extprocv3.ExternalProcessor)(nil), (*routerv3.Router)(nil),
	(*headermutationv3.HeaderMutation)(nil), (*streamv3.StdoutAccessLog)(nil), (*upstreamhttpv3.HttpProtocolOptions)(nil),
}

// loadBootstrap decodes an Envoy bootstrap written in YAML strictly, as Envoy does: an
// unknown field, in typed_config too, is an error.
func loadBootstrap(data []byte) (*bootstrapv3.Bootstrap, error) {
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, err
	}
	b := &bootstrapv3.Bootstrap{}
	if err := protojson.Unmarshal(js, b); err != nil {
		return nil, err
	}
	return b, nil
}

func unpack[T proto.Message](t *testing.T, a *anypb.Any, m T) T {
	t.Helper()
	if err := a.UnmarshalTo(m); err != nil {
		t.Fatalf("typed_config %s: %v", a.GetTypeUrl(), err)
	}
	return m
}

func TestBootstrap(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("envoy.yaml")
	if err != nil {
		t.Fatal(err)
	}
	b, err := loadBootstrap(data)
	if err != nil {
		t.Fatalf("envoy.yaml does not decode as an Envoy v3 bootstrap: %v", err)
	}
	if err := b.ValidateAll(); err != nil {
		t.Fatalf("envoy.yaml breaks the bootstrap's constraints: %v", err)
	}

	if a := b.GetAdmin().GetAddress().GetSocketAddress(); a.GetAddress() != "127.0.0.1" || a.GetPortValue() != 9901 {
		t.Errorf("admin listens on %s:%d, want 127.0.0.1:9901", a.GetAddress(), a.GetPortValue())
	}

	listeners := b.GetStaticResources().GetListeners()
	if len(listeners) != 1 {
		t.Fatalf("%d listeners, want 1", len(listeners))
	}
	l := listeners[0]
	if p := l.GetAddress().GetSocketAddress().GetPortValue(); p != 8801 {
		t.Errorf("listener port %d, want 8801", p)
	}
	if n := l.GetPerConnectionBufferLimitBytes().GetValue(); n != config.DefaultMaxRequestBodyBytes {
		t.Errorf("per_connection_buffer_limit_bytes %d, want the router's default max_request_body_bytes %d", n, config.DefaultMaxRequestBodyBytes)
	}
	filters := l.GetFilterChains()[0].GetFilters()
	if len(filters) != 1 || filters[0].GetName() != "envoy.filters.network.http_connection_manager" {
		t.Fatalf("network filters %v, want the HTTP connection manager alone", filters)
	}
	hcm := unpack(t, filters[0].GetTypedConfig(), &hcmv3.HttpConnectionManager{})

	// The filter order is the security of the setup: the client's destination header is
	// dropped before the router sets its own, and the router runs before the request is
	// forwarded.
	var names []string
	typed := map[string]*anypb.Any{}
	for _, f := range hcm.GetHttpFilters() {
		names = append(names, f.GetName())
		typed[f.GetName()] = f.GetTypedConfig()
	}
	wantOrder := "envoy.filters.http.header_mutation envoy.filters.http.ext_proc envoy.filters.http.router"
	if got := strings.Join(names, " "); got != wantOrder {
		t.Errorf("http_filters %q, want %q", got, wantOrder)
	}

	hm := unpack(t, typed["envoy.filters.http.header_mutation"], &headermutationv3.HeaderMutation{})
	if rm := hm.GetMutations().GetRequestMutations(); len(rm) != 1 || rm[0].GetRemove() != extproc.HeaderDestination {
		t.Errorf("header_mutation request_mutations %v, want only the removal of %s", rm, extproc.HeaderDestination)
	}

	ep := unpack(t, typed["envoy.filters.http.ext_proc"], &extprocv3.ExternalProcessor{})
	if c := ep.GetGrpcService().GetEnvoyGrpc().GetClusterName(); c != "semantic-router" {
		t.Errorf("ext_proc grpc_service cluster %q, want semantic-router", c)
	}
	pm := ep.GetProcessingMode()
	for _, m := range []struct {
		field     string
		got, want any
	}{
		{"request_header_mode", pm.GetRequestHeaderMode(), extprocv3.ProcessingMode_SEND},
		{"request_body_mode", pm.GetRequestBodyMode(), extprocv3.ProcessingMode_BUFFERED},
		{"request_trailer_mode", pm.GetRequestTrailerMode(), extprocv3.ProcessingMode_SKIP},
		{"response_header_mode", pm.GetResponseHeaderMode(), extprocv3.ProcessingMode_SEND},
		{"response_body_mode", pm.GetResponseBodyMode(), extprocv3.ProcessingMode_STREAMED},
		{"response_trailer_mode", pm.GetResponseTrailerMode(), extprocv3.ProcessingMode_SKIP},
		{"failure_mode_allow", ep.GetFailureModeAllow(), false},
		{"allow_mode_override", ep.GetAllowModeOverride(), false},
	} {
		if m.got != m.want {
			t.Errorf("ext_proc %s = %v, want %v", m.field, m.got, m.want)
		}
	}
	if d := ep.GetMessageTimeout().AsDuration(); d < time.Second || d > time.Minute {
		t.Errorf("ext_proc message_timeout %s, want between 1s and 1m", d)
	}

	vhosts := hcm.GetRouteConfig().GetVirtualHosts()
	if len(vhosts) != 1 || len(vhosts[0].GetRoutes()) != 1 {
		t.Fatalf("want one virtual host with one route, got %v", vhosts)
	}
	r := vhosts[0].GetRoutes()[0]
	if p := r.GetMatch().GetPrefix(); p != "/v1/" {
		t.Errorf("route prefix %q, want /v1/", p)
	}
	if c := r.GetRoute().GetCluster(); c != "model-servers" {
		t.Errorf("route cluster %q, want model-servers", c)
	}
	// Envoy's default route timeout (15s) would cut most answers.
	if d := r.GetRoute().GetTimeout().AsDuration(); d != config.DefaultModelTimeout {
		t.Errorf("route timeout %s, want the router's default model timeout %s", d, config.DefaultModelTimeout)
	}

	clusters := map[string]*clusterv3.Cluster{}
	for _, c := range b.GetStaticResources().GetClusters() {
		clusters[c.GetName()] = c
	}
	if len(clusters) != 2 {
		t.Errorf("clusters %v, want semantic-router and model-servers", clusters)
	}

	rc := clusters["semantic-router"]
	if rc == nil {
		t.Fatal("no semantic-router cluster")
	}
	eps := rc.GetLoadAssignment().GetEndpoints()
	if len(eps) != 1 || len(eps[0].GetLbEndpoints()) != 1 {
		t.Fatalf("semantic-router endpoints %v, want one", eps)
	}
	if a := eps[0].GetLbEndpoints()[0].GetEndpoint().GetAddress().GetSocketAddress(); a.GetAddress() != "127.0.0.1" || a.GetPortValue() != 50051 {
		t.Errorf("semantic-router endpoint %s:%d, want 127.0.0.1:50051", a.GetAddress(), a.GetPortValue())
	}
	opts, ok := rc.GetTypedExtensionProtocolOptions()["envoy.extensions.upstreams.http.v3.HttpProtocolOptions"]
	if !ok {
		t.Fatal("semantic-router has no HttpProtocolOptions: gRPC needs HTTP/2")
	}
	if unpack(t, opts, &upstreamhttpv3.HttpProtocolOptions{}).GetExplicitHttpConfig().GetHttp2ProtocolOptions() == nil {
		t.Error("semantic-router is not configured for HTTP/2")
	}

	mc := clusters["model-servers"]
	if mc == nil {
		t.Fatal("no model-servers cluster")
	}
	if mc.GetType() != clusterv3.Cluster_ORIGINAL_DST || mc.GetLbPolicy() != clusterv3.Cluster_CLUSTER_PROVIDED {
		t.Errorf("model-servers is %s with %s, want ORIGINAL_DST with CLUSTER_PROVIDED", mc.GetType(), mc.GetLbPolicy())
	}
	if od := mc.GetOriginalDstLbConfig(); !od.GetUseHttpHeader() || od.GetHttpHeaderName() != extproc.HeaderDestination {
		t.Errorf("model-servers original_dst_lb_config %v, want use_http_header with %s", od, extproc.HeaderDestination)
	}
	if mc.GetLoadAssignment() != nil {
		t.Error("model-servers has a load_assignment; Envoy refuses one on an ORIGINAL_DST cluster")
	}
}

// TestLoadBootstrapIsStrict: the loader the test above relies on refuses what Envoy would,
// so a passing test means something.
func TestLoadBootstrapIsStrict(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("envoy.yaml")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, old, new, want string
	}{
		{"misspelled field in a typed_config", "failure_mode_allow:", "failure_mode_alow:", `unknown field "failure_mode_alow"`},
		{"unknown enum value", "response_body_mode: STREAMED", "response_body_mode: STREAMING", `invalid value for enum field responseBodyMode: "STREAMING"`},
		{"unregistered typed_config type", "extensions.filters.http.router.v3.Router", "extensions.filters.http.router.v3.Routr", `unable to resolve "type.googleapis.com/envoy.extensions.filters.http.router.v3.Routr"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			broken := strings.Replace(string(data), tc.old, tc.new, 1)
			if broken == string(data) {
				t.Fatalf("envoy.yaml has no %q", tc.old)
			}
			_, err := loadBootstrap([]byte(broken))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("loading with %s: error %v, want one containing %s", tc.new, err, tc.want)
			}
		})
	}
	// A decodable value that breaks a constraint is ValidateAll's to catch.
	b, err := loadBootstrap([]byte(strings.Replace(string(data), "port_value: 50051", "port_value: 650051", 1)))
	if err == nil {
		err = b.ValidateAll()
	}
	if err == nil {
		t.Error("a port above 65535 passed")
	}
}

// TestREADMEConfig: the router configuration README.md shows for this bootstrap loads, and
// has nothing that extproc mode cannot apply.
func TestREADMEConfig(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(data), "```yaml\nmodels:")
	if !ok {
		t.Fatal("README.md has no router configuration block")
	}
	block, _, _ = strings.Cut(block, "```")
	cfg, err := config.Parse([]byte("models:" + block))
	if err != nil {
		t.Fatalf("README.md's configuration: %v", err)
	}
	if w := cfg.ExtprocWarnings(); len(w) > 0 {
		t.Errorf("README.md's configuration sets what extproc mode cannot apply: %q", w)
	}
}
