package operator

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	vllmv1alpha1 "github.com/semantic-router/semantic-router/api/v1alpha1"
	"github.com/semantic-router/semantic-router/internal/config"
)

// createSampleBackends creates in ns what the samples and the docs'
// manifests discover: the vLLM Service vllm-qwen (port 8000), a Ready
// InferenceService llama-3-8b with its predictor Service, a Llama Stack
// Service labelled app.kubernetes.io/name=llama-stack, and the Gateways
// they name in gateway-system.
func createSampleBackends(t *testing.T, ns string) {
	t.Helper()
	ctx := context.Background()
	mustCreate := func(obj client.Object) {
		t.Helper()
		if err := k8sClient.Create(ctx, obj); err != nil && !apierrors.IsAlreadyExists(err) {
			t.Fatalf("creating %T %s: %v", obj, obj.GetName(), err)
		}
	}
	mustCreate(backendService(ns, "vllm-qwen", 8000, nil))
	mustCreate(backendService(ns, "llama-3-8b-predictor", 8443, nil))
	mustCreate(backendService(ns, "llama-stack", 8321, map[string]string{"app.kubernetes.io/name": "llama-stack"}))
	createInferenceService(t, ns, "llama-3-8b", "True")
	mustCreate(&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "gateway-system"}})
	mustCreate(gatewayObject("gateway-system", "inference-gateway"))
	mustCreate(gatewayObject("gateway-system", "public-gateway"))
}

// backendService is a model server's Service with one port.
func backendService(ns, name string, port int32, labels map[string]string) *corev1.Service {
	return &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: labels},
		Spec:       corev1.ServiceSpec{Ports: []corev1.ServicePort{{Name: "http", Port: port}}},
	}
}

// createInferenceService creates a KServe InferenceService and sets its
// Ready condition to ready ("True" or "False").
func createInferenceService(t *testing.T, ns, name, ready string) {
	t.Helper()
	isvc := &unstructured.Unstructured{}
	isvc.SetGroupVersionKind(inferenceServiceGVK)
	isvc.SetNamespace(ns)
	isvc.SetName(name)
	if err := unstructured.SetNestedField(isvc.Object, map[string]any{"predictor": map[string]any{"model": map[string]any{"modelFormat": map[string]any{"name": "huggingface"}}}}, "spec"); err != nil {
		t.Fatal(err)
	}
	if err := k8sClient.Create(context.Background(), isvc); err != nil {
		t.Fatalf("creating inferenceservice: %v", err)
	}
	setInferenceServiceReady(t, ns, name, ready)
}

// setInferenceServiceReady writes the Ready condition, as KServe does.
func setInferenceServiceReady(t *testing.T, ns, name, ready string) {
	t.Helper()
	eventually(t, "inferenceservice status", func(ctx context.Context) (bool, error) {
		isvc := &unstructured.Unstructured{}
		isvc.SetGroupVersionKind(inferenceServiceGVK)
		if err := k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, isvc); err != nil {
			return false, err
		}
		cond := map[string]any{"type": "Ready", "status": ready}
		if ready != "True" {
			cond["reason"] = "PredictorNotReady"
			cond["message"] = "predictor pods are not ready"
		}
		if err := unstructured.SetNestedSlice(isvc.Object, []any{cond}, "status", "conditions"); err != nil {
			return false, err
		}
		return true, k8sClient.Status().Update(ctx, isvc)
	})
}

// yamlInDocs returns the YAML blocks of docs/operator.md, by a name that
// says where each is: SemanticRouter manifests, and router configs.
func yamlInDocs(t *testing.T) (manifests, configs map[string][]byte) {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "operator.md"))
	if err != nil {
		t.Fatal(err)
	}
	manifests, configs = map[string][]byte{}, map[string][]byte{}
	blocks := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllSubmatch(doc, -1)
	for i, b := range blocks {
		name := "docs/operator.md yaml block " + itoa(int64(i+1))
		if bytes.Contains(b[1], []byte("kind: SemanticRouter")) {
			manifests[name] = b[1]
		} else {
			configs[name] = b[1]
		}
	}
	if len(manifests) == 0 {
		t.Fatal("docs/operator.md shows no SemanticRouter manifest")
	}
	return manifests, configs
}

// TestDocsConfigsParse: every router config the docs show is one the
// router accepts.
func TestDocsConfigsParse(t *testing.T) {
	t.Parallel()
	_, configs := yamlInDocs(t)
	for name, c := range configs {
		if _, err := config.Parse(c); err != nil {
			t.Errorf("%s: the router refuses it:\n%v", name, err)
		}
	}
}

// TestSamplesAndDocsServe applies every sample and every SemanticRouter the
// docs show, next to the backends they discover, and parses the ConfigMap
// the operator writes with the router's own config.Parse: each must define
// or discover at least one model and be a config the router accepts.
func TestSamplesAndDocsServe(t *testing.T) {
	requireAPIServer(t)
	manifests, _ := yamlInDocs(t)
	files, err := filepath.Glob(filepath.Join("..", "..", "config", "samples", "vllm.ai_*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("samples: %v %v", files, err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		manifests["config/samples/"+filepath.Base(f)] = b
	}
	for name, manifest := range manifests {
		t.Run(name, func(t *testing.T) {
			sr := &vllmv1alpha1.SemanticRouter{}
			if err := yaml.UnmarshalStrict(manifest, sr); err != nil {
				t.Fatalf("decoding: %v", err)
			}
			ns := newNamespace(t)
			createSampleBackends(t, ns)
			sr.Namespace = ns
			if err := k8sClient.Create(context.Background(), sr); err != nil {
				t.Fatalf("applying: %v", err)
			}
			got := waitReconciled(t, ns, sr.Name)
			if c := meta.FindStatusCondition(got.Status.Conditions, vllmv1alpha1.ConditionBackendsResolved); c != nil && c.Status != metav1.ConditionTrue {
				t.Errorf("BackendsResolved = %s: %s", c.Status, c.Message)
			}
			cm := &corev1.ConfigMap{ObjectMeta: key(ns, configMapName(sr))}
			waitFor(t, cm, nil)
			cfg, err := config.Parse([]byte(cm.Data[configKey]))
			if err != nil {
				t.Fatalf("the router refuses the ConfigMap:\n%s\n%v", cm.Data[configKey], err)
			}
			if len(cfg.Models) == 0 {
				t.Error("no model")
			}
			for _, m := range cfg.Models {
				for _, e := range m.Provider.EndpointList() {
					if strings.Contains(e.BaseURL, "@") {
						t.Errorf("model %s base_url %s carries credentials", m.Name, e.BaseURL)
					}
				}
			}
		})
	}
}
