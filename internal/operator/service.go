package operator

import (
	"errors"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	vllmv1alpha1 "github.com/semantic-router/semantic-router/api/v1alpha1"
	"github.com/semantic-router/semantic-router/internal/config"
)

// h2cAppProtocol is the appProtocol that has a gateway speak HTTP/2 without TLS to a port.
const h2cAppProtocol = "kubernetes.io/h2c"

// checkAppProtocol refuses an http port that asks gateways for HTTP/2 without TLS when the
// router's config turns it off: every request a gateway sent that way would fail.
func checkAppProtocol(sr *vllmv1alpha1.SemanticRouter, cfg *config.Config) error {
	if sr.Spec.Service.HTTP.AppProtocol == h2cAppProtocol && !cfg.Server.H2CEnabled() {
		return errors.New("spec.service.http.appProtocol is kubernetes.io/h2c, which has gateways speak HTTP/2 without TLS to the router, " +
			"and spec.config.server.h2c is false, which refuses it: remove one of the two")
	}
	return nil
}

// servicePorts lists the router Service's ports for the gateway mode: the
// port the router serves traffic on (inference 8801 standalone, the Envoy
// external processor 50051 in extproc mode, where nothing listens on
// 8801), then api and metrics unless disabled. The api port (8080) never
// serves completions, so nothing routes inference to it.
func servicePorts(sr *vllmv1alpha1.SemanticRouter, mode vllmv1alpha1.GatewayMode) []corev1.ServicePort {
	s := sr.Spec.Service
	traffic := struct {
		name string
		def  int32
		spec vllmv1alpha1.PortSpec
	}{portNameHTTP, vllmv1alpha1.DefaultHTTPPort, s.HTTP}
	if mode == vllmv1alpha1.GatewayModeIntegration {
		traffic.name, traffic.def, traffic.spec = portNameGRPC, vllmv1alpha1.DefaultGRPCPort, s.GRPC
	}
	specs := []struct {
		name     string
		def      int32
		spec     vllmv1alpha1.PortSpec
		optional bool
	}{
		{traffic.name, traffic.def, traffic.spec, false},
		{portNameAPI, vllmv1alpha1.DefaultAPIPort, s.API, true},
		{portNameMetrics, vllmv1alpha1.DefaultMetricsPort, s.Metrics, true},
	}
	var ports []corev1.ServicePort
	for _, p := range specs {
		if p.optional && p.spec.Enabled != nil && !*p.spec.Enabled {
			continue
		}
		port := p.spec.Port
		if port == 0 {
			port = p.def
		}
		target := intstr.FromString(p.name)
		if p.spec.TargetPort != 0 {
			target = intstr.FromInt32(p.spec.TargetPort)
		}
		proto := p.spec.Protocol
		if proto == "" {
			proto = corev1.ProtocolTCP
		}
		sp := corev1.ServicePort{Name: p.name, Port: port, TargetPort: target, Protocol: proto}
		if p.spec.AppProtocol != "" {
			sp.AppProtocol = &p.spec.AppProtocol
		}
		ports = append(ports, sp)
	}
	return ports
}

// mutateService lays the desired state over svc, keeping the allocated
// cluster IP and any node ports the cluster assigned to ports we keep.
func mutateService(svc *corev1.Service, sr *vllmv1alpha1.SemanticRouter, mode vllmv1alpha1.GatewayMode) {
	svc.Labels = mergeLabels(svc.Labels, objectLabels(sr))
	svc.Annotations = mergeLabels(svc.Annotations, sr.Spec.Service.Annotations)
	typ := sr.Spec.Service.Type
	if typ == "" {
		typ = corev1.ServiceTypeClusterIP
	}
	assigned := map[string]int32{}
	for _, p := range svc.Spec.Ports {
		assigned[p.Name] = p.NodePort
	}
	ports := servicePorts(sr, mode)
	if typ != corev1.ServiceTypeClusterIP {
		for i := range ports {
			ports[i].NodePort = assigned[ports[i].Name]
		}
	}
	svc.Spec.Type = typ
	svc.Spec.Selector = selectorLabels(sr)
	svc.Spec.Ports = ports
}
