package artifact

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/semantic-router/semantic-router/internal/config"
)

func TestSizeAndFreeSpaceBoundADownload(t *testing.T) {
	t.Parallel()
	// disk is a volume of limit bytes free before the download: the part file's bytes come
	// off it.
	disk := func(a *config.Artifact, limit int64) func(string) (int64, error) {
		return func(string) (int64, error) {
			var used int64
			if st, err := os.Stat(filepath.Join(a.Dir, "model.onnx.part")); err == nil {
				used = st.Size()
			}
			return limit - used, nil
		}
	}
	tests := []struct {
		name  string
		setup func(t *testing.T, h *hub, a *config.Artifact, o *Options)
		kind  Kind
		want  string // {base} is the server's URL, {dir} the artifact's directory
	}{
		{
			name:  "size, and a Content-Length that disagrees",
			setup: func(t *testing.T, h *hub, a *config.Artifact, o *Options) { a.Files[0].Size = 1000 },
			kind:  KindSize,
			want:  `artifact "minilm": onnx/model.onnx: {base} says the file is 65000 bytes (Content-Length), not the 1000 of files[].size; refusing it (check files[].size and the revision)`,
		},
		{
			name: "size, and a Content-Range total that disagrees",
			setup: func(t *testing.T, h *hub, a *config.Artifact, o *Options) {
				a.Files[0].Size = 2000
				// A part of the same version left by an earlier run, resumed.
				if err := os.MkdirAll(filepath.Join(a.Dir, metaDir), 0o755); err != nil {
					t.Fatal(err)
				}
				model := h.files["org/minilm/main/onnx/model.onnx"]
				if err := os.WriteFile(filepath.Join(a.Dir, "model.onnx.part"), model[:1000], 0o644); err != nil {
					t.Fatal(err)
				}
				j := &job{cfg: *a}
				sum := sha256.Sum256(model)
				raw, _ := json.Marshal(partState{URL: j.fileURL(a.Files[0]), ETag: `"` + hex.EncodeToString(sum[:]) + `"`})
				if err := os.WriteFile(j.partStatePath(a.Files[0]), raw, 0o644); err != nil {
					t.Fatal(err)
				}
			},
			kind: KindSize,
			want: `artifact "minilm": onnx/model.onnx: {base} says the file is 65000 bytes (Content-Range), not the 2000 of files[].size; refusing it (check files[].size and the revision)`,
		},
		{
			name: "size, and an endless body",
			setup: func(t *testing.T, h *hub, a *config.Artifact, o *Options) {
				h.endless = true
				a.Files[0].Size = 65000
			},
			kind: KindSize,
			want: `artifact "minilm": onnx/model.onnx: the server sent more than the 65000 bytes of files[].size; the download was discarded (check files[].size and the revision)`,
		},
		{
			name: "no size, and a Content-Length larger than the free space",
			setup: func(t *testing.T, h *hub, a *config.Artifact, o *Options) {
				h.claimLength = 1 << 40
				o.FreeSpace = disk(a, 100<<30)
			},
			kind: KindIO,
			want: `artifact "minilm": onnx/model.onnx: {base} says the file is 1.0 TiB (1099511627776 bytes) and the file system of {dir} has 100.0 GiB free; ` +
				`refusing it, as a download must leave 64.0 MiB free (free up or enlarge the volume)`,
		},
		{
			name: "no size, and an endless body that fills the disk",
			setup: func(t *testing.T, h *hub, a *config.Artifact, o *Options) {
				h.endless = true
				o.FreeSpace = disk(a, minFreeBytes+3*spaceCheckEvery)
			},
			kind: KindIO,
			want: `artifact "minilm": onnx/model.onnx: the file system of {dir} has less than 64.0 MiB free; the download was stopped and discarded (free up or enlarge the volume)`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHub(t, false)
			a, _, _ := repo(t, h)
			a.Files[0].SHA256 = "" // the size alone guards the download
			o := Options{Backoff: instant}
			tt.setup(t, h, &a, &o)
			_, err := New(o).Ensure(context.Background(), a)
			want := strings.NewReplacer("{base}", h.srv.URL, "{dir}", a.Dir).Replace(tt.want)
			if err == nil || err.Error() != want {
				t.Fatalf("got  %v\nwant %s", err, want)
			}
			var e *Error
			if !errors.As(err, &e) || e.Kind != tt.kind {
				t.Fatalf("kind: %#v", err)
			}
			if n := len(h.seen()); n != 1 {
				t.Fatalf("%d requests; a refused size is not retried", n)
			}
			requireNoFile(t, filepath.Join(a.Dir, "model.onnx"))
			requireNoFile(t, filepath.Join(a.Dir, "model.onnx.part"))
		})
	}
}

func TestTheRightSizeIsDownloadedAndKept(t *testing.T) {
	t.Parallel()
	h := newHub(t, false)
	a, model, _ := repo(t, h)
	a.Files = a.Files[:1]
	a.Files[0].SHA256 = ""
	a.Files[0].Size = int64(len(model))
	if _, err := New(Options{}).Ensure(context.Background(), a); err != nil {
		t.Fatal(err)
	}
	requireFile(t, filepath.Join(a.Dir, "model.onnx"), model)
	// A cached file of another size is downloaded again.
	if err := os.WriteFile(filepath.Join(a.Dir, "model.onnx"), model[:100], 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := New(Options{}).Ensure(context.Background(), a)
	if err != nil || res.Downloaded != 1 {
		t.Fatalf("%+v %v", res, err)
	}
	requireFile(t, filepath.Join(a.Dir, "model.onnx"), model)
}

func TestFreeSpaceOfThisFileSystem(t *testing.T) {
	t.Parallel()
	free, err := freeSpace(t.TempDir())
	if err != nil || free == 0 {
		t.Fatalf("freeSpace: %d, %v", free, err)
	}
}
