package operator

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	vllmv1alpha1 "github.com/semantic-router/semantic-router/api/v1alpha1"
)

// The integration tests share one real kube-apiserver + etcd (envtest) and
// one running manager with the Reconciler; each test works in its own
// namespace. Without KUBEBUILDER_ASSETS they skip locally and fail in CI.

var (
	// k8sClient talks to the API server directly (no cache), as a user would.
	k8sClient client.Client
	// restCfg is the test API server's admin config.
	restCfg *rest.Config
	// testEnv is the running control plane, for tests that add users.
	testEnv *envtest.Environment
	// envProblem says why the API server is not available; "" when it is.
	envProblem string
)

const waitTimeout = 30 * time.Second

func TestMain(m *testing.M) {
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	flag.Parse()
	if os.Getenv("KUBEBUILDER_ASSETS") == "" {
		envProblem = "KUBEBUILDER_ASSETS is unset: run `make envtest-assets` and set KUBEBUILDER_ASSETS=$(hack/envtest.sh --print), or run `make test-operator`"
		return m.Run()
	}
	scheme := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(scheme))
	utilruntime.Must(vllmv1alpha1.AddToScheme(scheme))

	env := &envtest.Environment{
		CRDDirectoryPaths:     []string{filepath.Join("..", "..", "config", "crd", "bases")},
		ErrorIfCRDPathMissing: true,
	}
	cfg, err := env.Start()
	if err != nil {
		fmt.Fprintln(os.Stderr, "starting envtest:", err)
		return 1
	}
	defer func() {
		if err := env.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "stopping envtest:", err)
		}
	}()
	restCfg, testEnv = cfg, env
	k8sClient, err = client.New(cfg, client.Options{Scheme: scheme})
	if err != nil {
		fmt.Fprintln(os.Stderr, "creating client:", err)
		return 1
	}

	level := slog.LevelError
	if testing.Verbose() {
		level = slog.LevelInfo
	}
	logger := logr.FromSlogHandler(slog.NewTextHandler(logWriter(), &slog.HandlerOptions{Level: level}))
	ctrl.SetLogger(logger)
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme:                 scheme,
		Logger:                 logger,
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
		Controller:             config.Controller{SkipNameValidation: ptr.To(true)},
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "creating manager:", err)
		return 1
	}
	r := &Reconciler{
		Client:          mgr.GetClient(),
		Recorder:        mgr.GetEventRecorder("semantic-router-operator"),
		DependencyRetry: 500 * time.Millisecond,
	}
	if err := r.SetupWithManager(mgr); err != nil {
		fmt.Fprintln(os.Stderr, "setting up reconciler:", err)
		return 1
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- mgr.Start(ctx) }()
	code := m.Run()
	cancel()
	if err := <-done; err != nil {
		fmt.Fprintln(os.Stderr, "manager:", err)
	}
	return code
}

func logWriter() io.Writer {
	if testing.Verbose() {
		return os.Stderr
	}
	return io.Discard
}

// requireAPIServer skips (locally) or fails (CI=true) a test that needs the
// real API server when it is not available.
func requireAPIServer(t *testing.T) {
	t.Helper()
	if envProblem == "" {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatal(envProblem)
	}
	t.Skip(envProblem)
}

// newNamespace creates a namespace for one test and deletes it afterwards.
func newNamespace(t *testing.T) string {
	t.Helper()
	name := strings.ToLower(strings.NewReplacer("/", "-", "_", "-").Replace(t.Name()))
	if len(name) > 50 {
		name = name[:50]
	}
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: strings.TrimRight(name, "-") + "-"}}
	if err := k8sClient.Create(context.Background(), ns); err != nil {
		t.Fatalf("creating namespace: %v", err)
	}
	t.Cleanup(func() { _ = k8sClient.Delete(context.Background(), ns) })
	return ns.Name
}

// eventually polls cond until it returns true or the deadline passes; the
// last error cond returned explains a timeout.
func eventually(t *testing.T, what string, cond func(ctx context.Context) (bool, error)) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	defer cancel()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	var last error
	for {
		ok, err := cond(ctx)
		if ok {
			return
		}
		if err != nil {
			last = err
		}
		select {
		case <-ctx.Done():
			t.Fatalf("timed out after %s waiting for %s (last error: %v)", waitTimeout, what, last)
		case <-tick.C:
		}
	}
}

// getSR fetches the SemanticRouter name in ns.
func getSR(ctx context.Context, ns, name string) (*vllmv1alpha1.SemanticRouter, error) {
	sr := &vllmv1alpha1.SemanticRouter{}
	err := k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, sr)
	return sr, err
}

// waitReconciled waits until status.observedGeneration reaches the
// SemanticRouter's generation and returns it as then stored.
func waitReconciled(t *testing.T, ns, name string) *vllmv1alpha1.SemanticRouter {
	t.Helper()
	var out *vllmv1alpha1.SemanticRouter
	eventually(t, "observedGeneration to reach generation", func(ctx context.Context) (bool, error) {
		sr, err := getSR(ctx, ns, name)
		if err != nil {
			return false, err
		}
		out = sr
		return sr.Generation > 0 && sr.Status.ObservedGeneration == sr.Generation, nil
	})
	return out
}

// updateSR applies change to the latest SemanticRouter, retrying on conflicts.
func updateSR(t *testing.T, ns, name string, change func(*vllmv1alpha1.SemanticRouter)) {
	t.Helper()
	eventually(t, "updating the SemanticRouter", func(ctx context.Context) (bool, error) {
		sr, err := getSR(ctx, ns, name)
		if err != nil {
			return false, err
		}
		change(sr)
		if err := k8sClient.Update(ctx, sr); err != nil {
			return false, err
		}
		return true, nil
	})
}
