package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	vllmv1alpha1 "github.com/semantic-router/semantic-router/api/v1alpha1"
	"github.com/semantic-router/semantic-router/internal/logtest"
	"github.com/semantic-router/semantic-router/internal/testtool"
)

func TestRunRejectsBadArguments(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"unknown flag", []string{"-nope"}, "flag provided but not defined: -nope"},
		{"positional argument", []string{"extra"}, "unexpected arguments: [extra]"},
		{"bad log level", []string{"-log-level", "loud"}, `-log-level: slog: level string "loud": unknown name`},
		{"missing kubeconfig", []string{"-kubeconfig", filepath.Join(t.TempDir(), "missing")}, "-kubeconfig: stat "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			err := Run(context.Background(), tt.args, &bytes.Buffer{}, &stderr)
			if err == nil || !strings.HasPrefix(err.Error(), tt.wantErr) {
				t.Fatalf("err = %v, want prefix %q", err, tt.wantErr)
			}
		})
	}
}

func TestRunHelp(t *testing.T) {
	var stderr bytes.Buffer
	err := Run(context.Background(), []string{"-h"}, &bytes.Buffer{}, &stderr)
	if !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("err = %v, want flag.ErrHelp", err)
	}
	for _, f := range []string{"-leader-elect", "-metrics-bind-address", "-health-probe-bind-address", "-kubeconfig"} {
		if !strings.Contains(stderr.String(), f) {
			t.Errorf("usage lacks %s:\n%s", f, stderr.String())
		}
	}
}

// freeAddr returns a loopback address with a port that was free just now.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// TestRunReconcilesOnAPIServer starts the real program, with leader
// election, against a real API server and waits for it to be ready and to
// reconcile a SemanticRouter.
func TestRunReconcilesOnAPIServer(t *testing.T) {
	if os.Getenv("KUBEBUILDER_ASSETS") == "" {
		testtool.Missing(t, "KUBEBUILDER_ASSETS is unset: run `make envtest-assets` and set KUBEBUILDER_ASSETS=$(hack/envtest.sh --print), or run `make test-operator`")
	}
	env := &envtest.Environment{
		CRDDirectoryPaths:     []string{filepath.Join("..", "..", "config", "crd", "bases")},
		ErrorIfCRDPathMissing: true,
	}
	cfg, err := env.Start()
	if err != nil {
		t.Fatalf("starting envtest: %v", err)
	}
	t.Cleanup(func() { _ = env.Stop() })
	user, err := env.AddUser(envtest.User{Name: "operator", Groups: []string{"system:masters"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	kc, err := user.KubeConfig()
	if err != nil {
		t.Fatal(err)
	}
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(kubeconfig, kc, 0o600); err != nil {
		t.Fatal(err)
	}

	probe := freeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The manager may still log from its goroutines after Run returns.
	var stdout, stderr logtest.Buffer
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, []string{"-kubeconfig", kubeconfig, "-metrics-bind-address", "0", "-health-probe-bind-address", probe,
			"-leader-elect", "-leader-election-namespace", "default"}, &stdout, &stderr)
	}()

	deadline := time.Now().Add(60 * time.Second)
	poll := func(what string, cond func() bool) {
		t.Helper()
		for !cond() {
			select {
			case err := <-done:
				t.Fatalf("Run returned early: %v\n%s", err, stderr.String())
			case <-time.After(100 * time.Millisecond):
			}
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s\n%s", what, stderr.String())
			}
		}
	}
	poll("/readyz", func() bool {
		resp, err := http.Get("http://" + probe + "/readyz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})

	scheme := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(scheme))
	utilruntime.Must(vllmv1alpha1.AddToScheme(scheme))
	c, err := client.New(cfg, client.Options{Scheme: scheme})
	if err != nil {
		t.Fatal(err)
	}
	// One model, no claim (this API server has no storage class).
	sr := &vllmv1alpha1.SemanticRouter{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "router"}, Spec: vllmv1alpha1.SemanticRouterSpec{
		Persistence: vllmv1alpha1.PersistenceSpec{Enabled: ptr.To(false)},
		Config: &apiextensionsv1.JSON{Raw: []byte(`{"models":[{"model_name":"qwen","provider":{"type":"openai_compatible",` +
			`"base_url":"http://vllm-qwen.models.svc:8000/v1"}}]}`)},
	}}
	if err := c.Create(context.Background(), sr); err != nil {
		t.Fatal(err)
	}
	poll("the router Deployment", func() bool {
		return c.Get(context.Background(), client.ObjectKey{Namespace: "default", Name: "router"}, &appsv1.Deployment{}) == nil
	})

	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Run after cancel: %v", err)
	}
	if !strings.Contains(stdout.String(), "semantic-router-operator: starting") {
		t.Errorf("stdout = %q", stdout.String())
	}
	t.Logf("operator log:\n%s", stderr.String())
	if !strings.Contains(stderr.String(), `"msg":"Starting Controller"`) {
		t.Errorf("stderr lacks JSON controller logs:\n%s", stderr.String())
	}
}
