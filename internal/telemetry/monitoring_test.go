package telemetry

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"text/template"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/promql/parser"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/semantic-router/semantic-router/internal/testtool"
)

// The files of deploy/monitoring name metrics and labels by hand. The tests below read each
// expression with Prometheus's own PromQL parser and follow the labels through it, so that a
// renamed metric, a label a sum dropped or a misspelled field fails here and not on a
// dashboard that stays empty or an alert that never fires.

const monitoringDir = "../../deploy/monitoring/"

// targetLabels are the labels Prometheus adds to every series it scrapes from a router:
// job and instance everywhere, the rest from a ServiceMonitor on Kubernetes.
var targetLabels = []string{"job", "instance", "namespace", "service", "pod", "container", "endpoint"}

// labelSet is the set of label names a series, or an expression's result, carries. nil
// stands for the labels of a series the checker could not find: it has every label, so that
// one unknown name is one problem, not one for each label read after it.
type labelSet map[string]bool

func newLabelSet(names ...[]string) labelSet {
	s := labelSet{}
	for _, n := range names {
		for _, l := range n {
			s[l] = true
		}
	}
	return s
}

func (s labelSet) has(name string) bool { return s == nil || s[name] }

func (s labelSet) with(names ...string) labelSet {
	if s == nil {
		return nil
	}
	out := maps.Clone(s)
	for _, n := range names {
		out[n] = true
	}
	return out
}

func (s labelSet) without(names ...string) labelSet {
	out := maps.Clone(s)
	for _, n := range names {
		delete(out, n)
	}
	return out
}

// servedSeries maps each series name a router's metrics port serves to its labels, target
// labels included. A histogram serves its _bucket (with le), _sum and _count series; up is
// Prometheus's own.
func servedSeries(t *testing.T) map[string]labelSet {
	t.Helper()
	served := map[string]labelSet{"up": newLabelSet(targetLabels)}
	for _, f := range gatherAll(t, NewRuntimeCollectors()...) {
		ls := newLabelSet(f.labels, targetLabels)
		switch f.typ {
		case "histogram":
			served[f.name+"_bucket"] = ls.with("le")
			served[f.name+"_sum"], served[f.name+"_count"] = ls, ls
		case "summary":
			served[f.name] = ls.with("quantile")
			served[f.name+"_sum"], served[f.name+"_count"] = ls, ls
		default:
			served[f.name] = ls
		}
	}
	return served
}

// exprChecker follows the labels through PromQL expressions and records every name one
// reads that the router does not serve.
type exprChecker struct {
	served   map[string]labelSet
	where    string // the rule or panel being read, for the problems' text
	problems []string
}

func (c *exprChecker) problem(format string, args ...any) {
	c.problems = append(c.problems, c.where+": "+fmt.Sprintf(format, args...))
}

// check parses expr and returns the labels of its result.
func (c *exprChecker) check(where, expr string) labelSet {
	c.where = where
	e, err := parser.NewParser(parser.Options{}).ParseExpr(expr)
	if err != nil {
		c.problem("%v", err)
		return labelSet{}
	}
	return c.labels(e)
}

