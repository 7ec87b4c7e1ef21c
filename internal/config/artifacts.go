package config

import (
	"fmt"
	"path"
	"regexp"
	"strings"
)

// Artifact defaults.
const (
	// DefaultArtifactsDir is the cache root: an artifact without dir lives in
	// DefaultArtifactsDir/<name>. In Kubernetes it is the mount point of the persistent volume.
	DefaultArtifactsDir     = "/models"
	DefaultArtifactRevision = "main"
	DefaultArtifactBaseURL  = "https://huggingface.co"
	// ArtifactRefPrefix marks a model directory that names an artifact instead of a path:
	// model_dir: artifact:minilm is the directory of the artifact named minilm.
	ArtifactRefPrefix = "artifact:"
)

// Artifact is a set of model files that the router downloads from a repository laid out as
// Hugging Face serves them ({base_url}/{repository}/resolve/{revision}/{path}) into a local
// directory, and keeps there: a file already present and complete is not downloaded again.
// Downloads are opt-in: a configuration without artifacts never touches the network.
type Artifact struct {
	// Name identifies the artifact in logs, readiness reasons and artifact: references.
	Name string `yaml:"name" json:"name"`
	// Repository is the repository id, "org/name" as in sentence-transformers/all-MiniLM-L6-v2.
	Repository string `yaml:"repository" json:"repository"`
	// Revision is a branch, tag or commit. Default "main"; pin a commit for reproducible
	// deployments, since a cached file is not compared with a moved branch.
	Revision string `yaml:"revision,omitempty" json:"revision"`
	// BaseURL is the server root, without a trailing slash. Default https://huggingface.co;
	// set it to use a mirror.
	BaseURL string `yaml:"base_url,omitempty" json:"base_url"`
	// Files are the files to fetch; at least one.
	Files []ArtifactFile `yaml:"files" json:"files"`
	// Token references the bearer token sent to base_url (env.VAR or file:/path). It is never
	// sent to another host that a redirect leads to.
	Token SecretRef `yaml:"token,omitempty" json:"token,omitempty"`
	// CACertPEM references a PEM bundle added to the system roots, for a mirror or a proxy
	// with a private CA.
	CACertPEM SecretRef `yaml:"ca_cert_pem,omitempty" json:"ca_cert_pem,omitempty"`
	// Dir is the local directory of the files, an absolute path. Default
	// DefaultArtifactsDir/<name>.
	Dir string `yaml:"dir,omitempty" json:"dir"`
}

// ArtifactFile is one file of an artifact.
type ArtifactFile struct {
	// Path is the file's path in the repository, as in onnx/model.onnx.
	Path string `yaml:"path" json:"path"`
	// SaveAs is the file's path under the artifact's dir. Default: Path. It lets a file kept
	// in a subdirectory of the repository land where its reader expects it
	// (onnx/model.onnx saved as model.onnx).
	SaveAs string `yaml:"save_as,omitempty" json:"save_as"`
	// SHA256 is the expected checksum, 64 lowercase hexadecimal digits. Optional: when set, a
	// download that does not match is refused, and a file already present is checked
	// against it before it is trusted.
	SHA256 string `yaml:"sha256,omitempty" json:"sha256,omitempty"`
	// Size is the file's size in bytes, as the Hub lists it beside the sha256. Optional:
	// when set, a server that announces another size is refused at once, and a body that
	// goes past it when it does, so that a wrong or endless answer cannot fill the disk.
	Size int64 `yaml:"size,omitempty" json:"size,omitempty"`
}

// Artifact returns the artifact named name, or nil.
func (c *Config) Artifact(name string) *Artifact {
	for i := range c.Artifacts {
		if c.Artifacts[i].Name == name {
			return &c.Artifacts[i]
		}
	}
	return nil
}

// ArtifactForDir returns the artifact whose files live in dir, or nil. After ApplyDefaults an
// artifact: reference has become the artifact's dir; this finds the artifact again, so that
// the router can tell which artifact a model directory waits for.
func (c *Config) ArtifactForDir(dir string) *Artifact {
	for i := range c.Artifacts {
		if c.Artifacts[i].Dir == dir && dir != "" {
			return &c.Artifacts[i]
		}
	}
	return nil
}

