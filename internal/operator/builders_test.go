package operator

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	vllmv1alpha1 "github.com/semantic-router/semantic-router/api/v1alpha1"
	"github.com/semantic-router/semantic-router/internal/config"
)

func newSR(spec vllmv1alpha1.SemanticRouterSpec) *vllmv1alpha1.SemanticRouter {
	return &vllmv1alpha1.SemanticRouter{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "r"}, Spec: spec}
}

func TestRouterArgs(t *testing.T) {
	const config = "/etc/semantic-router/config.yaml"
	defaults := listenPorts{traffic: vllmv1alpha1.DefaultHTTPPort, api: vllmv1alpha1.DefaultAPIPort, metrics: vllmv1alpha1.DefaultMetricsPort}
	grpc := listenPorts{traffic: vllmv1alpha1.DefaultGRPCPort, api: vllmv1alpha1.DefaultAPIPort, metrics: vllmv1alpha1.DefaultMetricsPort}
	tests := []struct {
		name  string
		mode  vllmv1alpha1.GatewayMode
		ports listenPorts
		want  []string
	}{
		{"standalone", vllmv1alpha1.GatewayModeStandalone, defaults,
			[]string{"-config", config, "-gateway", "standalone", "-listener-address", "0.0.0.0"}},
		{"extproc", vllmv1alpha1.GatewayModeIntegration, grpc,
			[]string{"-config", config, "-gateway", "extproc"}},
		{"standalone, every port moved", vllmv1alpha1.GatewayModeStandalone, listenPorts{traffic: 9801, api: 8181, metrics: 9200},
			[]string{"-config", config, "-gateway", "standalone", "-listener-address", "0.0.0.0:9801",
				"-api-address", "0.0.0.0:8181", "-metrics-address", "0.0.0.0:9200"}},
		{"extproc, grpc moved", vllmv1alpha1.GatewayModeIntegration, listenPorts{traffic: 50052, api: 8080, metrics: 9190},
			[]string{"-config", config, "-gateway", "extproc", "-grpc-address", "0.0.0.0:50052"}},
	}
	for _, tt := range tests {
		if got := routerArgs(tt.mode, tt.ports); !slices.Equal(got, tt.want) {
			t.Errorf("%s: routerArgs = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestTargetPortsAreWhereTheRouterListens: a Service port's targetPort is the port the
// container declares under the same name, the port the router is told to listen on, and
// the default probes' port for the management API.
func TestTargetPortsAreWhereTheRouterListens(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name     string
		mode     vllmv1alpha1.GatewayMode
		service  vllmv1alpha1.ServiceSpec
		wantArgs string
	}{
		{"defaults", vllmv1alpha1.GatewayModeStandalone, vllmv1alpha1.ServiceSpec{}, "-listener-address 0.0.0.0"},
		{"standalone", vllmv1alpha1.GatewayModeStandalone, vllmv1alpha1.ServiceSpec{
			HTTP:    vllmv1alpha1.PortSpec{Port: 80, TargetPort: 9801},
			API:     vllmv1alpha1.PortSpec{Port: 8081, TargetPort: 8181},
			Metrics: vllmv1alpha1.PortSpec{Port: 9191, TargetPort: 9200},
		}, "-listener-address 0.0.0.0:9801 -api-address 0.0.0.0:8181 -metrics-address 0.0.0.0:9200"},
		{"a disabled port's listener moves too", vllmv1alpha1.GatewayModeStandalone, vllmv1alpha1.ServiceSpec{
			Metrics: vllmv1alpha1.PortSpec{Enabled: ptr.To(false), TargetPort: 9200},
		}, "-listener-address 0.0.0.0 -metrics-address 0.0.0.0:9200"},
		{"extproc", vllmv1alpha1.GatewayModeIntegration, vllmv1alpha1.ServiceSpec{
			HTTP: vllmv1alpha1.PortSpec{TargetPort: 9801}, // not opened in extproc mode
			GRPC: vllmv1alpha1.PortSpec{TargetPort: 50052},
		}, "-grpc-address 0.0.0.0:50052"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sr := newSR(vllmv1alpha1.SemanticRouterSpec{Service: tt.service})
			c := desiredPodTemplate(sr, tt.mode, renderedConfig{hash: "abc"}).Spec.Containers[0]
			if got := strings.Join(c.Args[4:], " "); got != tt.wantArgs {
				t.Errorf("listen flags = %q, want %q", got, tt.wantArgs)
			}
			declared := map[string]int32{}
			for _, p := range c.Ports {
				declared[p.Name] = p.ContainerPort
			}
			for _, p := range servicePorts(sr, tt.mode) {
				target := p.TargetPort.IntVal
				if p.TargetPort.Type == intstr.String {
					target = declared[p.TargetPort.StrVal]
				}
				if target == 0 || target != declared[p.Name] {
					t.Errorf("service port %s targets %s, the container declares %s at %d", p.Name, p.TargetPort.String(), p.Name, declared[p.Name])
				}
			}
			for _, probe := range []*corev1.Probe{c.LivenessProbe, c.ReadinessProbe} {
				if got := probe.HTTPGet.Port.IntVal; got != declared[portNameAPI] {
					t.Errorf("probe %s on port %d, the management API listens on %d", probe.HTTPGet.Path, got, declared[portNameAPI])
				}
			}
		})
	}
}

func TestCheckListenPorts(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name    string
		mode    vllmv1alpha1.GatewayMode
		service vllmv1alpha1.ServiceSpec
		want    string
	}{
		{"defaults", vllmv1alpha1.GatewayModeStandalone, vllmv1alpha1.ServiceSpec{}, ""},
		{"moved apart", vllmv1alpha1.GatewayModeStandalone, vllmv1alpha1.ServiceSpec{
			API: vllmv1alpha1.PortSpec{TargetPort: 9190}, Metrics: vllmv1alpha1.PortSpec{TargetPort: 8080},
		}, ""},
		{"api on the inference port", vllmv1alpha1.GatewayModeStandalone, vllmv1alpha1.ServiceSpec{
			API: vllmv1alpha1.PortSpec{TargetPort: 8801},
		}, "spec.service.http and spec.service.api both have the router listen on container port 8801: give one another targetPort"},
		{"metrics on the api's default, api disabled", vllmv1alpha1.GatewayModeStandalone, vllmv1alpha1.ServiceSpec{
			API: vllmv1alpha1.PortSpec{Enabled: ptr.To(false)}, Metrics: vllmv1alpha1.PortSpec{TargetPort: 8080},
		}, "spec.service.api and spec.service.metrics both have the router listen on container port 8080: give one another targetPort"},
		{"extproc: grpc on the metrics port", vllmv1alpha1.GatewayModeIntegration, vllmv1alpha1.ServiceSpec{
			GRPC: vllmv1alpha1.PortSpec{TargetPort: 9190},
		}, "spec.service.grpc and spec.service.metrics both have the router listen on container port 9190: give one another targetPort"},
		{"extproc: the http port is not opened", vllmv1alpha1.GatewayModeIntegration, vllmv1alpha1.ServiceSpec{
			HTTP: vllmv1alpha1.PortSpec{TargetPort: 8080},
		}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := ""
			if err := checkListenPorts(newSR(vllmv1alpha1.SemanticRouterSpec{Service: tt.service}), tt.mode); err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("checkListenPorts = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestImageRef(t *testing.T) {
	digest := "sha256:" + fmt.Sprintf("%064x", 1)
	tests := []struct {
		name      string
		img       vllmv1alpha1.ImageSpec
		want, ver string
	}{
		{"default", vllmv1alpha1.ImageSpec{}, vllmv1alpha1.DefaultImageRepository + ":" + vllmv1alpha1.DefaultImageTag, vllmv1alpha1.DefaultImageTag},
		{"tag", vllmv1alpha1.ImageSpec{Repository: "reg/sr", Tag: "v2"}, "reg/sr:v2", "v2"},
		{"digest wins", vllmv1alpha1.ImageSpec{Repository: "reg/sr", Tag: "v2", Digest: digest}, "reg/sr@" + digest, "v2"},
		{"digest only", vllmv1alpha1.ImageSpec{Digest: digest}, vllmv1alpha1.DefaultImageRepository + "@" + digest, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sr := newSR(vllmv1alpha1.SemanticRouterSpec{Image: tt.img})
			if got := imageRef(sr); got != tt.want {
				t.Errorf("imageRef = %q, want %q", got, tt.want)
			}
			if got := objectLabels(sr)[labelVersion]; got != tt.ver {
				t.Errorf("version label = %q, want %q", got, tt.ver)
			}
		})
	}
}

func TestServicePorts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		mode vllmv1alpha1.GatewayMode
		spec vllmv1alpha1.ServiceSpec
		want []string
	}{
		{"standalone defaults", vllmv1alpha1.GatewayModeStandalone, vllmv1alpha1.ServiceSpec{},
			[]string{"http:8801->http/TCP", "api:8080->api/TCP", "metrics:9190->metrics/TCP"}},
		{"extproc exposes grpc, never 8801", vllmv1alpha1.GatewayModeIntegration, vllmv1alpha1.ServiceSpec{},
			[]string{"grpc:50051->grpc/TCP", "api:8080->api/TCP", "metrics:9190->metrics/TCP"}},
		{"the traffic port cannot be disabled", vllmv1alpha1.GatewayModeStandalone, vllmv1alpha1.ServiceSpec{
			HTTP:    vllmv1alpha1.PortSpec{Port: 80, Enabled: ptr.To(false)},
			API:     vllmv1alpha1.PortSpec{Enabled: ptr.To(false)},
			Metrics: vllmv1alpha1.PortSpec{Port: 9090, TargetPort: 9191},
		}, []string{"http:80->http/TCP", "metrics:9090->9191/TCP"}},
		{"extproc grpc cannot be disabled", vllmv1alpha1.GatewayModeIntegration, vllmv1alpha1.ServiceSpec{
			GRPC: vllmv1alpha1.PortSpec{Enabled: ptr.To(false)},
		}, []string{"grpc:50051->grpc/TCP", "api:8080->api/TCP", "metrics:9190->metrics/TCP"}},
		{"appProtocol", vllmv1alpha1.GatewayModeStandalone, vllmv1alpha1.ServiceSpec{
			HTTP: vllmv1alpha1.PortSpec{AppProtocol: "kubernetes.io/h2c"},
		}, []string{"http:8801->http/TCP (kubernetes.io/h2c)", "api:8080->api/TCP", "metrics:9190->metrics/TCP"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, p := range servicePorts(newSR(vllmv1alpha1.SemanticRouterSpec{Service: tt.spec}), tt.mode) {
				port := fmt.Sprintf("%s:%d->%s/%s", p.Name, p.Port, p.TargetPort.String(), p.Protocol)
				if p.AppProtocol != nil {
					port += " (" + *p.AppProtocol + ")"
				}
				got = append(got, port)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("ports = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestServiceKeepsNodePorts(t *testing.T) {
	sr := newSR(vllmv1alpha1.SemanticRouterSpec{Service: vllmv1alpha1.ServiceSpec{Type: corev1.ServiceTypeNodePort}})
	svc := &corev1.Service{Spec: corev1.ServiceSpec{ClusterIP: "10.0.0.1", Ports: []corev1.ServicePort{{Name: "http", NodePort: 30001}}}}
	mutateService(svc, sr, vllmv1alpha1.GatewayModeStandalone)
	if svc.Spec.Ports[0].NodePort != 30001 || svc.Spec.ClusterIP != "10.0.0.1" {
		t.Errorf("service = %+v, want node port 30001 and cluster IP kept", svc.Spec)
	}
}

// TestContainerPortsFollowTheMode: the pod declares only the ports the
// router opens in its mode.
func TestContainerPortsFollowTheMode(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		mode vllmv1alpha1.GatewayMode
		want string
	}{
		{vllmv1alpha1.GatewayModeStandalone, "http:8801 api:8080 metrics:9190"},
		{vllmv1alpha1.GatewayModeIntegration, "grpc:50051 api:8080 metrics:9190"},
	} {
		tmpl := desiredPodTemplate(newSR(vllmv1alpha1.SemanticRouterSpec{}), tt.mode, renderedConfig{hash: "abc"})
		var got []string
		for _, p := range tmpl.Spec.Containers[0].Ports {
			got = append(got, fmt.Sprintf("%s:%d", p.Name, p.ContainerPort))
		}
		if strings.Join(got, " ") != tt.want {
			t.Errorf("%s: container ports = %q, want %q", tt.mode, strings.Join(got, " "), tt.want)
		}
	}
}

func TestPodTemplate(t *testing.T) {
	t.Run("overrides replace defaults", func(t *testing.T) {
		probe := &corev1.Probe{ProbeHandler: corev1.ProbeHandler{Exec: &corev1.ExecAction{Command: []string{"true"}}}}
		sr := newSR(vllmv1alpha1.SemanticRouterSpec{
			LivenessProbe:      probe,
			SecurityContext:    &corev1.SecurityContext{RunAsUser: ptr.To[int64](1000)},
			PodSecurityContext: &corev1.PodSecurityContext{FSGroup: ptr.To[int64](2000)},
			ServiceAccount:     vllmv1alpha1.ServiceAccountSpec{Create: ptr.To(false), Name: "shared"},
			Persistence:        vllmv1alpha1.PersistenceSpec{ExistingClaim: ptr.To("models"), MountPath: "/models"},
			PodAnnotations:     map[string]string{annotationConfigHash: "mine"},
		})
		tmpl := desiredPodTemplate(sr, vllmv1alpha1.GatewayModeStandalone, renderedConfig{hash: "abc"})
		c := tmpl.Spec.Containers[0]
		if c.LivenessProbe.Exec == nil || c.LivenessProbe.Exec.Command[0] != "true" || c.LivenessProbe.SuccessThreshold != 1 || c.ReadinessProbe.HTTPGet.Path != "/ready" {
			t.Errorf("probes = %+v / %+v", c.LivenessProbe, c.ReadinessProbe)
		}
		if *c.SecurityContext.RunAsUser != 1000 || c.SecurityContext.Capabilities != nil {
			t.Errorf("container securityContext = %+v, want the override as is", c.SecurityContext)
		}
		if tmpl.Spec.SecurityContext.RunAsNonRoot != nil {
			t.Errorf("pod securityContext = %+v, want the override as is", tmpl.Spec.SecurityContext)
		}
		if tmpl.Spec.ServiceAccountName != "shared" {
			t.Errorf("serviceAccountName = %q", tmpl.Spec.ServiceAccountName)
		}
		if tmpl.Annotations[annotationConfigHash] != "abc" {
			t.Errorf("config hash = %q, want the operator's", tmpl.Annotations[annotationConfigHash])
		}
		mounts := map[string]string{}
		for _, m := range c.VolumeMounts {
			mounts[m.Name] = m.MountPath
		}
		if mounts["data"] != "/models" || tmpl.Spec.Volumes[1].PersistentVolumeClaim.ClaimName != "models" {
			t.Errorf("mounts = %v, volumes = %+v", mounts, tmpl.Spec.Volumes)
		}
	})
	t.Run("persistence off mounts no claim", func(t *testing.T) {
		sr := newSR(vllmv1alpha1.SemanticRouterSpec{Persistence: vllmv1alpha1.PersistenceSpec{Enabled: ptr.To(false)}})
		tmpl := desiredPodTemplate(sr, vllmv1alpha1.GatewayModeIntegration, renderedConfig{hash: "abc"})
		if len(tmpl.Spec.Volumes) != 1 || ownsPVC(sr) {
			t.Errorf("volumes = %+v, ownsPVC = %t", tmpl.Spec.Volumes, ownsPVC(sr))
		}
		if !slices.Contains(tmpl.Spec.Containers[0].Args, "extproc") {
			t.Errorf("args = %q, want extproc mode", tmpl.Spec.Containers[0].Args)
		}
	})
}

func TestMutateDeploymentReplicas(t *testing.T) {
	tests := []struct {
		name     string
		spec     vllmv1alpha1.SemanticRouterSpec
		existing *int32
		want     int32
	}{
		{"fixed replicas", vllmv1alpha1.SemanticRouterSpec{Replicas: ptr.To[int32](3)}, ptr.To[int32](7), 3},
		{"default replicas", vllmv1alpha1.SemanticRouterSpec{}, nil, 1},
		{"hpa on create takes min", vllmv1alpha1.SemanticRouterSpec{Replicas: ptr.To[int32](3),
			Autoscaling: vllmv1alpha1.AutoscalingSpec{Enabled: true, MinReplicas: 2}}, nil, 2},
		{"hpa leaves a scaled deployment alone", vllmv1alpha1.SemanticRouterSpec{Replicas: ptr.To[int32](3),
			Autoscaling: vllmv1alpha1.AutoscalingSpec{Enabled: true, MinReplicas: 2}}, ptr.To[int32](6), 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sr := newSR(tt.spec)
			dep := &appsv1.Deployment{Spec: appsv1.DeploymentSpec{Replicas: tt.existing}}
			mutateDeployment(dep, sr, desiredPodTemplate(sr, vllmv1alpha1.GatewayModeStandalone, renderedConfig{hash: "h"}))
			if *dep.Spec.Replicas != tt.want {
				t.Errorf("replicas = %d, want %d", *dep.Spec.Replicas, tt.want)
			}
		})
	}
}

func TestMutatePVC(t *testing.T) {
	t.Parallel()
	sr := newSR(vllmv1alpha1.SemanticRouterSpec{Persistence: vllmv1alpha1.PersistenceSpec{AccessMode: corev1.ReadWriteMany}})
	pvc := &corev1.PersistentVolumeClaim{}
	mutatePVC(pvc, sr, storageChange{create: true, class: "fast", size: resource.MustParse("20Gi")})
	if got := pvc.Spec.Resources.Requests[corev1.ResourceStorage]; got.String() != "20Gi" || *pvc.Spec.StorageClassName != "fast" ||
		pvc.Spec.AccessModes[0] != corev1.ReadWriteMany {
		t.Errorf("new claim = %+v", pvc.Spec)
	}

	// An existing claim keeps its (immutable) spec and only grows.
	pvc.CreationTimestamp = metav1.Now()
	mutatePVC(pvc, sr, storageChange{class: "slow", size: resource.MustParse("5Gi")})
	if got := pvc.Spec.Resources.Requests[corev1.ResourceStorage]; got.String() != "20Gi" || *pvc.Spec.StorageClassName != "fast" {
		t.Errorf("shrunk or reclassed claim: %+v", pvc.Spec)
	}
	mutatePVC(pvc, sr, storageChange{class: "fast", size: resource.MustParse("30Gi")})
	if got := pvc.Spec.Resources.Requests[corev1.ResourceStorage]; got.Cmp(resource.MustParse("30Gi")) != 0 {
		t.Errorf("size = %s, want grown to 30Gi", got.String())
	}
}

func TestPVCSize(t *testing.T) {
	t.Parallel()
	_, err := pvcSize(newSR(vllmv1alpha1.SemanticRouterSpec{Persistence: vllmv1alpha1.PersistenceSpec{Size: ptr.To("lots")}}))
	if err == nil || err.Error() != "spec.persistence.size: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'" {
		t.Errorf("err = %v", err)
	}
}

// TestMutateDeploymentKeepsRestartAndSkipsNoop: a template the API server
// defaulted is not a change, and kubectl's restartedAt survives a change.
func TestMutateDeploymentKeepsRestartAndSkipsNoop(t *testing.T) {
	t.Parallel()
	sr := newSR(vllmv1alpha1.SemanticRouterSpec{})
	dep := &appsv1.Deployment{}
	mutateDeployment(dep, sr, desiredPodTemplate(sr, vllmv1alpha1.GatewayModeStandalone, renderedConfig{hash: "h1"}))
	// What the API server adds: defaults and kubectl's restart annotation.
	dep.CreationTimestamp = metav1.Now()
	c := &dep.Spec.Template.Spec.Containers[0]
	c.TerminationMessagePath = "/dev/termination-log"
	c.ImagePullPolicy = corev1.PullIfNotPresent
	dep.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyAlways
	dep.Spec.Template.Annotations["kubectl.kubernetes.io/restartedAt"] = "2026-01-01T00:00:00Z"
	before := dep.DeepCopy()

	mutateDeployment(dep, sr, desiredPodTemplate(sr, vllmv1alpha1.GatewayModeStandalone, renderedConfig{hash: "h1"}))
	if !equality.Semantic.DeepEqual(before, dep) {
		t.Errorf("an unchanged spec changed the Deployment")
	}

	mutateDeployment(dep, sr, desiredPodTemplate(sr, vllmv1alpha1.GatewayModeStandalone, renderedConfig{hash: "h2"}))
	ann := dep.Spec.Template.Annotations
	if ann[annotationConfigHash] != "h2" || ann["kubectl.kubernetes.io/restartedAt"] != "2026-01-01T00:00:00Z" {
		t.Errorf("template annotations = %v", ann)
	}

	// An edited field the operator sets is restored.
	dep.Spec.Template.Spec.Containers[0].Image = "example.com/evil:latest"
	mutateDeployment(dep, sr, desiredPodTemplate(sr, vllmv1alpha1.GatewayModeStandalone, renderedConfig{hash: "h2"}))
	if got := dep.Spec.Template.Spec.Containers[0].Image; got != imageRef(sr) {
		t.Errorf("image = %s, want restored", got)
	}
}

func TestMutateRoute(t *testing.T) {
	sr := newSR(vllmv1alpha1.SemanticRouterSpec{Route: vllmv1alpha1.RouteSpec{Enabled: true, TLSTermination: "edge"}})
	u := &unstructured.Unstructured{Object: map[string]any{"spec": map[string]any{"host": "r-ns.apps.example"}}}
	if err := mutateRoute(u, sr); err != nil {
		t.Fatal(err)
	}
	host, _, _ := unstructured.NestedString(u.Object, "spec", "host")
	to, _, _ := unstructured.NestedString(u.Object, "spec", "to", "name")
	port, _, _ := unstructured.NestedString(u.Object, "spec", "port", "targetPort")
	tls, _, _ := unstructured.NestedString(u.Object, "spec", "tls", "termination")
	if host != "r-ns.apps.example" || to != "r" || port != "http" || tls != "edge" {
		t.Errorf("route spec = %v", u.Object["spec"])
	}
}

// TestPodGracePeriodCoversTheShutdown: the kubelet kills a pod at the end of its
// termination grace period, so it must cover the router's shutdown_delay and drain.
func TestPodGracePeriodCoversTheShutdown(t *testing.T) {
	tests := []struct {
		name   string
		server string // spec.config's server section, as JSON; "" for none
		want   int64
	}{
		{name: "the defaults: 5s rendered, 30s drain", want: 45},
		{name: "a longer drain, no delay", server: `{"shutdown_timeout":"2m","shutdown_delay":"0s"}`, want: 130},
		{name: "fractions round up", server: `{"shutdown_timeout":"1s","shutdown_delay":"1500ms"}`, want: 13},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			extra := ""
			if tt.server != "" {
				extra = `"server":` + tt.server
			}
			_, parsed, err := renderRouterConfig(modelConfig(extra), nil, "")
			if err != nil {
				t.Fatal(err)
			}
			sr := newSR(vllmv1alpha1.SemanticRouterSpec{})
			tmpl := desiredPodTemplate(sr, vllmv1alpha1.GatewayModeStandalone, renderedConfig{hash: "h", stop: routerStopTime(parsed)})
			if g := tmpl.Spec.TerminationGracePeriodSeconds; g == nil || *g != tt.want {
				t.Errorf("terminationGracePeriodSeconds = %v, want %d", g, tt.want)
			}
		})
	}
}

func TestCheckAppProtocol(t *testing.T) {
	t.Parallel()
	const refused = "spec.service.http.appProtocol is kubernetes.io/h2c, which has gateways speak HTTP/2 without TLS to the router, " +
		"and spec.config.server.h2c is false, which refuses it: remove one of the two"
	tests := []struct {
		name        string
		appProtocol string
		h2c         *bool
		want        string
	}{
		{"h2c by default", "kubernetes.io/h2c", nil, ""},
		{"h2c on", "kubernetes.io/h2c", ptr.To(true), ""},
		{"h2c off", "kubernetes.io/h2c", ptr.To(false), refused},
		{"no appProtocol, h2c off", "", ptr.To(false), ""},
		{"another appProtocol", "http", ptr.To(false), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sr := newSR(vllmv1alpha1.SemanticRouterSpec{Service: vllmv1alpha1.ServiceSpec{HTTP: vllmv1alpha1.PortSpec{AppProtocol: tt.appProtocol}}})
			got := ""
			if err := checkAppProtocol(sr, &config.Config{Server: config.Server{H2C: tt.h2c}}); err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("checkAppProtocol = %q, want %q", got, tt.want)
			}
		})
	}
}
