// Package onnximage checks Dockerfile.router-onnx without docker: the router built as that
// file builds it, and ONNX Runtime as fetched here, need no file (by ldd) that the image does
// not copy to the same path.
package onnximage

import (
	"bufio"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/semantic-router/semantic-router/internal/testtool"
)

const dockerfile = "Dockerfile.router-onnx"

// image is what the final stage of a Dockerfile puts into the image.
type image struct {
	files map[string]string // destination path -> source path in its stage
	env   map[string]string
}

// buildArgs are the --build-arg values the Dockerfile's header gives for an architecture
// other than amd64, its default.
var buildArgs = map[string]map[string]string{
	"arm64": {"LIBDIR": "/lib/aarch64-linux-gnu", "LOADER": "/lib/ld-linux-aarch64.so.1"},
}

// parseDockerfile reads the final stage's COPY and ENV instructions, with ARG defaults or
// the values of override substituted, and the flags of the build stage's `go build`: the value of CGO_ENABLED and
// of -tags.
func parseDockerfile(t *testing.T, text string, override map[string]string) (img image, cgo, tags string) {
	t.Helper()
	// Join continued lines, drop comments.
	var lines []string
	var cur strings.Builder
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if cur.Len() == 0 && (line == "" || strings.HasPrefix(line, "#")) {
			continue
		}
		if strings.HasSuffix(line, `\`) {
			cur.WriteString(strings.TrimSuffix(line, `\`) + " ")
			continue
		}
		cur.WriteString(line)
		lines = append(lines, cur.String())
		cur.Reset()
	}
	global := map[string]string{}
	var args map[string]string // of the current stage; nil before the first FROM
	expand := func(s string) string {
		return os.Expand(s, func(k string) string {
			if v, ok := args[k]; ok {
				return v
			}
			t.Fatalf("%s: $%s is not an ARG of its stage", dockerfile, k)
			return ""
		})
	}
	goBuild := regexp.MustCompile(`CGO_ENABLED=(\d).*\bgo build\b.*-tags[= ](\S+)`)
	for _, line := range lines {
		instr, rest, _ := strings.Cut(line, " ")
		fields := strings.Fields(rest)
		switch strings.ToUpper(instr) {
		case "FROM":
			args = map[string]string{}
			img = image{files: map[string]string{}, env: map[string]string{}}
		case "ARG":
			k, v, _ := strings.Cut(rest, "=")
			if args == nil {
				global[k] = v
				continue
			}
			if gv, ok := global[k]; ok && v == "" {
				v = gv
			}
			if ov, ok := override[k]; ok {
				v = ov
			}
			args[k] = v
		case "ENV":
			k, v, _ := strings.Cut(rest, "=")
			img.env[k] = expand(v)
		case "RUN":
			if m := goBuild.FindStringSubmatch(line); m != nil {
				cgo, tags = m[1], m[2]
			}
		case "COPY":
			var srcs []string
			for _, f := range fields {
				if !strings.HasPrefix(f, "--") {
					srcs = append(srcs, expand(f))
				}
			}
			if len(srcs) < 2 {
				t.Fatalf("%s: cannot read %q", dockerfile, line)
			}
			dst := srcs[len(srcs)-1]
			srcs = srcs[:len(srcs)-1]
			for _, s := range srcs {
				if strings.HasSuffix(dst, "/") {
					img.files[dst+path.Base(s)] = s
				} else if len(srcs) == 1 {
					img.files[dst] = s
				} else {
					t.Fatalf("%s: %q copies several files to %s, which does not end in /", dockerfile, line, dst)
				}
			}
		}
	}
	return img, cgo, tags
}

// dependencies runs ldd on file and returns the paths of the libraries it resolves, the
// dynamic loader's included; the vDSO, which the kernel provides, is left out.
func dependencies(t *testing.T, ldd, file string) []string {
	t.Helper()
	out, err := exec.Command(ldd, file).CombinedOutput()
	if err != nil {
		t.Fatalf("ldd %s: %v\n%s", file, err, out)
	}
	var deps []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "linux-vdso.so") {
			continue
		}
		if name, resolved, ok := strings.Cut(line, " => "); ok {
			if strings.HasPrefix(resolved, "not found") {
				t.Fatalf("ldd %s: %s is not found on this machine", file, name)
			}
			line = resolved
		}
		deps = append(deps, strings.Fields(line)[0])
	}
	return deps
}

// onnxRuntime returns the ONNX Runtime library of this machine: $ONNXRUNTIME_LIB, or the
// one hack/onnxruntime.sh has fetched into the cache. It downloads nothing.
func onnxRuntime(t *testing.T, root string) string {
	t.Helper()
	lib := os.Getenv("ONNXRUNTIME_LIB")
	if lib == "" {
		out, err := exec.Command("bash", filepath.Join(root, "hack", "onnxruntime.sh"), "--print").Output()
		testtool.Require(t, "hack/onnxruntime.sh --print", err)
		lib = strings.TrimSpace(string(out))
	}
	_, err := os.Stat(lib)
	testtool.Require(t, "ONNX Runtime (make onnxruntime fetches it)", err)
	return lib
}

func TestImageHasEveryDynamicDependency(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skipf("the image is linux; ldd checks a linux build here, not %s", runtime.GOOS)
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(filepath.Join(root, dockerfile))
	if err != nil {
		t.Fatal(err)
	}
	img, cgo, tags := parseDockerfile(t, string(text), buildArgs[runtime.GOARCH])
	if cgo != "1" || !strings.Contains(","+tags+",", ",onnx,") {
		t.Fatalf("%s builds with CGO_ENABLED=%q -tags %q; want cgo and the onnx tag", dockerfile, cgo, tags)
	}
	ldd, err := exec.LookPath("ldd")
	testtool.Require(t, "ldd", err)
	_, err = exec.LookPath("gcc")
	testtool.Require(t, "a C compiler for cgo", err)
	lib := onnxRuntime(t, root)

	bin := filepath.Join(t.TempDir(), "semantic-router")
	build := exec.Command("go", "build", "-tags", tags, "-o", bin, "./cmd/semantic-router")
	build.Dir = root
	build.Env = append(os.Environ(), "CGO_ENABLED="+cgo)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build -tags %s: %v\n%s", tags, err, out)
	}

	libInImage := img.env["ONNXRUNTIME_LIB"]
	if _, ok := img.files[libInImage]; !ok || libInImage == "" {
		t.Errorf("ENV ONNXRUNTIME_LIB=%q is not a file the image copies", libInImage)
	}
	for _, file := range []string{bin, lib} {
		deps := dependencies(t, ldd, file)
		if len(deps) == 0 {
			t.Errorf("ldd %s names no library; the check would prove nothing", file)
		}
		for _, dep := range deps {
			src, ok := img.files[dep]
			switch {
			case !ok:
				t.Errorf("%s needs %s, which %s does not copy; copied: %s", filepath.Base(file), dep, dockerfile, strings.Join(sorted(img.files), " "))
			case src != dep:
				t.Errorf("%s copies %s from %s, not from the same path, which is where ldd found it here", dockerfile, dep, src)
			}
		}
	}
}

func TestParseDockerfile(t *testing.T) {
	t.Parallel()
	img, cgo, tags := parseDockerfile(t, `ARG V=1
FROM golang AS build
RUN CGO_ENABLED=1 go build -trimpath -tags a,b \
    -o /out/x ./cmd/x
FROM scratch
# a comment
ARG DIR=/lib/default
ARG V
COPY --from=build /etc/f /etc/f
COPY --from=build ${DIR}/a.so \
    ${DIR}/b.so $DIR/
ENV K=/v$V
`, map[string]string{"DIR": "/lib/x"})
	if cgo != "1" || tags != "a,b" {
		t.Errorf("cgo %q, tags %q", cgo, tags)
	}
	want := map[string]string{"/etc/f": "/etc/f", "/lib/x/a.so": "/lib/x/a.so", "/lib/x/b.so": "/lib/x/b.so"}
	if got := strings.Join(sorted(img.files), " "); got != strings.Join(sorted(want), " ") {
		t.Errorf("files %s", got)
	}
	for k, v := range want {
		if img.files[k] != v {
			t.Errorf("%s from %q, want %q", k, img.files[k], v)
		}
	}
	if img.env["K"] != "/v1" {
		t.Errorf("env %v", img.env)
	}
}

func sorted(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
