// Package hnsw is a hierarchical navigable small world graph (Malkov and
// Yashunin, 2016) for approximate nearest-neighbour search by cosine
// similarity over unit vectors. It supports insert, delete by tombstone and
// search with a tunable beam width (ef).
//
// An Index is not safe for concurrent use, not even for concurrent searches
// (a search reuses the index's visited set); the caller serialises access.
package hnsw

import (
	"math"
	"slices"
)

// Options tune an index. The zero value gives M 16, EfConstruction 100.
type Options struct {
	// M is the number of links a node keeps on the upper layers; layer 0 keeps 2*M.
	M int
	// EfConstruction is the beam width used while inserting.
	EfConstruction int
	// Seed makes the level assignment deterministic; 0 uses a fixed seed.
	Seed uint64
}

// Result is one search result.
type Result struct {
	ID         uint64
	Similarity float32
}

// Index is an HNSW graph over vectors of one dimension.
type Index struct {
	dim       int
	m, m0     int
	efC       int
	ml        float64
	rng       uint64
	nodes     []node
	vecs      []float32 // node n's vector is vecs[n*dim : (n+1)*dim], contiguous for locality
	ids       map[uint64]int32
	entry     int32 // -1 when empty
	maxLevel  int
	deleted   int
	visited   []uint32
	visitGen  uint32
	candScr   minHeap
	resultScr maxHeap
}

type node struct {
	id      uint64
	links   [][]int32 // links[l] are the node's neighbours on layer l
	deleted bool
}

// New returns an empty index for vectors of length dim.
func New(dim int, o Options) *Index {
	if o.M <= 0 {
		o.M = 16
	}
	if o.EfConstruction <= 0 {
		o.EfConstruction = 100
	}
	if o.Seed == 0 {
		o.Seed = 0x9e3779b97f4a7c15
	}
	return &Index{
		dim: dim, m: o.M, m0: 2 * o.M, efC: o.EfConstruction,
		ml: 1 / math.Log(float64(o.M)), rng: o.Seed,
		ids: map[uint64]int32{}, entry: -1,
	}
}

// Dim is the vector length the index accepts.
func (x *Index) Dim() int { return x.dim }

// Len is the number of live (not deleted) vectors.
func (x *Index) Len() int { return len(x.ids) }

// Has reports whether id is live in the index.
func (x *Index) Has(id uint64) bool { _, ok := x.ids[id]; return ok }

// Add inserts a copy of v under id, replacing a live vector with the same
// id. v must have length Dim and unit length.
func (x *Index) Add(id uint64, v []float32) {
	if len(v) != x.dim {
		panic("hnsw: vector length does not match the index")
	}
	x.Delete(id)
	if len(x.ids) == 0 && len(x.nodes) > 0 {
		x.reset()
	}
	x.insert(id, v)
}

// Delete removes id; it reports whether id was live. The node stays in the
// graph as a tombstone that searches pass through but never return; once
// tombstones outnumber live vectors the graph is rebuilt from the live ones.
func (x *Index) Delete(id uint64) bool {
	n, ok := x.ids[id]
	if !ok {
		return false
	}
	delete(x.ids, id)
	x.nodes[n].deleted = true
	x.deleted++
	if len(x.ids) == 0 {
		x.reset()
	} else if x.deleted > len(x.ids) && x.deleted >= 64 {
		x.rebuild()
	}
	return true
}

// Search returns up to k live vectors most similar to q, best first, looking
// at ef candidates on the bottom layer (ef below k is raised to k).
func (x *Index) Search(q []float32, k, ef int) []Result {
	if x.entry < 0 || k <= 0 || len(q) != x.dim {
		return nil
	}
	ef = max(ef, k)
	ep := cand{x.entry, x.dist(q, x.entry)}
	for l := x.maxLevel; l > 0; l-- {
		ep = x.greedy(q, ep, l)
	}
	res := x.searchLayer(q, []cand{ep}, ef, 0, true)
	if len(res) > k {
		res = res[:k]
	}
	out := make([]Result, len(res))
	for i, c := range res {
		out[i] = Result{ID: x.nodes[c.n].id, Similarity: 1 - c.d}
	}
	return out
}

func (x *Index) reset() {
	x.nodes, x.vecs, x.entry, x.maxLevel, x.deleted = nil, nil, -1, 0, 0
	x.visited = nil
}

// rebuild inserts the live vectors, in their original order, into a new graph.
func (x *Index) rebuild() {
	old, vecs := x.nodes, x.vecs
	x.reset()
	clear(x.ids)
	for i := range old {
		if !old[i].deleted {
			x.insert(old[i].id, vecs[i*x.dim:(i+1)*x.dim])
		}
	}
}

func (x *Index) randomLevel() int {
	// splitmix64
	x.rng += 0x9e3779b97f4a7c15
	z := x.rng
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	z ^= z >> 31
	u := (float64(z>>11) + 0.5) / (1 << 53)
	return int(-math.Log(u) * x.ml)
}

