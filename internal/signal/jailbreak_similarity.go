package signal

import "math"

// maxDot is the largest inner product of q with a row of set, or -1.
func maxDot(q []float32, set [][]float32) float64 {
	best := -1.0
	i := 0
	for ; i+2 <= len(set); i += 2 {
		a, b := dot2(q, set[i], set[i+1])
		best = math.Max(best, float64(a))
		best = math.Max(best, float64(b))
	}
	for ; i < len(set); i++ {
		best = math.Max(best, float64(dot(q, set[i])))
	}
	return best
}

// gapOver returns attack - maxDot(q, benign) and whether it exceeds
// margin. It stops as soon as a benign row rules that out: the running
// maximum only grows, and floating-point subtraction is monotonic, so the
// decision is the one the full maximum would give.
func gapOver(attack float64, q []float32, benign [][]float32, margin float64) (float64, bool) {
	gap := attack - closestUntil(-1, attack, q, benign, margin)
	return gap, gap > margin
}

// closestUntil is the largest of best and q's products with rows, read in
// order until attack minus it is at most margin.
func closestUntil(best, attack float64, q []float32, rows [][]float32, margin float64) float64 {
	i := 0
	for ; i+2 <= len(rows); i += 2 {
		a, b := dot2(q, rows[i], rows[i+1])
		best = math.Max(best, float64(a))
		best = math.Max(best, float64(b))
		if attack-best <= margin {
			return best
		}
	}
	for ; i < len(rows); i++ {
		best = math.Max(best, float64(dot(q, rows[i])))
	}
	return best
}

// dot2 is dot(q, a), dot(q, b) in one pass over q, each summed exactly
// as dot sums it.
func dot2(q, a, b []float32) (float32, float32) {
	if len(a) != len(b) {
		return dot(q, a), dot(q, b)
	}
	n := min(len(q), len(a))
	q, a, b = q[:n], a[:n], b[:n]
	var a0, a1, a2, a3, b0, b1, b2, b3 float32
	i := 0
	for ; i+4 <= n; i += 4 {
		q0, q1, q2, q3 := q[i], q[i+1], q[i+2], q[i+3]
		a0 += q0 * a[i]
		a1 += q1 * a[i+1]
		a2 += q2 * a[i+2]
		a3 += q3 * a[i+3]
		b0 += q0 * b[i]
		b1 += q1 * b[i+1]
		b2 += q2 * b[i+2]
		b3 += q3 * b[i+3]
	}
	for ; i < n; i++ {
		a0 += q[i] * a[i]
		b0 += q[i] * b[i]
	}
	return a0 + a1 + a2 + a3, b0 + b1 + b2 + b3
}

// packRows copies rows into one contiguous block, so that scanning them
// reads memory in order.
func packRows(rows [][]float32) [][]float32 {
	n := 0
	for _, r := range rows {
		n += len(r)
	}
	block := make([]float32, 0, n)
	out := make([][]float32, len(rows))
	for i, r := range rows {
		start := len(block)
		block = append(block, r...)
		out[i] = block[start:len(block):len(block)]
	}
	return out
}
