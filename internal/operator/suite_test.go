package operator

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
	"sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	vllmv1alpha1 "github.com/semantic-router/semantic-router/api/v1alpha1"
	"github.com/semantic-router/semantic-router/internal/logtest"
	"github.com/semantic-router/semantic-router/internal/testtool"
)

// The integration tests share one real kube-apiserver + etcd (envtest) and
// two running managers with the Reconciler; each test works in its own
// namespace. The main manager sees a cluster that serves every optional API
// (Gateway API, OpenShift Route, KServe, Prometheus Operator) and two
// storage classes, "standard" (the default, no expansion) and "expandable".
// The bare manager sees the same API server through a REST mapper that
// hides the optional APIs, as on a plain cluster; it reconciles only the
// SemanticRouters labelled bareLabel. Without KUBEBUILDER_ASSETS the tests
// skip locally and fail in CI.

var (
	// k8sClient talks to the API server directly (no cache), as a user would.
	k8sClient client.Client
	// restCfg is the test API server's admin config.
	restCfg *rest.Config
	// testEnv is the running control plane, for tests that add users.
	testEnv *envtest.Environment
	// envProblem says why the API server is not available; "" when it is.
	envProblem string
	// lateAPIsInstalled installs the optional APIs for the "late" manager,
	// which starts on a cluster without them.
	lateAPIsInstalled atomic.Bool
	// updates counts the main reconciler's Update calls by kind and name.
	updates = &updateCounter{counts: map[string]int{}}
)

const (
	waitTimeout = 30 * time.Second
	// bareLabel on a SemanticRouter hands it to the bare manager ("true") or
	// the late one (lateValue).
	bareLabel = "test.vllm.ai/bare-cluster"
	lateValue = "late"
	// defaultClass and expandableClass are the test cluster's storage classes.
	defaultClass    = "standard"
	expandableClass = "expandable"
)

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
		CRDs:                  standInCRDs(),
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
	if err := createStorageClasses(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "creating storage classes:", err)
		return 1
	}

	// Every line is kept for the tests that read the operator's log; with -v it is
	// printed too.
	logger := logr.FromSlogHandler(slog.NewTextHandler(io.MultiWriter(logWriter(), operatorLog), &slog.HandlerOptions{Level: slog.LevelInfo}))
	ctrl.SetLogger(logger)

	ctx, cancel := context.WithCancel(context.Background())
	var done []chan error
	for _, view := range []string{"main", "bare", "late"} {
		mgr, err := newTestManager(cfg, scheme, logger, view)
		if err != nil {
			fmt.Fprintf(os.Stderr, "setting up the %s manager: %v\n", view, err)
			cancel()
			return 1
		}
		ch := make(chan error, 1)
		go func() { ch <- mgr.Start(ctx) }()
		done = append(done, ch)
	}
	code := m.Run()
	cancel()
	for _, ch := range done {
		if err := <-ch; err != nil {
			fmt.Fprintln(os.Stderr, "manager:", err)
		}
	}
	return code
}

// newTestManager builds a manager with the Reconciler for one view of the
// cluster: "main" (every API), "bare" (no optional API) or "late" (no
// optional API until lateAPIsInstalled is set).
func newTestManager(cfg *rest.Config, scheme *runtime.Scheme, logger logr.Logger, view string) (ctrl.Manager, error) {
	sel, err := labels.Parse("!" + bareLabel)
	if err != nil {
		return nil, err
	}
	opts := ctrl.Options{
		Scheme:                 scheme,
		Logger:                 logger,
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
		Controller:             config.Controller{SkipNameValidation: ptr.To(true)},
	}
	if view != "main" {
		value := "true"
		var shown *atomic.Bool
		if view == "late" {
			value, shown = lateValue, &lateAPIsInstalled
		}
		sel = labels.SelectorFromSet(labels.Set{bareLabel: value})
		opts.MapperProvider = func(c *rest.Config, hc *http.Client) (meta.RESTMapper, error) {
			m, err := apiutil.NewDynamicRESTMapper(c, hc)
			if err != nil {
				return nil, err
			}
			hidden := map[string]bool{}
			for _, gvk := range optionalAPIs {
				hidden[gvk.Group] = true
			}
			return &hidingMapper{RESTMapper: m, hidden: hidden, shown: shown}, nil
		}
	}
	opts.Cache = cache.Options{ByObject: map[client.Object]cache.ByObject{&vllmv1alpha1.SemanticRouter{}: {Label: sel}, &corev1.Pod{}: RouterPodCache()}}
	mgr, err := ctrl.NewManager(cfg, opts)
	if err != nil {
		return nil, fmt.Errorf("creating manager: %w", err)
	}
	c := mgr.GetClient()
	if view == "main" {
		c = &countingClient{Client: c, counter: updates}
	}
	r := &Reconciler{
		Client:          c,
		Recorder:        mgr.GetEventRecorder("semantic-router-operator"),
		DependencyRetry: 500 * time.Millisecond,
	}
	if err := r.SetupWithManager(mgr); err != nil {
		return nil, fmt.Errorf("setting up reconciler: %w", err)
	}
	return mgr, nil
}