// labels returns the labels of the series e yields (none for a scalar).
func (c *exprChecker) labels(e parser.Expr) labelSet {
	switch e := e.(type) {
	case *parser.VectorSelector:
		ls, ok := c.served[e.Name]
		if !ok {
			c.problem("%q is not a series the router serves", e.Name)
			return nil
		}
		for _, m := range e.LabelMatchers {
			if m.Name != model.MetricNameLabel && !ls[m.Name] {
				c.problem("%s has no label %s", e.Name, m.Name)
			}
		}
		return ls
	case *parser.MatrixSelector:
		return c.labels(e.VectorSelector)
	case *parser.SubqueryExpr:
		return c.labels(e.Expr)
	case *parser.ParenExpr:
		return c.labels(e.Expr)
	case *parser.UnaryExpr:
		return c.labels(e.Expr)
	case *parser.NumberLiteral, *parser.StringLiteral:
		return labelSet{}
	case *parser.AggregateExpr:
		in := c.labels(e.Expr)
		if e.Param != nil {
			c.labels(e.Param)
		}
		if e.Without {
			return in.without(e.Grouping...)
		}
		for _, l := range e.Grouping {
			if !in.has(l) {
				c.problem("%s by %s: the series it aggregates have no label %s", e.Op, l, l)
			}
		}
		return newLabelSet(e.Grouping)
	case *parser.Call:
		args := make([]labelSet, len(e.Args))
		for i, a := range e.Args {
			args[i] = c.labels(a)
		}
		switch e.Func.Name {
		case "histogram_quantile":
			if !args[1].has("le") {
				c.problem("histogram_quantile of series without le")
			}
			return args[1].without("le")
		case "label_replace":
			if src := e.Args[3].(*parser.StringLiteral).Val; !args[0].has(src) {
				c.problem("label_replace reads %s, which its series do not have", src)
			}
			return args[0].with(e.Args[1].(*parser.StringLiteral).Val)
		}
		// Every other function keeps the labels of its series argument.
		for i, a := range e.Args {
			if t := a.Type(); t == parser.ValueTypeVector || t == parser.ValueTypeMatrix {
				return args[i]
			}
		}
		return labelSet{}
	case *parser.BinaryExpr:
		l, r := c.labels(e.LHS), c.labels(e.RHS)
		switch {
		case e.LHS.Type() == parser.ValueTypeScalar:
			return r
		case e.RHS.Type() == parser.ValueTypeScalar:
			return l
		}
		if vm := e.VectorMatching; vm != nil && vm.On {
			for _, name := range vm.MatchingLabels {
				if !l.has(name) || !r.has(name) {
					c.problem("%s on (%s): both sides need the label %s", e.Op, name, name)
				}
			}
		}
		if e.Op == parser.LOR {
			if l == nil || r == nil {
				return nil
			}
			return newLabelSet(slices.Collect(maps.Keys(l)), slices.Collect(maps.Keys(r)))
		}
		if vm := e.VectorMatching; vm != nil && vm.Card == parser.CardOneToMany {
			return r.with(vm.Include...)
		}
		if vm := e.VectorMatching; vm != nil && vm.Card == parser.CardManyToOne {
			return l.with(vm.Include...)
		}
		return l
	}
	c.problem("%T: an expression this test does not follow", e)
	return labelSet{}
}

// alertTemplate renders an alert's annotation as Prometheus does, with only the labels its
// expression yields, so that a template reading any other label fails.
func alertTemplate(text string, labels labelSet) error {
	str := func(v any) string { return fmt.Sprint(v) }
	funcs := template.FuncMap{"humanize": str, "humanizePercentage": str, "humanizeDuration": str, "humanize1024": str}
	tmpl, err := template.New("").Option("missingkey=error").Funcs(funcs).
		Parse("{{$labels := .Labels}}{{$value := .Value}}" + text)
	if err != nil {
		return err
	}
	data := struct {
		Labels map[string]string
		Value  float64
	}{Labels: map[string]string{}, Value: 0.5}
	for l := range labels {
		data.Labels[l] = l
	}
	return tmpl.Execute(&strings.Builder{}, data)
}

// readObject decodes a file of deploy/monitoring strictly into obj, a Prometheus Operator
// object of the kind given, so that a field the operator does not know fails.
func readObject(t *testing.T, file string, obj any, typ *metav1.TypeMeta, kind string) {
	t.Helper()
	data, err := os.ReadFile(monitoringDir + file)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.UnmarshalStrict(data, obj); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if typ.APIVersion != "monitoring.coreos.com/v1" || typ.Kind != kind {
		t.Errorf("%s: apiVersion, kind = %s, %s; want monitoring.coreos.com/v1, %s", file, typ.APIVersion, typ.Kind, kind)
	}
}

