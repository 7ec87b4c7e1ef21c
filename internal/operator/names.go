package operator

import (
	"maps"

	vllmv1alpha1 "github.com/semantic-router/semantic-router/api/v1alpha1"
)

// Label keys and values on every owned object. The selector uses only the
// name and instance labels, which never change for a given router.
const (
	labelName      = "app.kubernetes.io/name"
	labelInstance  = "app.kubernetes.io/instance"
	labelComponent = "app.kubernetes.io/component"
	labelPartOf    = "app.kubernetes.io/part-of"
	labelManagedBy = "app.kubernetes.io/managed-by"
	labelVersion   = "app.kubernetes.io/version"

	appName   = "semantic-router"
	managedBy = "semantic-router-operator"

	// annotationConfigHash on the pod template changes whenever the rendered
	// config does, so a config change rolls the pods.
	annotationConfigHash = "semanticrouter.vllm.ai/config-hash"
	// annotationTemplateHash on the Deployment is the digest of the pod
	// template the operator last wrote.
	annotationTemplateHash = "semanticrouter.vllm.ai/template-hash"

	// configKey is the ConfigMap key the router reads, mounted at configDir.
	configKey = "config.yaml"
	configDir = "/etc/semantic-router"

	containerName = "semantic-router"
	fieldOwner    = "semantic-router-operator"
)

// selectorLabels select a router's pods.
func selectorLabels(sr *vllmv1alpha1.SemanticRouter) map[string]string {
	return map[string]string{
		labelName:     appName,
		labelInstance: sr.Name,
	}
}

// objectLabels are the recommended app.kubernetes.io labels for an owned object.
func objectLabels(sr *vllmv1alpha1.SemanticRouter) map[string]string {
	l := selectorLabels(sr)
	l[labelComponent] = "router"
	l[labelPartOf] = appName
	l[labelManagedBy] = managedBy
	if v := imageVersion(sr); v != "" {
		l[labelVersion] = v
	}
	return l
}

// mergeLabels returns existing with ours laid over it, so labels that others
// added survive while ours are repaired.
func mergeLabels(existing, ours map[string]string) map[string]string {
	out := make(map[string]string, len(existing)+len(ours))
	maps.Copy(out, existing)
	maps.Copy(out, ours)
	return out
}

func configMapName(sr *vllmv1alpha1.SemanticRouter) string { return sr.Name + "-config" }

// pvcName is the claim the router mounts: an existing one or the operator's.
func pvcName(sr *vllmv1alpha1.SemanticRouter) string {
	if c := sr.Spec.Persistence.ExistingClaim; c != nil && *c != "" {
		return *c
	}
	return ownedPVCName(sr)
}

// ownedPVCName is the claim the operator creates when no existing claim is
// named. It may outlive a spec change to existingClaim or persistence off:
// the operator never deletes a claim because of a spec edit.
func ownedPVCName(sr *vllmv1alpha1.SemanticRouter) string { return sr.Name + "-data" }

func serviceAccountName(sr *vllmv1alpha1.SemanticRouter) string {
	if n := sr.Spec.ServiceAccount.Name; n != "" {
		return n
	}
	return sr.Name
}

func createServiceAccount(sr *vllmv1alpha1.SemanticRouter) bool {
	c := sr.Spec.ServiceAccount.Create
	return c == nil || *c
}

// imageRef is repository@digest when a digest is pinned, else repository:tag.
func imageRef(sr *vllmv1alpha1.SemanticRouter) string {
	img := sr.Spec.Image
	repo := img.Repository
	if repo == "" {
		repo = vllmv1alpha1.DefaultImageRepository
	}
	if img.Digest != "" {
		return repo + "@" + img.Digest
	}
	return repo + ":" + imageVersion(sr)
}

// imageVersion is the tag in use; with only a digest there is no version label.
func imageVersion(sr *vllmv1alpha1.SemanticRouter) string {
	img := sr.Spec.Image
	switch {
	case img.Tag != "":
		return img.Tag
	case img.Digest != "":
		return ""
	default:
		return vllmv1alpha1.DefaultImageTag
	}
}
