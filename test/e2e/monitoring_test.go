package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"sigs.k8s.io/yaml"

	"github.com/semantic-router/semantic-router/internal/provider/sim"
	"github.com/semantic-router/semantic-router/internal/testtool"
)

// prometheus is a Prometheus server, run from the prometheus binary on PATH, scraping one
// router every second.
type prometheus struct {
	t   *testing.T
	url string
}

// startPrometheus starts Prometheus scraping target (host:port) with the labels a
// ServiceMonitor would give a router's pod. Without the binary the test is skipped, except
// under CI=true, where it fails: CI installs it (apt-get install prometheus).
func startPrometheus(t *testing.T, target string) *prometheus {
	t.Helper()
	bin := testtool.Path(t, "prometheus", "apt-get install -y prometheus")
	dir := t.TempDir()
	config := fmt.Sprintf(`
global: {scrape_interval: 1s, evaluation_interval: 1s}
scrape_configs:
  - job_name: router
    static_configs:
      - targets: [%q]
        labels: {namespace: e2e, pod: router-0, container: semantic-router}
`, target)
	if err := os.WriteFile(filepath.Join(dir, "prometheus.yml"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	cmd := exec.Command(bin, "--config.file="+filepath.Join(dir, "prometheus.yml"),
		"--storage.tsdb.path="+filepath.Join(dir, "data"), "--web.listen-address="+addr, "--log.level=warn")
	var logs strings.Builder
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	p := &prometheus{t: t, url: "http://" + addr}
	p.waitFor("Prometheus to be ready", func() bool {
		resp, err := http.Get(p.url + "/-/ready")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})
	return p
}

// waitFor polls cond for up to 60 seconds.
func (p *prometheus) waitFor(what string, cond func() bool) {
	p.t.Helper()
	for deadline := time.Now().Add(60 * time.Second); !cond(); time.Sleep(250 * time.Millisecond) {
		if time.Now().After(deadline) {
			p.t.Fatalf("gave up waiting for %s", what)
		}
	}
}

// query evaluates an instant query and returns the labels of each series of its result.
func (p *prometheus) query(q string) ([]map[string]string, error) {
	resp, err := http.Get(p.url + "/api/v1/query?query=" + url.QueryEscape(q))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var body struct {
		Status string `json:"status"`
		Error  string `json:"error"`
		Data   struct {
			ResultType string `json:"resultType"`
			Result     []struct {
				Metric map[string]string `json:"metric"`
			} `json:"result"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		return nil, err
	}
	if body.Status != "success" {
		return nil, fmt.Errorf("%s", body.Error)
	}
	out := make([]map[string]string, 0, len(body.Data.Result))
	for _, r := range body.Data.Result {
		out = append(out, r.Metric)
	}
	return out, nil
}

// yields waits until q's result has a series with the given labels.
func (p *prometheus) yields(what, q string, want map[string]string) {
	p.t.Helper()
	p.waitFor(what+" ("+q+") to yield "+fmt.Sprint(want), func() bool {
		series, err := p.query(q)
		if err != nil {
			p.t.Fatalf("%s: %v", what, err)
		}
	next:
		for _, s := range series {
			for k, v := range want {
				if s[k] != v {
					continue next
				}
			}
			return true
		}
		return false
	})
}

// TestPrometheusReadsTheShippedMonitoring: a real Prometheus scraping the router binary
// evaluates every query of deploy/monitoring's dashboard and alerts without an error, the
// dashboard's panels show what the router did, and the alerts' conditions hold for the
// failures the test causes: a model whose server answers 502, one that falls back, an
// endpoint ejected, a configuration file that does not parse, and a router that stops.
func TestPrometheusReadsTheShippedMonitoring(t *testing.T) {
	t.Parallel()
	good := newBackend(t, "", sim.Options{Model: "upstream/chat-8b"})
	broken := statusBackend(t, http.StatusBadGateway)
	config := fmt.Sprintf(`
routing:
  default_model: good
models:
  - model_name: good
    provider: {type: openai_compatible, base_url: %[1]s/v1, model: upstream/chat-8b}
  - model_name: broken
    provider: {type: openai_compatible, base_url: %[2]s/v1, model: x}
    retry: {max_attempts: 1}
  - model_name: flaky
    provider: {type: openai_compatible, base_url: %[2]s/v1, model: x}
    retry: {max_attempts: 1}
    fallbacks: [good]
  - model_name: pooled
    provider:
      type: openai_compatible
      model: upstream/chat-8b
      endpoints: [{base_url: %[1]s/v1}, {base_url: %[2]s/v1}]
      outlier_detection: {consecutive_failures: 1, ejection_time: 1h}
    retry: {max_attempts: 1}
`, good.URL, broken.URL)
	path := writeConfig(t, config)
	r := startRouterWith(t, "", []string{"-config", path})
	prom := startPrometheus(t, strings.TrimPrefix(r.Metrics, "http://"))

	// Traffic until the checks are done, as a router serves it: a counter's rate grows
	// between scrapes, and a series' first sample does not count.
	for _, model := range []string{"good", "broken", "flaky"} {
		resp, _ := do(t, "POST", r.Inference+"/v1/chat/completions", `{"model":"`+model+`","messages":[{"role":"user","content":"hi"}]}`)
		if want := map[string]int{"good": 200, "broken": 502, "flaky": 200}[model]; resp.StatusCode != want {
			t.Fatalf("%s: status %d, want %d", model, resp.StatusCode, want)
		}
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
			model := []string{"good", "broken", "flaky"}[i%3]
			body := `{"model":"` + model + `","stream":` + fmt.Sprint(i%2 == 0) + `,"messages":[{"role":"user","content":"hi"}]}`
			if resp, err := http.Post(r.Inference+"/v1/chat/completions", "application/json", strings.NewReader(body)); err == nil {
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		}
	}()
	stopTraffic := func() {
		select {
		case <-stop:
		default:
			close(stop)
			<-done
		}
	}
	t.Cleanup(stopTraffic)
	// Once Prometheus has seen the router run (its event counters at 0): a file that does not
	// parse, and the endpoint of model pooled whose server answers 502 ejected.
	prom.yields("a scrape", `semantic_router_config_reloads_total{result="invalid"} == 0`, nil)
	prom.yields("a scrape", `semantic_router_endpoint_ejections_total{model="pooled"} == 0`, nil)
	if err := os.WriteFile(path, []byte("models: [\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for range 2 { // round robin: one of the two calls is the broken endpoint's
		do(t, "POST", r.Inference+"/v1/chat/completions", `{"model":"pooled","messages":[{"role":"user","content":"hi"}]}`)
	}

	var rule monitoringv1.PrometheusRule
	data, err := os.ReadFile("../../deploy/monitoring/prometheusrule.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.UnmarshalStrict(data, &rule); err != nil {
		t.Fatal(err)
	}
	alerts := map[string]string{}
	for _, g := range rule.Spec.Groups {
		for _, a := range g.Rules {
			alerts[a.Alert] = a.Expr.String()
		}
	}
	base := map[string]string{"namespace": "e2e", "job": "router"}
	with := func(kv ...string) map[string]string {
		m := maps.Clone(base)
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	prom.yields("SemanticRouterHighErrorRate", alerts["SemanticRouterHighErrorRate"], with("model", "broken"))
	prom.yields("SemanticRouterModelFailing", alerts["SemanticRouterModelFailing"], with("model", "broken", "reason", "upstream"))
	prom.yields("SemanticRouterFallbacksHigh", alerts["SemanticRouterFallbacksHigh"], with("from", "flaky"))
	prom.yields("SemanticRouterConfigReloadRejected", alerts["SemanticRouterConfigReloadRejected"], with("pod", "router-0"))
	prom.yields("SemanticRouterEndpointEjected", alerts["SemanticRouterEndpointEjected"], with("model", "pooled", "endpoint", broken.URL+"/v1"))

	// Every panel's query evaluates; the panels of what happened above show it.
	var dash struct {
		Panels []struct {
			Title   string `json:"title"`
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
	}
	data, err = os.ReadFile("../../deploy/monitoring/dashboard.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &dash); err != nil {
		t.Fatal(err)
	}
	shows := map[string]bool{
		"Routers up": true, "Versions": true, "Models serving": true,
		"Requests by status": true, "5xx share by model": true, "Request duration": true,
		"Requests by model": true, "Calls in progress by model": true, "Tokens by model": true,
		"Time to first token, p95": true, "Model call duration, p95": true,
		"Failed requests by model and reason": true, "Fallbacks": true, "Decisions": true, "Routing time": true,
		"CPU": true, "Memory": true, "Goroutines": true, "Configuration reloads": true, "Open connections": true,
	}
	fill := strings.NewReplacer("$job", "router", "$instance", ".+", "$__rate_interval", "1m")
	for _, panel := range dash.Panels {
		var queries []string
		for _, target := range panel.Targets {
			q := fill.Replace(target.Expr)
			if _, err := prom.query(q); err != nil {
				t.Errorf("panel %s: %s: %v", panel.Title, q, err)
			}
			queries = append(queries, q)
		}
		if shows[panel.Title] {
			prom.waitFor("panel "+panel.Title+" to show data", func() bool {
				for _, q := range queries {
					if series, err := prom.query(q); err == nil && len(series) > 0 {
						return true
					}
				}
				return false
			})
		}
		delete(shows, panel.Title)
	}
	for title := range shows {
		t.Errorf("the dashboard has no panel %q", title)
	}
	for name, q := range alerts {
		if _, err := prom.query(q); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}

	stopTraffic()
	r.Stop()
	prom.yields("SemanticRouterDown", alerts["SemanticRouterDown"], with("pod", "router-0", "container", "semantic-router"))
}
