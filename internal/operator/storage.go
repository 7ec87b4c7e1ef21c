package operator

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	vllmv1alpha1 "github.com/semantic-router/semantic-router/api/v1alpha1"
)

// ownsPVC reports whether the operator creates the router's claim (as
// opposed to mounting an existing one, or none).
func ownsPVC(sr *vllmv1alpha1.SemanticRouter) bool {
	c := sr.Spec.Persistence.ExistingClaim
	return persistenceEnabled(sr) && (c == nil || *c == "")
}

// pvcSize parses spec.persistence.size, defaulting to 10Gi.
func pvcSize(sr *vllmv1alpha1.SemanticRouter) (resource.Quantity, error) {
	s := vllmv1alpha1.DefaultPVCSize
	if p := sr.Spec.Persistence.Size; p != nil && *p != "" {
		s = *p
	}
	q, err := resource.ParseQuantity(s)
	if err != nil {
		return resource.Quantity{}, fmt.Errorf("spec.persistence.size: %w", err)
	}
	return q, nil
}

// mutatePVC lays the desired claim over pvc. A claim's spec is immutable
// after creation except for growing its size, so only labels are repaired
// on an existing claim and the size only grows.
//
// Storage class validation (the named class must exist; an empty name needs
// a default class) belongs before this call and comes in a later increment.
func mutatePVC(pvc *corev1.PersistentVolumeClaim, sr *vllmv1alpha1.SemanticRouter) error {
	size, err := pvcSize(sr)
	if err != nil {
		return err
	}
	pvc.Labels = mergeLabels(pvc.Labels, objectLabels(sr))
	if pvc.CreationTimestamp.IsZero() {
		mode := sr.Spec.Persistence.AccessMode
		if mode == "" {
			mode = corev1.ReadWriteOnce
		}
		pvc.Spec = corev1.PersistentVolumeClaimSpec{
			AccessModes:      []corev1.PersistentVolumeAccessMode{mode},
			StorageClassName: sr.Spec.Persistence.StorageClassName,
			Resources: corev1.VolumeResourceRequirements{
				Requests: corev1.ResourceList{corev1.ResourceStorage: size},
			},
		}
		return nil
	}
	if cur := pvc.Spec.Resources.Requests[corev1.ResourceStorage]; cur.Cmp(size) < 0 {
		if pvc.Spec.Resources.Requests == nil {
			pvc.Spec.Resources.Requests = corev1.ResourceList{}
		}
		pvc.Spec.Resources.Requests[corev1.ResourceStorage] = size
	}
	return nil
}
