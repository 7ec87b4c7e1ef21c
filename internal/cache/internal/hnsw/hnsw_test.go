package hnsw

import (
	"context"
	"reflect"
	"testing"

	"github.com/semantic-router/semantic-router/internal/cache/internal/testprompts"
	"github.com/semantic-router/semantic-router/internal/embed/builtin"
)

func embedPrompts(t testing.TB, from, n int) [][]float32 {
	t.Helper()
	vs, err := builtin.New().Embed(context.Background(), testprompts.Prompts(from, n))
	if err != nil {
		t.Fatal(err)
	}
	return vs
}

// bruteBest is the exact nearest live vector's similarity.
func bruteBest(q []float32, vs [][]float32, live func(int) bool) float32 {
	best := float32(-2)
	for i, v := range vs {
		if live(i) {
			best = max(best, dot(q, v))
		}
	}
	return best
}

// recallAt1 is the share of queries whose first result is as similar as the
// exact nearest neighbour (ties count as found).
func recallAt1(x *Index, vs, qs [][]float32, ef int, live func(int) bool) float64 {
	found := 0
	for _, q := range qs {
		res := x.Search(q, 1, ef)
		if len(res) == 1 && res[0].Similarity >= bruteBest(q, vs, live)-1e-6 {
			found++
		}
	}
	return float64(found) / float64(len(qs))
}

func TestRecallAgainstBruteForce(t *testing.T) {
	t.Parallel()
	const n, queries = 2000, 200
	vs := embedPrompts(t, 0, n)
	// Queries come from the far end of the permutation: never in the index.
	qs := embedPrompts(t, testprompts.Total-queries, queries)
	x := New(builtin.Dimensions, Options{})
	for i, v := range vs {
		x.Add(uint64(i), v)
	}
	if x.Len() != n {
		t.Fatalf("Len = %d, want %d", x.Len(), n)
	}
	all := func(int) bool { return true }
	r := recallAt1(x, vs, qs, 64, all)
	t.Logf("recall@1 at %d vectors, ef 64: %.3f", n, r)
	if r < 0.95 {
		t.Fatalf("recall@1 = %.3f, want >= 0.95", r)
	}

	// Delete every other vector: the rest stay findable, the deleted never come back.
	for i := 0; i < n; i += 2 {
		if !x.Delete(uint64(i)) {
			t.Fatalf("Delete(%d) = false", i)
		}
	}
	if x.Delete(0) {
		t.Fatal("second Delete(0) = true")
	}
	odd := func(i int) bool { return i%2 == 1 }
	if r := recallAt1(x, vs, qs, 64, odd); r < 0.95 {
		t.Fatalf("recall@1 after deletes = %.3f, want >= 0.95", r)
	}
	for _, q := range qs[:50] {
		for _, r := range x.Search(q, 10, 64) {
			if r.ID%2 == 0 {
				t.Fatalf("deleted vector %d returned", r.ID)
			}
		}
	}
}

func TestIndexEdges(t *testing.T) {
	t.Parallel()
	a := []float32{1, 0, 0}
	b := []float32{0, 1, 0}
	c := []float32{0.6, 0.8, 0}
	x := New(3, Options{M: 4})
	check := func(name string, got, want []Result) {
		t.Helper()
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: got %v, want %v", name, got, want)
		}
	}
	check("empty index", x.Search(a, 1, 10), nil)

	x.Add(1, a)
	x.Add(2, b)
	check("two vectors", x.Search(a, 5, 10), []Result{{ID: 1, Similarity: 1}, {ID: 2, Similarity: 0}})
	check("wrong dimension", x.Search([]float32{1, 0}, 1, 10), nil)
	check("k 0", x.Search(a, 0, 10), nil)

	x.Add(1, c) // re-adding an id replaces its vector
	if x.Len() != 2 {
		t.Fatalf("Len = %d, want 2", x.Len())
	}
	check("replaced", x.Search(b, 2, 10), []Result{{ID: 2, Similarity: 1}, {ID: 1, Similarity: 0.8}})

	// Deleting the last live vector empties the graph; it is usable again after.
	x.Delete(1)
	x.Delete(2)
	if x.Len() != 0 || len(x.nodes) != 0 {
		t.Fatalf("Len = %d, nodes = %d after deleting all, want 0, 0", x.Len(), len(x.nodes))
	}
	check("all deleted", x.Search(a, 1, 10), nil)
	x.Add(3, b)
	check("after emptying", x.Search(b, 1, 10), []Result{{ID: 3, Similarity: 1}})
	if !x.Has(3) || x.Has(1) {
		t.Fatalf("Has(3), Has(1) = %v, %v, want true, false", x.Has(3), x.Has(1))
	}
	defer func() {
		if r := recover(); r != "hnsw: vector length does not match the index" {
			t.Fatalf("panic = %v", r)
		}
	}()
	x.Add(4, []float32{1})
}

func TestTombstonesTriggerRebuild(t *testing.T) {
	t.Parallel()
	vs := embedPrompts(t, 0, 300)
	x := New(builtin.Dimensions, Options{})
	for i, v := range vs {
		x.Add(uint64(i), v)
	}
	for i := range 200 {
		x.Delete(uint64(i))
	}
	// The rebuild ran when tombstones first outnumbered live vectors (151
	// against 149); 49 deletions since.
	if x.Len() != 100 || len(x.nodes) != 149 || x.deleted != 49 {
		t.Fatalf("Len, nodes, deleted = %d, %d, %d, want 100, 149, 49", x.Len(), len(x.nodes), x.deleted)
	}
	for i := 200; i < 300; i++ {
		if res := x.Search(vs[i], 1, 32); res[0].ID != uint64(i) {
			t.Fatalf("Search(vs[%d]) = %v", i, res)
		}
	}
}
