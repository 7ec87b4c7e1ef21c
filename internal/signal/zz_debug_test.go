package signal

import "testing"

func TestZZMinConf(t *testing.T) {
	folds := buildDomainCVFolds(t)
	for _, mc := range []float64{-1, 0.1, 0.15, 0.2, 0.25, 0.3} {
		acc, conf, _ := domainCVAccuracy(folds, defaultDomainTuning, mc)
		n := 0
		for l, m := range conf {
			if l != "other" {
				n += m["other"]
			}
		}
		t.Logf("minConf %.2f acc %.3f into-other %d", mc, acc, n)
	}
}
