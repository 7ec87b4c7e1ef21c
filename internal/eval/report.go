package eval

import (
	"context"
	"fmt"
	"math"
	"sort"
	"time"
)

// Prediction is what a classifier says about one prompt.
type Prediction struct {
	Domain    string
	PII       []string
	Jailbreak bool
	// Latency is the classifier's own time; if zero, Run measures the call.
	Latency time.Duration
}

// Classifier classifies one row: its prompt, or its messages.
type Classifier func(ctx context.Context, row Row) (Prediction, error)

// PRF holds precision and recall, with the counts they came from.
type PRF struct {
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	TP        int     `json:"tp"`
	FP        int     `json:"fp"`
	FN        int     `json:"fn"`
}

// Report is the evaluation result. The JSON keys are a stable contract
// for scripts and CI.
type Report struct {
	Rows int `json:"rows"`

	DomainRows     int                       `json:"domain_rows"`
	DomainAccuracy float64                   `json:"domain_accuracy"`
	Confusion      map[string]map[string]int `json:"domain_confusion"` // true label -> predicted -> count

	PIIPrecision float64        `json:"pii_precision"`
	PIIRecall    float64        `json:"pii_recall"`
	PIIByType    map[string]PRF `json:"pii_by_type"`

	JailbreakPrecision float64 `json:"jailbreak_precision"`
	JailbreakRecall    float64 `json:"jailbreak_recall"`
	JailbreakFPR       float64 `json:"jailbreak_fpr"`
	JailbreakTP        int     `json:"jailbreak_tp"`
	JailbreakFP        int     `json:"jailbreak_fp"`
	JailbreakFN        int     `json:"jailbreak_fn"`
	JailbreakTN        int     `json:"jailbreak_tn"`

	LatencyP50 float64 `json:"latency_p50_ms"`
	LatencyP90 float64 `json:"latency_p90_ms"`
	LatencyP99 float64 `json:"latency_p99_ms"`
}

// Run classifies every row and scores the predictions. It stops at the
// first classifier error, naming the row. Ratios with an empty
// denominator are reported as 1 for precision (nothing claimed, nothing
// wrong) and recall (nothing to find), and 0 for the false-positive rate.
func Run(ctx context.Context, rows []Row, classify Classifier) (*Report, error) {
	preds := make([]Prediction, len(rows))
	for i, row := range rows {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("eval: %w", err)
		}
		start := time.Now()
		p, err := classify(ctx, row)
		if err != nil {
			name := row.ID
			if name == "" {
				name = fmt.Sprintf("#%d", i+1)
			}
			return nil, fmt.Errorf("eval: row %s: %w", name, err)
		}
		if p.Latency == 0 {
			p.Latency = time.Since(start)
		}
		preds[i] = p
	}
	return Score(rows, preds), nil
}

// Score compares predictions with rows (same order and length).
func Score(rows []Row, preds []Prediction) *Report {
	r := &Report{Rows: len(rows), Confusion: map[string]map[string]int{}, PIIByType: map[string]PRF{}}
	correct := 0
	var piiTP, piiFP, piiFN int
	byType := map[string]*PRF{}
	get := func(t string) *PRF {
		if byType[t] == nil {
			byType[t] = &PRF{}
		}
		return byType[t]
	}
	lat := make([]float64, 0, len(rows))
	for i, row := range rows {
		p := preds[i]
		lat = append(lat, float64(p.Latency)/float64(time.Millisecond))
		if row.Domain != nil {
			r.DomainRows++
			if r.Confusion[*row.Domain] == nil {
				r.Confusion[*row.Domain] = map[string]int{}
			}
			r.Confusion[*row.Domain][p.Domain]++
			if p.Domain == *row.Domain {
				correct++
			}
		}
		// PII is scored per (row, type): a type counts once per row
		// however many spans of it there are.
		want, got := set(row.PII), set(p.PII)
		for t := range got {
			if want[t] {
				piiTP++
				get(t).TP++
			} else {
				piiFP++
				get(t).FP++
			}
		}
		for t := range want {
			if !got[t] {
				piiFN++
				get(t).FN++
			}
		}
		switch {
		case row.Jailbreak && p.Jailbreak:
			r.JailbreakTP++
		case p.Jailbreak:
			r.JailbreakFP++
		case row.Jailbreak:
			r.JailbreakFN++
		default:
			r.JailbreakTN++
		}
	}
	r.DomainAccuracy = ratio(correct, r.DomainRows, 1)
	r.PIIPrecision = ratio(piiTP, piiTP+piiFP, 1)
	r.PIIRecall = ratio(piiTP, piiTP+piiFN, 1)
	for t, c := range byType {
		c.Precision = ratio(c.TP, c.TP+c.FP, 1)
		c.Recall = ratio(c.TP, c.TP+c.FN, 1)
		r.PIIByType[t] = *c
	}
	r.JailbreakPrecision = ratio(r.JailbreakTP, r.JailbreakTP+r.JailbreakFP, 1)
	r.JailbreakRecall = ratio(r.JailbreakTP, r.JailbreakTP+r.JailbreakFN, 1)
	r.JailbreakFPR = ratio(r.JailbreakFP, r.JailbreakFP+r.JailbreakTN, 0)
	sort.Float64s(lat)
	r.LatencyP50 = percentile(lat, 50)
	r.LatencyP90 = percentile(lat, 90)
	r.LatencyP99 = percentile(lat, 99)
	return r
}

func set(xs []string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}

func ratio(num, den int, empty float64) float64 {
	if den == 0 {
		return empty
	}
	return float64(num) / float64(den)
}

// percentile uses the nearest-rank method on sorted values.
func percentile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(math.Ceil(p / 100 * float64(len(sorted))))
	return sorted[min(max(rank, 1), len(sorted))-1]
}
