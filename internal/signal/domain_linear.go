package signal

import "math"

// linearModel is a multinomial logistic regression over centred sentence
// vectors, fitted at construction from the example prompts. Fitting is
// deterministic (full-batch gradient descent from zero weights), so the
// same examples always give the same classifier.
type linearModel struct {
	w    [][]float64 // [class][dims+1], last is the bias
	dims int
}

const (
	linearEpochs = 300
	linearRate   = 20
	linearL2     = 1e-3
)

func fitLinear(xs [][]float32, ys []int, classes int) *linearModel {
	dims := len(xs[0])
	m := &linearModel{w: make([][]float64, classes), dims: dims}
	for k := range m.w {
		m.w[k] = make([]float64, dims+1)
	}
	grad := make([][]float64, classes)
	for k := range grad {
		grad[k] = make([]float64, dims+1)
	}
	// Weight classes equally however many examples each has.
	counts := make([]float64, classes)
	for _, y := range ys {
		counts[y]++
	}
	p := make([]float64, classes)
	n := float64(len(xs))
	for range linearEpochs {
		for k := range grad {
			clear(grad[k])
		}
		for i, x := range xs {
			m.probs(x, p)
			cw := n / (float64(classes) * counts[ys[i]])
			for k := range p {
				g := p[k]
				if k == ys[i] {
					g--
				}
				g *= cw
				gk := grad[k]
				for j, v := range x {
					gk[j] += g * float64(v)
				}
				gk[dims] += g
			}
		}
		for k := range m.w {
			for j := range m.w[k] {
				reg := linearL2 * m.w[k][j]
				if j == dims {
					reg = 0
				}
				m.w[k][j] -= linearRate * (grad[k][j]/n + reg)
			}
		}
	}
	return m
}

// probs writes the class probabilities of x into p.
func (m *linearModel) probs(x []float32, p []float64) {
	mx := math.Inf(-1)
	for k, wk := range m.w {
		s := wk[m.dims]
		for j, v := range x[:m.dims] {
			s += wk[j] * float64(v)
		}
		p[k] = s
		mx = math.Max(mx, s)
	}
	var sum float64
	for k := range p {
		p[k] = math.Exp(p[k] - mx)
		sum += p[k]
	}
	for k := range p {
		p[k] /= sum
	}
}