// TestAlertRules: prometheusrule.yaml is a PrometheusRule the Prometheus Operator accepts
// (decoded strictly into its Go type), each expression reads only series and labels the
// router serves, each annotation renders with the labels its expression yields, and
// README.md says what to do about each alert.
func TestAlertRules(t *testing.T) {
	t.Parallel()
	var rule monitoringv1.PrometheusRule
	readObject(t, "prometheusrule.yaml", &rule, &rule.TypeMeta, "PrometheusRule")
	readme, err := os.ReadFile(monitoringDir + "README.md")
	if err != nil {
		t.Fatal(err)
	}
	c := &exprChecker{served: servedSeries(t)}
	seen := map[string]bool{}
	alerts := 0
	for _, g := range rule.Spec.Groups {
		if seen[g.Name] {
			t.Errorf("group %s appears twice", g.Name)
		}
		seen[g.Name] = true
		for _, r := range g.Rules {
			if r.Alert == "" {
				t.Errorf("group %s: a rule without an alert name", g.Name)
				continue
			}
			alerts++
			if seen[r.Alert] {
				t.Errorf("alert %s appears twice", r.Alert)
			}
			seen[r.Alert] = true
			out := c.check(r.Alert, r.Expr.String())
			if r.For != nil {
				if _, err := model.ParseDuration(string(*r.For)); err != nil {
					t.Errorf("%s: for: %v", r.Alert, err)
				}
			}
			if s := r.Labels["severity"]; s != "critical" && s != "warning" && s != "info" {
				t.Errorf("%s: severity %q, want critical, warning or info", r.Alert, s)
			}
			for _, a := range []string{"summary", "description"} {
				text := r.Annotations[a]
				if text == "" {
					t.Errorf("%s: no %s", r.Alert, a)
				}
				if out == nil {
					continue // the expression's problem is reported below
				}
				if err := alertTemplate(text, out); err != nil {
					t.Errorf("%s: %s: %v", r.Alert, a, err)
				}
			}
			if !strings.Contains(string(readme), "\n### "+r.Alert+"\n") {
				t.Errorf("README.md has no section ### %s", r.Alert)
			}
		}
	}
	for _, p := range c.problems {
		t.Error(p)
	}
	if alerts < 10 {
		t.Errorf("%d alerts read; want the file's dozen or so", alerts)
	}
}

// TestServiceMonitor: servicemonitor.yaml is a ServiceMonitor the Prometheus Operator
// accepts, scraping the router's metrics path on the port the operator names "metrics"
// (internal/operator checks that its Service matches the selector).
func TestServiceMonitor(t *testing.T) {
	t.Parallel()
	var sm monitoringv1.ServiceMonitor
	readObject(t, "servicemonitor.yaml", &sm, &sm.TypeMeta, "ServiceMonitor")
	if len(sm.Spec.Endpoints) != 1 {
		t.Fatalf("%d endpoints, want 1", len(sm.Spec.Endpoints))
	}
	e := sm.Spec.Endpoints[0]
	if e.Port != "metrics" || e.Path != "/metrics" {
		t.Errorf("endpoint port %q path %q, want metrics and /metrics", e.Port, e.Path)
	}
	if got := sm.Spec.Selector.MatchLabels["app.kubernetes.io/name"]; got != "semantic-router" {
		t.Errorf("selects app.kubernetes.io/name=%q", got)
	}
}

// grafanaDashboard holds the parts of a Grafana dashboard's JSON model the test reads.
type grafanaDashboard struct {
	UID           string `json:"uid"`
	Title         string `json:"title"`
	SchemaVersion int    `json:"schemaVersion"`
	Templating    struct {
		List []struct {
			Name       string `json:"name"`
			Type       string `json:"type"`
			Definition string `json:"definition"`
		} `json:"list"`
	} `json:"templating"`
	Panels []struct {
		ID          int    `json:"id"`
		Type        string `json:"type"`
		Title       string `json:"title"`
		Description string `json:"description"`
		GridPos     struct {
			H, W, X, Y int
		} `json:"gridPos"`
		Datasource *struct {
			Type string `json:"type"`
			UID  string `json:"uid"`
		} `json:"datasource"`
		Targets []struct {
			RefID        string `json:"refId"`
			Expr         string `json:"expr"`
			LegendFormat string `json:"legendFormat"`
		} `json:"targets"`
	} `json:"panels"`
}

var (
	dashboardVariable = regexp.MustCompile(`\$\{?(\w+)\}?`)
	legendLabel       = regexp.MustCompile(`\{\{\s*(\w+)\s*\}\}`)
	labelValuesQuery  = regexp.MustCompile(`^label_values\((.+), (\w+)\)$`)
)

