package operator

import (
	"fmt"
	"path"
	"strings"

	corev1 "k8s.io/api/core/v1"

	vllmv1alpha1 "github.com/semantic-router/semantic-router/api/v1alpha1"
	"github.com/semantic-router/semantic-router/internal/config"
)

// Model artifacts: spec.config.artifacts names them (the config contract),
// spec.artifacts says who downloads them and where the cache is mounted. The
// pod gets the cache volume and, by default, an init container that runs
// `semantic-router models pull` before the router starts.
const (
	// initContainerName is the init container that downloads the artifacts.
	initContainerName = "models-pull"
	// volumeModels is the emptyDir cache used without persistence.
	volumeModels = "models"
	// modelsSubPath is the cache's directory on the persistence volume when
	// the cache is not under spec.persistence.mountPath.
	modelsSubPath = "models"
	// terminationLog is where Kubernetes reads a container's termination message.
	terminationLog = "/dev/termination-log"

	reasonArtifactDownloadFailed = "ArtifactDownloadFailed"
	reasonArtifactTokenNotSecret = "ArtifactTokenNotFromSecret"
	reasonInvalidArtifacts       = "InvalidArtifacts"
	reasonArtifactsNotPersisted  = "ArtifactsNotPersisted"
)

// artifactPlan is what the router pod needs for the artifacts of the
// rendered config. The zero plan (no artifacts) changes nothing.
type artifactPlan struct {
	names    []string
	download vllmv1alpha1.ArtifactDownload
	cacheDir string
}

func (p artifactPlan) active() bool { return len(p.names) > 0 }

// pulledBefore reports whether the init container downloads the artifacts
// before the router starts.
func (p artifactPlan) pulledBefore() bool {
	return p.active() && p.download == vllmv1alpha1.ArtifactDownloadInitContainer
}

func artifactDownload(sr *vllmv1alpha1.SemanticRouter) vllmv1alpha1.ArtifactDownload {
	if d := sr.Spec.Artifacts.Download; d != "" {
		return d
	}
	return vllmv1alpha1.ArtifactDownloadInitContainer
}

func artifactCacheDir(sr *vllmv1alpha1.SemanticRouter) string {
	if d := sr.Spec.Artifacts.CacheDir; d != "" {
		return d
	}
	return vllmv1alpha1.DefaultArtifactsCacheDir
}

// defaultArtifactDirs gives each spec.config.artifacts entry without a dir
// the directory <cacheDir>/<name>, so the ConfigMap says where each model
// lives and it lands on the cache volume whatever cacheDir is. Entries of
// the wrong shape are left for the router's parser to report.
func defaultArtifactDirs(cfg map[string]any, cacheDir string) {
	list, ok := cfg["artifacts"].([]any)
	if !ok {
		return
	}
	for _, e := range list {
		a, ok := e.(map[string]any)
		if !ok {
			continue
		}
		name, ok := a["name"].(string)
		if _, set := a["dir"]; !ok || name == "" || set {
			continue
		}
		a["dir"] = path.Join(cacheDir, name)
	}
}

// planArtifacts checks the parsed config's artifacts against the spec and
// returns the plan for the pod. Every artifact's dir must lie under the
// cache directory (elsewhere a download is neither written to the volume
// nor kept), and every token must be an env.VAR reference to a spec.env
// entry backed by a Secret. Errors name fields, never a value.
func planArtifacts(sr *vllmv1alpha1.SemanticRouter, cfg *config.Config) (artifactPlan, error) {
	if len(cfg.Artifacts) == 0 {
		return artifactPlan{}, nil
	}
	plan := artifactPlan{download: artifactDownload(sr), cacheDir: artifactCacheDir(sr)}
	for i, a := range cfg.Artifacts {
		if !strings.HasPrefix(a.Dir, plan.cacheDir+"/") {
			return artifactPlan{}, &specError{reasonInvalidArtifacts, fmt.Errorf(
				"spec.config.artifacts[%d].dir: %s is not under the artifact cache %s (spec.artifacts.cacheDir): a download there would not be kept; put it under %s",
				i, a.Dir, plan.cacheDir, plan.cacheDir)}
		}
		if err := checkArtifactToken(sr, i, a.Token); err != nil {
			return artifactPlan{}, &specError{reasonArtifactTokenNotSecret, err}
		}
		plan.names = append(plan.names, a.Name)
	}
	return plan, nil
}