// hidingMapper answers "no such kind" for the hidden groups, as the REST
// mapper of a cluster without those APIs does, until shown (if not nil) is
// set: then the APIs are installed.
type hidingMapper struct {
	meta.RESTMapper
	hidden map[string]bool
	shown  *atomic.Bool
}

func (m *hidingMapper) hides(group string) bool {
	return m.hidden[group] && (m.shown == nil || !m.shown.Load())
}

func (m *hidingMapper) RESTMapping(gk schema.GroupKind, versions ...string) (*meta.RESTMapping, error) {
	if m.hides(gk.Group) {
		return nil, &meta.NoKindMatchError{GroupKind: gk, SearchedVersions: versions}
	}
	return m.RESTMapper.RESTMapping(gk, versions...)
}

func (m *hidingMapper) RESTMappings(gk schema.GroupKind, versions ...string) ([]*meta.RESTMapping, error) {
	if m.hides(gk.Group) {
		return nil, &meta.NoKindMatchError{GroupKind: gk, SearchedVersions: versions}
	}
	return m.RESTMapper.RESTMappings(gk, versions...)
}

func (m *hidingMapper) KindFor(resource schema.GroupVersionResource) (schema.GroupVersionKind, error) {
	if m.hides(resource.Group) {
		return schema.GroupVersionKind{}, &meta.NoResourceMatchError{PartialResource: resource}
	}
	return m.RESTMapper.KindFor(resource)
}

// countingClient counts Update calls, so tests can show that a reconcile
// with nothing to change writes nothing.
type countingClient struct {
	client.Client
	counter *updateCounter
}

func (c *countingClient) Update(ctx context.Context, obj client.Object, opts ...client.UpdateOption) error {
	uo := &client.UpdateOptions{}
	uo.ApplyOptions(opts)
	if len(uo.DryRun) == 0 { // a dry run writes nothing
		c.counter.add(fmt.Sprintf("%T %s/%s", obj, obj.GetNamespace(), obj.GetName()))
	}
	return c.Client.Update(ctx, obj, opts...)
}

type updateCounter struct {
	mu     sync.Mutex
	counts map[string]int
}

func (u *updateCounter) add(key string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.counts[key]++
}

// inNamespace returns the update counts of objects in ns.
func (u *updateCounter) inNamespace(ns string) map[string]int {
	u.mu.Lock()
	defer u.mu.Unlock()
	out := map[string]int{}
	for k, v := range u.counts {
		if strings.Contains(k, " "+ns+"/") {
			out[k] = v
		}
	}
	return out
}

// createStorageClasses creates the test cluster's storage classes.
func createStorageClasses(ctx context.Context) error {
	for _, sc := range []*storagev1.StorageClass{
		{ObjectMeta: metav1.ObjectMeta{Name: defaultClass, Annotations: map[string]string{annotationDefaultClass: "true"}},
			Provisioner: "example.com/standard"},
		{ObjectMeta: metav1.ObjectMeta{Name: expandableClass}, Provisioner: "example.com/expandable", AllowVolumeExpansion: ptr.To(true)},
	} {
		if err := k8sClient.Create(ctx, sc); err != nil {
			return err
		}
	}
	return nil
}

// operatorLog holds what the operators of the test managers logged.
var operatorLog = &logtest.Buffer{}

// waitLogged waits until the operators have logged a line holding every one of parts.
func waitLogged(t *testing.T, parts ...string) string {
	t.Helper()
	var found string
	eventually(t, fmt.Sprintf("a log line holding %q", parts), func(context.Context) (bool, error) {
		for line := range strings.Lines(operatorLog.String()) {
			if containsAll(line, parts) {
				found = line
				return true, nil
			}
		}
		return false, nil
	})
	return found
}

func containsAll(s string, parts []string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
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
	if envProblem != "" {
		testtool.Missing(t, envProblem)
	}
}

// invalidNameChars are the characters a namespace name cannot hold.
var invalidNameChars = regexp.MustCompile(`[^a-z0-9-]+`)

// newNamespace creates a namespace for one test and deletes it afterwards.
func newNamespace(t *testing.T) string {
	t.Helper()
	name := strings.Trim(invalidNameChars.ReplaceAllString(strings.ToLower(t.Name()), "-"), "-")
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
