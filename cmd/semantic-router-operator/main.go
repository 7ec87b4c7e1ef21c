// Command semantic-router-operator runs the controller that reconciles
// SemanticRouter resources (vllm.ai/v1alpha1).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	vllmv1alpha1 "github.com/semantic-router/semantic-router/api/v1alpha1"
	"github.com/semantic-router/semantic-router/internal/operator"
)

// leaderElectionID names the Lease that replicas of the operator compete for.
const leaderElectionID = "semantic-router-operator.vllm.ai"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := Run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		os.Exit(0)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "semantic-router-operator:", err)
		os.Exit(1)
	}
}

// options are the operator's command-line flags.
type options struct {
	kubeconfig     string
	metricsAddr    string
	probeAddr      string
	leaderElect    bool
	leaderElectNS  string
	logLevel       string
	logJSON        bool
	watchNamespace string
}

func parseFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("semantic-router-operator", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.kubeconfig, "kubeconfig", "", "path to a kubeconfig; empty means in-cluster or $KUBECONFIG")
	fs.StringVar(&o.metricsAddr, "metrics-bind-address", ":8080", "address of the Prometheus metrics endpoint; 0 turns it off")
	fs.StringVar(&o.probeAddr, "health-probe-bind-address", ":8081", "address of the /healthz and /readyz endpoints")
	fs.BoolVar(&o.leaderElect, "leader-elect", false, "elect a leader so only one replica reconciles")
	fs.StringVar(&o.leaderElectNS, "leader-election-namespace", "", "namespace of the leader election Lease; empty means the pod's namespace")
	fs.StringVar(&o.logLevel, "log-level", "info", "debug, info, warn or error")
	// JSON by default: `kubectl logs` output goes to log collectors.
	fs.BoolVar(&o.logJSON, "log-json", true, "log JSON lines (false: text)")
	fs.StringVar(&o.watchNamespace, "watch-namespace", "", "reconcile only this namespace; empty means all")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	return o, nil
}

// Run starts the operator and blocks until ctx is done or the manager fails.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	o, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(o.logLevel)); err != nil {
		return fmt.Errorf("-log-level: %w", err)
	}
	hopts := &slog.HandlerOptions{Level: level}
	var handler slog.Handler = slog.NewTextHandler(stderr, hopts)
	if o.logJSON {
		handler = slog.NewJSONHandler(stderr, hopts)
	}
	// controller-runtime logs through logr; the slog bridge keeps one
	// handler for the operator's and the framework's lines.
	logger := logr.FromSlogHandler(handler)
	ctrl.SetLogger(logger)

	cfg, err := restConfig(o.kubeconfig)
	if err != nil {
		return err
	}
	scheme := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(scheme))
	utilruntime.Must(vllmv1alpha1.AddToScheme(scheme))

	mopts := ctrl.Options{
		Scheme:                  scheme,
		Logger:                  logger,
		Metrics:                 metricsserver.Options{BindAddress: o.metricsAddr},
		HealthProbeBindAddress:  o.probeAddr,
		LeaderElection:          o.leaderElect,
		LeaderElectionID:        leaderElectionID,
		LeaderElectionNamespace: o.leaderElectNS,
		// Step down promptly on shutdown so a new leader takes over fast.
		LeaderElectionReleaseOnCancel: true,
		// Only the router pods are cached (watched for their model downloads).
		Cache: cache.Options{ByObject: map[client.Object]cache.ByObject{&corev1.Pod{}: operator.RouterPodCache()}},
	}
	// Watching one namespace needs only a Role there, for clusters where a
	// ClusterRole is not granted.
	if o.watchNamespace != "" {
		mopts.Cache.DefaultNamespaces = map[string]cache.Config{o.watchNamespace: {}}
	}
	mgr, err := ctrl.NewManager(cfg, mopts)
	if err != nil {
		return fmt.Errorf("creating manager: %w", err)
	}
	r := &operator.Reconciler{
		Client:   mgr.GetClient(),
		Recorder: mgr.GetEventRecorder("semantic-router-operator"),
	}
	if err := r.SetupWithManager(mgr); err != nil {
		return fmt.Errorf("setting up controller: %w", err)
	}
	if err := mgr.AddHealthzCheck("healthz", healthz.Ping); err != nil {
		return fmt.Errorf("adding health check: %w", err)
	}
	if err := mgr.AddReadyzCheck("readyz", healthz.Ping); err != nil {
		return fmt.Errorf("adding ready check: %w", err)
	}
	fmt.Fprintf(stdout, "semantic-router-operator: starting (metrics %s, probes %s, leader election %t)\n",
		o.metricsAddr, o.probeAddr, o.leaderElect)
	return mgr.Start(ctx)
}

// restConfig loads the kubeconfig named by the flag, else the usual chain
// ($KUBECONFIG, in-cluster, ~/.kube/config).
func restConfig(path string) (*rest.Config, error) {
	if path != "" {
		cfg, err := clientcmd.BuildConfigFromFlags("", path)
		if err != nil {
			return nil, fmt.Errorf("-kubeconfig: %w", err)
		}
		return cfg, nil
	}
	cfg, err := ctrl.GetConfig()
	if err != nil {
		return nil, fmt.Errorf("loading kubeconfig: %w", err)
	}
	return cfg, nil
}