// checkArtifactToken refuses an artifact token that does not come from a
// Secret through spec.env: the operations guide forbids a token in
// spec.env's plain values or in a ConfigMap.
func checkArtifactToken(sr *vllmv1alpha1.SemanticRouter, i int, ref config.SecretRef) error {
	if ref.IsZero() {
		return nil
	}
	field := fmt.Sprintf("spec.config.artifacts[%d].token", i)
	name, ok := ref.EnvVar()
	if !ok {
		return fmt.Errorf("%s: %s: an artifact token must be an env.VAR reference to a spec.env entry with valueFrom.secretKeyRef (a Secret)", field, ref)
	}
	for j, e := range sr.Spec.Env {
		if e.Name != name {
			continue
		}
		var source string
		switch {
		case e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil:
			return nil
		case e.ValueFrom != nil && e.ValueFrom.ConfigMapKeyRef != nil:
			source = fmt.Sprintf("spec.env[%d].valueFrom.configMapKeyRef (a ConfigMap)", j)
		case e.ValueFrom != nil:
			source = fmt.Sprintf("spec.env[%d].valueFrom, not a secretKeyRef", j)
		default:
			source = fmt.Sprintf("spec.env[%d].value (a plain value)", j)
		}
		return fmt.Errorf("%s: env.%s comes from %s; an artifact token must come from a Secret: set spec.env[%d].valueFrom.secretKeyRef",
			field, name, source, j)
	}
	return fmt.Errorf("%s: env.%s is not in spec.env; add %s to spec.env with valueFrom.secretKeyRef (a Secret)", field, name, name)
}

// artifactVolumes returns the cache volume to add to the pod (if any) and
// the mounts of the router container and of the init container. With
// persistence the cache is the claim: mounted as it already is when the
// cache directory lies under spec.persistence.mountPath, else its models/
// directory mounted at the cache directory. Without persistence it is an
// emptyDir, lost with the pod.
func artifactVolumes(sr *vllmv1alpha1.SemanticRouter, plan artifactPlan) (vols []corev1.Volume, router, init []corev1.VolumeMount) {
	if !persistenceEnabled(sr) {
		m := corev1.VolumeMount{Name: volumeModels, MountPath: plan.cacheDir}
		vols = []corev1.Volume{{Name: volumeModels, VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}}
		return vols, []corev1.VolumeMount{m}, []corev1.VolumeMount{m}
	}
	mp := mountPath(sr)
	if plan.cacheDir == mp || strings.HasPrefix(plan.cacheDir, strings.TrimSuffix(mp, "/")+"/") {
		return nil, nil, []corev1.VolumeMount{{Name: volumeData, MountPath: mp}}
	}
	m := corev1.VolumeMount{Name: volumeData, MountPath: plan.cacheDir, SubPath: modelsSubPath}
	return nil, []corev1.VolumeMount{m}, []corev1.VolumeMount{m}
}

// modelsPullContainer is the init container that downloads the artifacts
// with the router's own image and config: `semantic-router models pull`.
// It sees spec.env (the token's secretKeyRef, proxy settings), not the
// backends' credentials. A failure's cause is the tail of its output, which
// Kubernetes keeps as the termination message (FallbackToLogsOnError).
func modelsPullContainer(sr *vllmv1alpha1.SemanticRouter, router corev1.Container, mounts []corev1.VolumeMount) corev1.Container {
	return corev1.Container{
		Name:                     initContainerName,
		Image:                    router.Image,
		ImagePullPolicy:          router.ImagePullPolicy,
		Args:                     []string{"models", "pull", "-config", configDir + "/" + configKey},
		Env:                      containerEnv(sr.Spec.Env),
		Resources:                router.Resources,
		SecurityContext:          router.SecurityContext,
		TerminationMessagePath:   terminationLog,
		TerminationMessagePolicy: corev1.TerminationMessageFallbackToLogsOnError,
		VolumeMounts: append([]corev1.VolumeMount{
			{Name: volumeConfig, MountPath: configDir, ReadOnly: true},
		}, mounts...),
	}
}

// addArtifacts lays the plan over the pod: the cache volume and mounts and,
// for InitContainer downloads, the init container.
func addArtifacts(sr *vllmv1alpha1.SemanticRouter, plan artifactPlan, pod *corev1.PodSpec, c *corev1.Container) {
	if !plan.active() {
		return
	}
	vols, router, init := artifactVolumes(sr, plan)
	pod.Volumes = append(pod.Volumes, vols...)
	c.VolumeMounts = append(c.VolumeMounts, router...)
	if plan.pulledBefore() {
		pod.InitContainers = []corev1.Container{modelsPullContainer(sr, *c, init)}
	}
}
