package artifact

import (
	"errors"
	"testing"
)

func TestStatusReasons(t *testing.T) {
	t.Parallel()
	var nilStatus *Status
	if ok, why := nilStatus.Ready(); !ok || why != "" {
		t.Fatalf("a nil Status: %t %q", ok, why)
	}
	var empty Status
	if ok, _ := empty.Ready(); !ok {
		t.Fatal("a Status without artifacts is not ready")
	}
	var s Status
	s.Register("a", "b", "c", "d", "e")
	s.set("a", StateReady)
	s.progress("b", "onnx/model.onnx", 3<<20, -1)
	s.fail("c", &Error{Artifact: "c", File: "x", Kind: KindAuth, Message: "401 Unauthorized"})
	s.retrying("e", "onnx/model.onnx", 3, 5, &Error{Artifact: "e", File: "onnx/model.onnx", Kind: KindHTTP, Message: "503 Service Unavailable from https://huggingface.co"})
	ok, why := s.Ready()
	want := `artifact "b": downloading onnx/model.onnx (3.0 MiB); artifact "c": x: 401 Unauthorized; artifact "d": not downloaded yet; ` +
		`artifact "e": retrying onnx/model.onnx (attempt 3 of 5): 503 Service Unavailable from https://huggingface.co`
	if ok || why != want {
		t.Fatalf("got %t %q\nwant %q", ok, why, want)
	}
	if ok, why := s.ArtifactReady("a"); !ok || why != "" {
		t.Fatalf("a: %t %q", ok, why)
	}
	if ok, why := s.ArtifactReady("zz"); ok || why != `artifact "zz" is not configured` {
		t.Fatalf("zz: %t %q", ok, why)
	}
	if snap := s.Snapshot(); len(snap) != 5 || snap[2].Kind != KindAuth || snap[2].State != StateFailed {
		t.Fatalf("%+v", snap)
	}
	s.fail("d", errors.New("plain"))
	if snap := s.Snapshot(); snap[3].Kind != "" || snap[3].Error != "plain" {
		t.Fatalf("%+v", snap[3])
	}
}

func TestSize(t *testing.T) {
	t.Parallel()
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1024: "1.0 KiB", 90 << 20: "90.0 MiB", 3 << 30: "3.0 GiB"} {
		if got := size(n); got != want {
			t.Errorf("size(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestParseContentRange(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in                string
		start, end, total int64
		ok                bool
	}{
		{"bytes 100-199/200", 100, 199, 200, true},
		{"bytes 0-9/*", 0, 9, -1, true},
		{"bytes 10-5/20", 0, 0, 0, false},
		{"bytes */200", 0, 0, 0, false},
		{"items 0-1/2", 0, 0, 0, false},
		{"", 0, 0, 0, false},
	}
	for _, tt := range tests {
		start, end, total, ok := parseContentRange(tt.in)
		if ok != tt.ok || (ok && (start != tt.start || end != tt.end || total != tt.total)) {
			t.Errorf("%q: %d %d %d %t", tt.in, start, end, total, ok)
		}
	}
}
