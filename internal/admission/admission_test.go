package admission

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestKeys(t *testing.T) {
	t.Parallel()
	k := NewKeys()
	k.Set("a", "sk-alpha")
	k.Set("b", "sk-beta")
	for _, tt := range []struct {
		key, want string
		ok        bool
	}{
		{"sk-alpha", "a", true}, {"sk-beta", "b", true}, {"sk-alph", "", false}, {"", "", false}, {"sk-alpha ", "", false},
	} {
		if got, ok := k.Lookup(tt.key); got != tt.want || ok != tt.ok {
			t.Errorf("Lookup(%q) = %q, %v; want %q, %v", tt.key, got, ok, tt.want, tt.ok)
		}
	}
	k.Set("a", "sk-rotated")
	if _, ok := k.Lookup("sk-alpha"); ok {
		t.Error("the old key still matches after a rotation")
	}
	if got, _ := k.Lookup("sk-rotated"); got != "a" {
		t.Errorf("the rotated key matches %q", got)
	}
	// A rotation may give two names one key: the name set first wins, every time.
	for _, n := range []string{"c", "d", "e", "f", "g", "h"} {
		k.Set(n, "sk-"+n)
	}
	k.Set("h", "sk-beta")
	if got := k.Same("h"); got != "b" {
		t.Errorf(`Same("h") = %q, want "b"`, got)
	}
	if got := k.Same("c"); got != "" {
		t.Errorf(`Same("c") = %q, want ""`, got)
	}
	for range 50 {
		if got, _ := k.Lookup("sk-beta"); got != "b" {
			t.Fatalf("a key two names hold matches %q, want the first, b", got)
		}
	}
}

func TestBucket(t *testing.T) {
	t.Parallel()
	now := time.Unix(0, 0)
	clock := func() time.Time { return now }
	b := NewBucket(60, clock) // one a second
	for i := range 60 {
		if ok, _ := b.Take(1); !ok {
			t.Fatalf("take %d refused from a full bucket", i)
		}
	}
	if ok, wait := b.Take(1); ok || wait != time.Second {
		t.Errorf("empty bucket: Take = %v, %v; want false, 1s", ok, wait)
	}
	now = now.Add(500 * time.Millisecond)
	if ok, wait := b.Take(1); ok || wait != 500*time.Millisecond {
		t.Errorf("half refilled: Take = %v, %v; want false, 500ms", ok, wait)
	}
	now = now.Add(500 * time.Millisecond)
	if ok, _ := b.Take(1); !ok {
		t.Error("refilled unit refused")
	}
	b.Return(1)
	if ok, _ := b.Take(1); !ok {
		t.Error("a returned unit refused")
	}
	b.Return(1000)
	if ok, _ := b.Take(61); ok {
		t.Error("Return filled the bucket past one minute's worth")
	}

	tokens := NewBucket(600, clock)
	tokens.Spend(900) // an answer overdraws the budget
	if ok, wait := tokens.Positive(); ok || wait != 30*time.Second+time.Millisecond {
		t.Errorf("overdrawn: Positive = %v, %v; want false, 30.001s", ok, wait)
	}
	if ok, _ := NewBucket(0, clock).Take(1e9); !ok {
		t.Error("a bucket without a limit refused")
	}
}

func TestGate(t *testing.T) {
	t.Parallel()
	if release, _, err := (*Gate)(nil).Enter(context.Background()); err != nil {
		t.Fatal(err)
	} else {
		release()
	}
	g := NewGate(1, 1, time.Hour)
	release, _, err := g.Enter(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	queued := make(chan error, 1)
	go func() {
		r, _, err := g.Enter(context.Background())
		if err == nil {
			r()
		}
		queued <- err
	}()
	// The queue's one place is taken once the goroutine waits in it.
	deadline := time.Now().Add(5 * time.Second)
	for len(g.queue) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the second request never queued")
		}
		time.Sleep(time.Millisecond)
	}
	if _, _, err := g.Enter(context.Background()); !errors.Is(err, ErrQueueFull) {
		t.Errorf("third request: %v, want ErrQueueFull", err)
	}
	release()
	if err := <-queued; err != nil {
		t.Errorf("queued request: %v", err)
	}

	short := NewGate(1, 1, 20*time.Millisecond)
	r, _, _ := short.Enter(context.Background())
	defer r()
	if _, waited, err := short.Enter(context.Background()); !errors.Is(err, ErrQueueTimeout) || waited < 20*time.Millisecond {
		t.Errorf("Enter = %v after %v, want ErrQueueTimeout after 20ms", err, waited)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := short.Enter(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled Enter = %v", err)
	}
	if _, _, err := NewGate(1, 0, 0).Enter(context.Background()); err != nil {
		t.Errorf("free slot refused: %v", err)
	}
}
