//go:build unix

package artifact

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"
)

func TestADownloadWaitsForAnotherProcessOnTheSameDirectory(t *testing.T) {
	t.Parallel()
	h := newHub(t, false)
	a, model, _ := repo(t, h)
	// Another process holds the directory's lock (an flock on another open file conflicts
	// just as another process's would).
	p := filepath.Join(a.Dir, metaDir, lockFile)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	other, err := os.OpenFile(p, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if err := syscall.Flock(int(other.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	var st Status
	var wg sync.WaitGroup
	var ensureErr error
	wg.Go(func() {
		_, ensureErr = New(Options{Status: &st, LockPollInterval: time.Millisecond}).Ensure(context.Background(), a)
	})
	want := `artifact "minilm": waiting for another process downloading into ` + a.Dir
	waitFor(t, "the wait to show", func() bool { _, why := st.Ready(); return why == want })
	if n := len(h.seen()); n != 0 {
		t.Fatalf("%d requests while another process holds the lock", n)
	}
	if err := syscall.Flock(int(other.Fd()), syscall.LOCK_UN); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if ensureErr != nil {
		t.Fatal(ensureErr)
	}
	requireFile(t, filepath.Join(a.Dir, "model.onnx"), model)
}
