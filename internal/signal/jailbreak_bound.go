package signal

import "math"

// boundedRows are the benign background rows with, for each, its
// coordinates in a few principal directions of all of them and the norm of
// the rest. Those give an upper bound on a row's product with a query that
// costs a third of the product itself, so that a prompt whose outcome no
// background row can change reads only the few rows that might.
//
// A prompt in English usually meets a benign row as close as the nearest
// attack early and stops there; a prompt in a language the background does
// not cover usually meets none, and without the bounds it reads every row:
// about a megabyte, from memory, on each such request.
type boundedRows struct {
	rows   [][]float32 // the rows, as gapOver reads them
	basis  [][]float64 // orthonormal directions
	coords [][]float32 // each row's coordinates in basis
	rest   []float32   // each row's norm outside basis, rounded up
}

const (
	// boundDirections is how many principal directions the bound uses. On the
	// builtin 100-dimensional vectors, 32 leave about one row in seven to read
	// for a prompt in a language the background does not cover.
	boundDirections = 32
	// boundPlainRows are read before the bounds are computed: a prompt that
	// meets a close benign row early never pays for projecting itself.
	boundPlainRows = 64
	// boundSlack covers the rounding of the bound and of the products
	// themselves (below 1e-5 for unit vectors of a few hundred dimensions).
	boundSlack = 1e-4
	// boundMaxDims keeps the one-off principal-direction computation small;
	// longer vectors (a remote embedding model's) are read in full.
	boundMaxDims = 256
)

// newBoundedRows indexes rows, which must be packed and of equal length.
func newBoundedRows(rows [][]float32) *boundedRows {
	b := &boundedRows{rows: rows}
	if len(rows) <= boundPlainRows {
		return b
	}
	dims := len(rows[0])
	if dims < 2*boundDirections || dims > boundMaxDims {
		return b
	}
	b.basis = principalDirections(rows, boundDirections)
	coords := make([][]float32, len(rows))
	b.rest = make([]float32, len(rows))
	c := make([]float64, len(b.basis))
	for i, r := range rows {
		c = project(c, r, b.basis)
		coords[i] = make([]float32, len(c))
		for j, x := range c {
			coords[i][j] = float32(x)
		}
		b.rest[i] = math.Nextafter32(float32(restNorm(r, c)), float32(math.Inf(1)))
	}
	b.coords = packRows(coords)
	return b
}

// gapOver is gapOver(attack, q, b.rows, margin) with the bounds: the same
// decision, and the same gap wherever the score uses it. When no row of the
// first ones comes within attack-margin-width, below which the gap gives the
// similarity its full weight whatever the exact maximum, a row past them is
// read only when its bound exceeds both that and the closest row read so
// far.
func (b *boundedRows) gapOver(attack float64, q []float32, margin, width float64) (float64, bool) {
	if b.basis == nil || len(q) != len(b.rows[0]) {
		return gapOver(attack, q, b.rows, margin)
	}
	best := closestUntil(-1, attack, q, b.rows[:boundPlainRows], margin)
	if attack-best <= margin {
		return attack - best, false
	}
	floor := attack - margin - width - 1e-9
	if best > floor {
		// The prompt has come near the background already (an English one,
		// usually): the bounds would rule out few rows, and projecting the
		// prompt would cost more than it saves.
		gap := attack - closestUntil(best, attack, q, b.rows[boundPlainRows:], margin)
		return gap, gap > margin
	}
	qc, qr := b.query(q)
	limit := math.Max(best, floor) - boundSlack
	for i := boundPlainRows; i < len(b.rows); i++ {
		if float64(b.bound(qc[:], qr, i)) <= limit {
			continue
		}
		best = math.Max(best, float64(dot(q, b.rows[i])))
		if attack-best <= margin {
			return attack - best, false
		}
		limit = math.Max(best, floor) - boundSlack
	}
	gap := attack - best
	return gap, gap > margin
}

// query returns q's coordinates in b.basis and the norm of the rest of q,
// in float32: the bound is computed in float32, and the slack covers its
// rounding too.
func (b *boundedRows) query(q []float32) ([boundDirections]float32, float32) {
	var cBuf [boundDirections]float64
	c := project(cBuf[:0], q, b.basis)
	var qc [boundDirections]float32
	for j, x := range c {
		qc[j] = float32(x)
	}
	return qc, float32(restNorm(q, c))
}

// bound is the bound on row i's product with a query of coordinates qc and
// rest norm qRest: the product of their coordinates plus the product of the
// norms of their rests.
func (b *boundedRows) bound(qc []float32, qRest float32, i int) float32 {
	return dot(qc, b.coords[i]) + qRest*b.rest[i]
}

// project returns v's coordinates in basis, in dst.
func project(dst []float64, v []float32, basis [][]float64) []float64 {
	dst = dst[:0]
	for _, e := range basis {
		var s float64
		for i, x := range v {
			s += float64(x) * e[i]
		}
		dst = append(dst, s)
	}
	return dst
}

// restNorm is the norm of v minus its part in basis, whose coordinates are
// c: the square root of what the coordinates leave of v's squared norm. In
// float64 the cancellation costs at most about 1e-8 of it.
func restNorm(v []float32, c []float64) float64 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	for _, x := range c {
		s -= x * x
	}
	return math.Sqrt(math.Max(0, s))
}

// principalDirections returns k orthonormal directions that hold most of
// rows' energy: the leading eigenvectors of their second-moment matrix, by
// subspace iteration from the first k rows. Any orthonormal directions make
// the bound hold; better ones only make it tighter.
func principalDirections(rows [][]float32, k int) [][]float64 {
	d := len(rows[0])
	m := make([]float64, d*d)
	for _, r := range rows {
		for i, x := range r {
			xi := float64(x)
			for j := i; j < d; j++ {
				m[i*d+j] += xi * float64(r[j])
			}
		}
	}
	for i := range d {
		for j := range i {
			m[i*d+j] = m[j*d+i]
		}
	}
	basis := make([][]float64, k)
	for i := range basis {
		basis[i] = make([]float64, d)
		for j, x := range rows[i] {
			basis[i][j] = float64(x)
		}
		// A unit step on the diagonal keeps the start independent even if
		// rows repeat.
		basis[i][i] += 1
	}
	orthonormalize(basis)
	next := make([][]float64, k)
	for i := range next {
		next[i] = make([]float64, d)
	}
	for range 30 {
		for n, e := range basis {
			for i := range d {
				var s float64
				for j, x := range e {
					s += m[i*d+j] * x
				}
				next[n][i] = s
			}
		}
		basis, next = next, basis
		orthonormalize(basis)
	}
	return basis
}

// orthonormalize applies modified Gram-Schmidt to vs in place, twice for
// accuracy; a vector that is (numerically) dependent on the ones before it
// becomes zero, which leaves the bound valid.
func orthonormalize(vs [][]float64) {
	for range 2 {
		for i, v := range vs {
			for _, u := range vs[:i] {
				var s float64
				for j := range v {
					s += v[j] * u[j]
				}
				for j := range v {
					v[j] -= s * u[j]
				}
			}
			var n float64
			for _, x := range v {
				n += x * x
			}
			n = math.Sqrt(n)
			for j := range v {
				if n > 1e-12 {
					v[j] /= n
				} else {
					v[j] = 0
				}
			}
		}
	}
}