// TestDashboard: dashboard.json's panels tile the grid without overlapping, each query reads
// only series and labels the router serves, each legend only labels its query yields, and
// each variable a query uses is one the dashboard declares.
func TestDashboard(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(monitoringDir + "dashboard.json")
	if err != nil {
		t.Fatal(err)
	}
	var d grafanaDashboard
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatal(err)
	}
	if d.UID == "" || d.Title == "" || d.SchemaVersion == 0 {
		t.Errorf("uid %q, title %q, schemaVersion %d: all three must be set", d.UID, d.Title, d.SchemaVersion)
	}
	c := &exprChecker{served: servedSeries(t)}
	declared := map[string]bool{"__rate_interval": true, "__interval": true}
	// substitute stands a value in for each variable, so that the query parses as it will
	// once Grafana has filled it in.
	substitute := func(where, q string) string {
		return dashboardVariable.ReplaceAllStringFunc(q, func(v string) string {
			name := dashboardVariable.FindStringSubmatch(v)[1]
			switch {
			case !declared[name]:
				c.where = where
				c.problem("reads $%s, which the dashboard does not declare", name)
			case strings.HasPrefix(name, "__"):
				return "5m"
			}
			return ".+"
		})
	}
	for _, v := range d.Templating.List {
		if v.Type == "query" {
			m := labelValuesQuery.FindStringSubmatch(v.Definition)
			if m == nil {
				t.Errorf("variable %s: %q is not label_values(selector, label)", v.Name, v.Definition)
			} else if out := c.check("variable "+v.Name, substitute(v.Name, m[1])); !out.has(m[2]) {
				t.Errorf("variable %s: %s has no label %s", v.Name, m[1], m[2])
			}
		}
		declared[v.Name] = true
	}
	if !declared["datasource"] {
		t.Error("no datasource variable: the dashboard would be bound to one Prometheus")
	}
	ids := map[int]bool{}
	var cells [][24]bool // cells[y][x] is taken by a panel
	for _, p := range d.Panels {
		where := fmt.Sprintf("panel %d %q", p.ID, p.Title)
		if ids[p.ID] {
			t.Errorf("%s: id used twice", where)
		}
		ids[p.ID] = true
		g := p.GridPos
		if g.W <= 0 || g.H <= 0 || g.X < 0 || g.Y < 0 || g.X+g.W > 24 {
			t.Errorf("%s: gridPos %+v is off the 24-column grid", where, g)
			continue
		}
		for y := g.Y; y < g.Y+g.H; y++ {
			for len(cells) <= y {
				cells = append(cells, [24]bool{})
			}
			for x := g.X; x < g.X+g.W; x++ {
				if cells[y][x] {
					t.Errorf("%s: overlaps another panel at (%d, %d)", where, x, y)
				}
				cells[y][x] = true
			}
		}
		if p.Type == "row" {
			continue
		}
		if p.Datasource == nil || p.Datasource.UID != "${datasource}" {
			t.Errorf("%s: its datasource is not the dashboard's ${datasource}", where)
		}
		if p.Description == "" || len(p.Targets) == 0 {
			t.Errorf("%s: %d queries, description %q; want both", where, len(p.Targets), p.Description)
		}
		for _, q := range p.Targets {
			where := where + " query " + q.RefID
			out := c.check(where, substitute(where, q.Expr))
			for _, m := range legendLabel.FindAllStringSubmatch(q.LegendFormat, -1) {
				if !out.has(m[1]) {
					c.problem("legend reads %s, which the query does not yield", m[1])
				}
			}
		}
	}
	for _, p := range c.problems {
		t.Error(p)
	}
	if len(ids) < 20 {
		t.Errorf("%d panels read; want the file's thirty or so", len(ids))
	}
}