func (x *Index) insert(id uint64, v []float32) {
	level := x.randomLevel()
	n := int32(len(x.nodes)) //nolint:gosec // a graph of 2^31 nodes would need hundreds of GiB of vectors first
	x.nodes = append(x.nodes, node{id: id, links: make([][]int32, level+1)})
	x.vecs = append(x.vecs, v...)
	x.ids[id] = n
	if x.entry < 0 {
		x.entry, x.maxLevel = n, level
		return
	}
	ep := cand{x.entry, x.dist(v, x.entry)}
	for l := x.maxLevel; l > level; l-- {
		ep = x.greedy(v, ep, l)
	}
	eps := []cand{ep}
	for l := min(level, x.maxLevel); l >= 0; l-- {
		w := x.searchLayer(v, eps, x.efC, l, false)
		maxLinks := x.maxLinks(l)
		nb := x.selectNeighbors(w, x.m)
		links := make([]int32, len(nb), maxLinks+1)
		for i, c := range nb {
			links[i] = c.n
		}
		x.nodes[n].links[l] = links
		for _, c := range nb {
			x.link(c.n, n, l)
		}
		eps = w
	}
	if level > x.maxLevel {
		x.entry, x.maxLevel = n, level
	}
}

func (x *Index) maxLinks(l int) int {
	if l == 0 {
		return x.m0
	}
	return x.m
}

// link adds to's back link from node from on layer l, pruning from's links
// with the neighbour heuristic when they overflow.
func (x *Index) link(from, to int32, l int) {
	links := append(x.nodes[from].links[l], to)
	if len(links) <= x.maxLinks(l) {
		x.nodes[from].links[l] = links
		return
	}
	cs := make([]cand, len(links))
	for i, o := range links {
		cs[i] = cand{o, x.distNodes(from, o)}
	}
	slices.SortFunc(cs, cmpCand)
	kept := x.selectNeighbors(cs, x.maxLinks(l))
	links = links[:0]
	for _, c := range kept {
		links = append(links, c.n)
	}
	x.nodes[from].links[l] = links
}

// selectNeighbors is the paper's heuristic (algorithm 4) with pruned
// connections kept: a candidate closer to an already chosen neighbour than to
// the base is skipped first, so links spread in all directions, which keeps
// clustered data (prompts sharing words) navigable. cs is sorted by distance.
func (x *Index) selectNeighbors(cs []cand, m int) []cand {
	if len(cs) <= m {
		return cs
	}
	out := make([]cand, 0, m)
	var pruned []cand
	for _, c := range cs {
		if len(out) == m {
			break
		}
		good := true
		for _, r := range out {
			if x.distNodes(c.n, r.n) < c.d {
				good = false
				break
			}
		}
		if good {
			out = append(out, c)
		} else {
			pruned = append(pruned, c)
		}
	}
	for _, c := range pruned {
		if len(out) == m {
			break
		}
		out = append(out, c)
	}
	return out
}

// greedy walks layer l from ep to the node closest to q.
func (x *Index) greedy(q []float32, ep cand, l int) cand {
	for changed := true; changed; {
		changed = false
		for _, o := range x.nodes[ep.n].links[l] {
			if d := x.dist(q, o); d < ep.d {
				ep, changed = cand{o, d}, true
			}
		}
	}
	return ep
}

// searchLayer is the beam search of layer l from eps, returning up to ef
// nodes sorted by distance. With liveOnly, tombstones are walked through but
// not returned.
func (x *Index) searchLayer(q []float32, eps []cand, ef, l int, liveOnly bool) []cand {
	x.nextVisit()
	cands, res := x.candScr[:0], x.resultScr[:0]
	for _, e := range eps {
		x.visited[e.n] = x.visitGen
		cands.push(e)
		if !liveOnly || !x.nodes[e.n].deleted {
			res.push(e)
		}
	}
	for len(cands) > 0 {
		c := cands.pop()
		if len(res) >= ef && c.d > res[0].d {
			break
		}
		for _, o := range x.nodes[c.n].links[l] {
			if x.visited[o] == x.visitGen {
				continue
			}
			x.visited[o] = x.visitGen
			d := x.dist(q, o)
			if len(res) < ef || d < res[0].d {
				cands.push(cand{o, d})
				if !liveOnly || !x.nodes[o].deleted {
					res.push(cand{o, d})
					if len(res) > ef {
						res.pop()
					}
				}
			}
		}
	}
	out := make([]cand, len(res))
	copy(out, res)
	slices.SortFunc(out, cmpCand)
	x.candScr, x.resultScr = cands, res
	return out
}

func (x *Index) nextVisit() {
	if len(x.visited) < len(x.nodes) {
		x.visited = append(x.visited, make([]uint32, len(x.nodes)-len(x.visited)+len(x.nodes)/2)...)
	}
	x.visitGen++
	if x.visitGen == 0 {
		clear(x.visited)
		x.visitGen = 1
	}
}

func (x *Index) vec(n int32) []float32 { return x.vecs[int(n)*x.dim : int(n+1)*x.dim] }

func (x *Index) dist(q []float32, n int32) float32 { return 1 - dot(q, x.vec(n)) }

func (x *Index) distNodes(a, b int32) float32 { return 1 - dot(x.vec(a), x.vec(b)) }

func dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return s0 + s1 + s2 + s3
}
