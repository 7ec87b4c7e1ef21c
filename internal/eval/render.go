package eval

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
)

// WriteJSON writes the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// frac formats a ratio to three decimals, or "n/a" when its denominator is zero: no row
// could confirm or refute it.
func frac(v float64, den int) string {
	if den == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.3f", v)
}

// WriteText writes the report for people: headline numbers, PII by type,
// and the domain confusion matrix (true label per row, predictions per
// column, only labels that occur).
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "rows: %d\n\n", r.Rows)
	var piiTP, piiFP, piiFN int
	for _, c := range r.PIIByType {
		piiTP, piiFP, piiFN = piiTP+c.TP, piiFP+c.FP, piiFN+c.FN
	}
	fmt.Fprintf(&b, "domain accuracy:     %s  (%d labelled rows)\n", frac(r.DomainAccuracy, r.DomainRows), r.DomainRows)
	fmt.Fprintf(&b, "pii precision:       %s\n", frac(r.PIIPrecision, piiTP+piiFP))
	fmt.Fprintf(&b, "pii recall:          %s\n", frac(r.PIIRecall, piiTP+piiFN))
	fmt.Fprintf(&b, "jailbreak precision: %s\n", frac(r.JailbreakPrecision, r.JailbreakTP+r.JailbreakFP))
	fmt.Fprintf(&b, "jailbreak recall:    %s\n", frac(r.JailbreakRecall, r.JailbreakTP+r.JailbreakFN))
	fmt.Fprintf(&b, "jailbreak fpr:       %s  (tp %d, fp %d, fn %d, tn %d)\n", frac(r.JailbreakFPR, r.JailbreakFP+r.JailbreakTN),
		r.JailbreakTP, r.JailbreakFP, r.JailbreakFN, r.JailbreakTN)
	fmt.Fprintf(&b, "latency ms:          p50 %.3f  p90 %.3f  p99 %.3f\n", r.LatencyP50, r.LatencyP90, r.LatencyP99)
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}

	if len(r.PIIByType) > 0 {
		fmt.Fprintln(w, "\npii by type:")
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  type\tprecision\trecall\ttp\tfp\tfn")
		for _, t := range sortedKeys(r.PIIByType) {
			c := r.PIIByType[t]
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%d\t%d\t%d\n", t, frac(c.Precision, c.TP+c.FP), frac(c.Recall, c.TP+c.FN), c.TP, c.FP, c.FN)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}

	if len(r.Confusion) > 0 {
		labels := map[string]bool{}
		for t, row := range r.Confusion {
			labels[t] = true
			for p := range row {
				labels[p] = true
			}
		}
		cols := sortedKeys(labels)
		fmt.Fprintln(w, "\ndomain confusion (rows: true, columns: predicted):")
		tw := tabwriter.NewWriter(w, 0, 0, 1, ' ', tabwriter.AlignRight)
		fmt.Fprint(tw, "\t")
		for i := range cols {
			fmt.Fprintf(tw, "%d\t", i+1)
		}
		fmt.Fprintln(tw)
		for i, t := range cols {
			fmt.Fprintf(tw, "%d %s\t", i+1, display(t))
			for _, p := range cols {
				if n := r.Confusion[t][p]; n > 0 {
					fmt.Fprintf(tw, "%d\t", n)
				} else {
					fmt.Fprint(tw, ".\t")
				}
			}
			fmt.Fprintln(tw)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	return nil
}

func display(label string) string {
	if label == "" {
		return "(none)"
	}
	return label
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