// applyArtifactDefaults fills revision, base_url, dir and save_as, and resolves an
// artifact: reference in the onnx embedder's model_dir to the artifact's directory, so every
// reader of the configuration sees a plain path. An unknown reference is left as it is for
// Validate to report.
func (c *Config) applyArtifactDefaults() {
	for i := range c.Artifacts {
		a := &c.Artifacts[i]
		if a.Revision == "" {
			a.Revision = DefaultArtifactRevision
		}
		if a.BaseURL == "" {
			a.BaseURL = DefaultArtifactBaseURL
		}
		if a.Dir == "" && a.Name != "" {
			a.Dir = path.Join(DefaultArtifactsDir, a.Name)
		}
		for j := range a.Files {
			if a.Files[j].SaveAs == "" {
				a.Files[j].SaveAs = a.Files[j].Path
			}
		}
	}
	if name, ok := strings.CutPrefix(c.Signals.Embedder.ModelDir, ArtifactRefPrefix); ok {
		if a := c.Artifact(name); a != nil && a.Dir != "" {
			c.Signals.Embedder.ModelDir = a.Dir
		}
	}
}

var (
	artifactNameRE = regexp.MustCompile(`^[a-z0-9]([a-z0-9._-]*[a-z0-9])?$`)
	repositoryRE   = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9._-]*$`)
	revisionRE     = regexp.MustCompile(`^[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*$`)
	sha256RE       = regexp.MustCompile(`^[0-9a-f]{64}$`)
)

func (c *Config) validateArtifacts(v *validator) {
	seen := map[string]int{}
	dirs := map[string]int{}
	for i := range c.Artifacts {
		a := &c.Artifacts[i]
		p := fmt.Sprintf("artifacts[%d]", i)
		switch {
		case a.Name == "":
			v.add(p+".name", "is required")
		case !artifactNameRE.MatchString(a.Name):
			v.add(p+".name", "must be lowercase letters, digits, '.', '_' or '-', starting and ending with a letter or digit, got %q", a.Name)
		default:
			if first, dup := seen[a.Name]; dup {
				v.add(p+".name", "duplicate artifact name %q (first defined at artifacts[%d])", a.Name, first)
			} else {
				seen[a.Name] = i
			}
		}
		switch {
		case a.Repository == "":
			v.add(p+".repository", `is required, as in "sentence-transformers/all-MiniLM-L6-v2"`)
		case !repositoryRE.MatchString(a.Repository) || strings.Contains(a.Repository, ".."):
			v.add(p+".repository", `must be "org/name", as in "sentence-transformers/all-MiniLM-L6-v2", got %q`, a.Repository)
		}
		if !revisionRE.MatchString(a.Revision) || strings.Contains(a.Revision, "..") {
			v.add(p+".revision", "must be a branch, tag or commit of letters, digits, '.', '_', '-' and '/', got %q", a.Revision)
		}
		validateArtifactBaseURL(v, p+".base_url", a.BaseURL)
		validateRef(v, p+".token", a.Token)
		validateRef(v, p+".ca_cert_pem", a.CACertPEM)
		switch {
		case a.Dir == "":
		case !path.IsAbs(a.Dir) || path.Clean(a.Dir) != a.Dir:
			v.add(p+".dir", "must be a clean absolute path, as in /models/minilm, got %q", a.Dir)
		default:
			if first, dup := dirs[a.Dir]; dup {
				v.add(p+".dir", "%q is also the directory of artifacts[%d]; give each artifact its own", a.Dir, first)
				break
			}
			for k := range i {
				other := c.Artifacts[k].Dir
				if idx, ok := dirs[other]; !ok || idx != k {
					continue // not a valid directory of its own, already reported
				}
				switch {
				case under(a.Dir, other):
					v.add(p+".dir", "%q is inside the directory of artifacts[%d] (%q); give each artifact its own", a.Dir, k, other)
				case under(other, a.Dir):
					v.add(p+".dir", "%q holds the directory of artifacts[%d] (%q); give each artifact its own", a.Dir, k, other)
				}
			}
			dirs[a.Dir] = i
		}
		validateArtifactFiles(v, p, a.Files)
	}
	if name, ok := strings.CutPrefix(c.Signals.Embedder.ModelDir, ArtifactRefPrefix); ok && c.Artifact(name) == nil {
		msg := fmt.Sprintf("unknown artifact %q", name)
		names := make([]string, 0, len(c.Artifacts))
		for _, a := range c.Artifacts {
			names = append(names, a.Name)
		}
		if s := suggest(name, names); s != "" {
			msg += fmt.Sprintf("; did you mean %q?", s)
		} else if len(names) == 0 {
			msg += " (no artifacts are configured)"
		}
		v.add("signals.embedder.model_dir", "%s", msg)
	}
}

func validateArtifactFiles(v *validator, p string, files []ArtifactFile) {
	if len(files) == 0 {
		v.add(p+".files", "at least one file is required")
		return
	}
	targets := map[string]int{}
	for j, f := range files {
		fp := fmt.Sprintf("%s.files[%d]", p, j)
		if msg := relPathProblem(f.Path); msg != "" {
			v.add(fp+".path", "%s, got %q", msg, f.Path)
		}
		if f.SaveAs != f.Path {
			if msg := relPathProblem(f.SaveAs); msg != "" {
				v.add(fp+".save_as", "%s, got %q", msg, f.SaveAs)
			}
		}
		if f.SHA256 != "" && !sha256RE.MatchString(f.SHA256) {
			v.add(fp+".sha256", "must be 64 lowercase hexadecimal digits, got %q", f.SHA256)
		}
		if _, set := v.lines[fp+".size"]; f.Size < 0 || (f.Size == 0 && set) {
			v.add(fp+".size", "must be the file's size in bytes, at least 1, got %d", f.Size)
		}
		if f.SaveAs == "" || relPathProblem(f.SaveAs) != "" {
			continue
		}
		saveField := fp + ".save_as"
		if f.SaveAs == f.Path {
			saveField = fp + ".path"
		}
		if strings.HasSuffix(f.SaveAs, partSuffix) {
			v.add(saveField, "must not end in %q, the name a file has while it downloads, got %q", partSuffix, f.SaveAs)
			continue
		}
		if first, dup := targets[f.SaveAs]; dup {
			v.add(fp, "saves to %q, as files[%d] does", f.SaveAs, first)
			continue
		}
		if msg := layoutClash(files, j, targets); msg != "" {
			v.add(fp, "%s", msg)
		}
		targets[f.SaveAs] = j
	}
}

// The names the downloader keeps beside and about each file, in the artifact's directory
// and in its .artifact directory (see internal/artifact).
const (
	partSuffix   = ".part"
	markerSuffix = ".json"
	tmpSuffix    = ".tmp"
	lockName     = "lock"
)

// bookkeeping is every name the downloader writes for a file saved as saveAs: the file, its
// part file, and under .artifact/ its marker, its resume record and their temporary files.
func bookkeeping(saveAs string) []string {
	const meta = ".artifact/"
	return []string{
		saveAs, saveAs + partSuffix,
		meta + saveAs + markerSuffix, meta + saveAs + markerSuffix + tmpSuffix,
		meta + saveAs + partSuffix + markerSuffix, meta + saveAs + partSuffix + markerSuffix + tmpSuffix,
	}
}

// layoutClash says how files[j] cannot be laid out beside the files before it (targets,
// save_as to index) and the downloader's lock, or "": one file's target would be the
// directory of another's, or a name the downloader keeps for one would be another's, or its
// directory.
func layoutClash(files []ArtifactFile, j int, targets map[string]int) string {
	s := files[j].SaveAs
	for k := range j {
		t := files[k].SaveAs
		if idx, ok := targets[t]; !ok || idx != k {
			continue
		}
		switch {
		case under(s, t):
			return fmt.Sprintf("saves to %q, inside %q, which files[%d] saves to", s, t, k)
		case under(t, s):
			return fmt.Sprintf("saves to %q, which files[%d] needs as a directory (it saves to %q)", s, k, t)
		}
		for _, a := range bookkeeping(s) {
			for _, b := range bookkeeping(t) {
				if a == b || under(a, b) || under(b, a) {
					return fmt.Sprintf("saves to %q, whose download file %q clashes with %q of files[%d]; choose another save_as", s, a, b, k)
				}
			}
		}
	}
	lock := ".artifact/" + lockName
	for _, a := range bookkeeping(s) {
		if under(a, lock) {
			return fmt.Sprintf("saves to %q, whose download file %q would be inside the download lock %q; choose another save_as", s, a, lock)
		}
	}
	return ""
}

// under reports whether p is inside the directory dir (both clean, slash-separated).
func under(p, dir string) bool {
	return strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}

// relPathProblem says why p is not a clean relative path inside a directory, or "".
func relPathProblem(p string) string {
	switch {
	case p == "":
		return "must be a path relative to the repository root, as in onnx/model.onnx"
	case strings.ContainsAny(p, "\\\x00") || strings.HasPrefix(p, "/") || path.Clean(p) != p ||
		strings.HasPrefix(p, ".") || strings.Contains(p, "/."):
		return "must be a clean relative path without '..', a leading '/' or a name starting with '.'"
	}
	return ""
}

// validateArtifactBaseURL checks an artifact's base_url as a provider's is checked.
func validateArtifactBaseURL(v *validator, p, raw string) {
	checkBaseURL(v, p, raw, "https://huggingface.co", "token with an env.VAR or file:/path reference")
}