// TestExprChecker: the checker finds what it is there to find.
func TestExprChecker(t *testing.T) {
	t.Parallel()
	served := map[string]labelSet{
		"req_total":       newLabelSet([]string{"model", "code", "job"}),
		"dur_bucket":      newLabelSet([]string{"model", "le", "job"}),
		"build_info":      newLabelSet([]string{"version", "job", "instance"}),
		"go_goroutines":   newLabelSet([]string{"job", "instance"}),
		"fallbacks_total": newLabelSet([]string{"from", "to", "job"}),
	}
	tests := []struct {
		expr     string
		want     []string // labels of the result
		problems []string
	}{
		{`sum by (model) (rate(req_total{code=~"5.."}[5m])) / sum by (model) (rate(req_total[5m])) > 0.05`, []string{"model"}, nil},
		{`histogram_quantile(0.9, sum by (model, le) (rate(dur_bucket[5m])))`, []string{"model"}, nil},
		{`go_goroutines and on (job, instance) build_info`, []string{"job", "instance"}, nil},
		{`sum by (from) (rate(fallbacks_total[5m])) / on (from) label_replace(sum by (model) (rate(req_total[5m])), "from", "$1", "model", "(.*)")`,
			[]string{"from"}, nil},
		{`rate(reqs_total[5m])`, nil, []string{`x: "reqs_total" is not a series the router serves`}},
		{`sum by (model, anything) (rate(reqs_total[5m]))`, []string{"model", "anything"}, []string{`x: "reqs_total" is not a series the router serves`}},
		{`req_total{reason="x"}`, []string{"model", "code", "job"}, []string{"x: req_total has no label reason"}},
		{`sum by (reason) (req_total)`, []string{"reason"}, []string{"x: sum by reason: the series it aggregates have no label reason"}},
		{`histogram_quantile(0.9, sum by (model) (rate(dur_bucket[5m])))`, []string{"model"}, []string{"x: histogram_quantile of series without le"}},
		{`go_goroutines and on (instance) req_total`, []string{"job", "instance"}, []string{"x: and on (instance): both sides need the label instance"}},
		{`sum(`, nil, []string{"x: 1:5: parse error: unclosed left parenthesis"}},
	}
	for _, tt := range tests {
		c := &exprChecker{served: served}
		got := slices.Sorted(maps.Keys(c.check("x", tt.expr)))
		want := slices.Sorted(slices.Values(tt.want))
		if !slices.Equal(got, want) {
			t.Errorf("%s: labels %v, want %v", tt.expr, got, want)
		}
		if !slices.Equal(c.problems, tt.problems) {
			t.Errorf("%s: problems %q, want %q", tt.expr, c.problems, tt.problems)
		}
	}
	if err := alertTemplate("{{ $labels.model }} at {{ $value | humanizePercentage }}", newLabelSet([]string{"model"})); err != nil {
		t.Errorf("a template reading a label the expression yields: %v", err)
	}
	err := alertTemplate("{{ $labels.pod }}", newLabelSet([]string{"model"}))
	if err == nil || !strings.Contains(err.Error(), `map has no entry for key "pod"`) {
		t.Errorf("a template reading a label the expression drops: %v", err)
	}
}

// TestAlertRulesFire runs prometheusrule.tests.yaml with Prometheus's promtool: each alert
// fires on the series a failing router serves, with the labels and the rendered annotations
// the file expects, and none fires on a healthy one. promtool reads Prometheus rule files, so
// the test writes the PrometheusRule's groups to one, as the Prometheus Operator does. Without
// promtool on PATH the test is skipped, except under CI=true, where it fails: CI installs it.
func TestAlertRulesFire(t *testing.T) {
	t.Parallel()
	promtool := testtool.Path(t, "promtool", "apt-get install -y prometheus")
	var rule monitoringv1.PrometheusRule
	readObject(t, "prometheusrule.yaml", &rule, &rule.TypeMeta, "PrometheusRule")
	rules, err := yaml.Marshal(struct {
		Groups []monitoringv1.RuleGroup `json:"groups"`
	}{rule.Spec.Groups})
	if err != nil {
		t.Fatal(err)
	}
	tests, err := os.ReadFile(monitoringDir + "prometheusrule.tests.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, data := range map[string][]byte{"rules.yaml": rules, "tests.yaml": tests} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"check", "rules", "rules.yaml"}, {"test", "rules", "tests.yaml"}} {
		cmd := exec.Command(promtool, args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("promtool %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}
