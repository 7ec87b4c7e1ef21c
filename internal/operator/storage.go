package operator

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/controller-runtime/pkg/client"

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

// reconcilePVC validates persistence (storage_validation.go) and then
// creates the claim or grows it. A failed check creates or changes nothing;
// it is recorded in the StorageReady condition and returned. waiting is true
// while an existing claim (spec.persistence.existingClaim) is Pending.
func (r *Reconciler) reconcilePVC(ctx context.Context, sr *vllmv1alpha1.SemanticRouter) (waiting bool, err error) {
	if !persistenceEnabled(sr) {
		meta.RemoveStatusCondition(&sr.Status.Conditions, vllmv1alpha1.ConditionStorageReady)
		return false, nil
	}
	if !ownsPVC(sr) {
		// An existing claim is the user's: only its sharing is checked.
		pvc := &corev1.PersistentVolumeClaim{}
		err := r.Client.Get(ctx, client.ObjectKey{Namespace: sr.Namespace, Name: pvcName(sr)}, pvc)
		if err != nil {
			if !apierrors.IsNotFound(err) {
				return false, fmt.Errorf("persistentvolumeclaim %s: %w", pvcName(sr), err)
			}
			err := &missingDependencyError{"ClaimNotFound", fmt.Errorf("spec.persistence.existingClaim: persistentvolumeclaim %s not found", pvcName(sr))}
			markStorageFailed(sr, err)
			return false, err
		}
		// The operator does not watch a claim it does not own: a pending one
		// is looked at again at DependencyRetry.
		return r.setStorageReady(ctx, sr, pvc), nil
	}

	pvc := &corev1.PersistentVolumeClaim{}
	var existing *corev1.PersistentVolumeClaim
	switch err := r.Client.Get(ctx, client.ObjectKey{Namespace: sr.Namespace, Name: pvcName(sr)}, pvc); {
	case err == nil:
		// A claim of someone else's is refused before its size or class
		// is compared with the spec, which would only confuse the message.
		if err := checkControl(sr, pvc, "PersistentVolumeClaim"); err != nil {
			markStorageFailed(sr, err)
			return false, &objectError{kind: "PersistentVolumeClaim", err: err}
		}
		existing = pvc
	case !apierrors.IsNotFound(err):
		return false, fmt.Errorf("persistentvolumeclaim %s: %w", pvcName(sr), err)
	}
	change, err := r.validateStorage(ctx, sr, existing)
	if err != nil {
		markStorageFailed(sr, err)
		return false, err
	}
	pvc = &corev1.PersistentVolumeClaim{ObjectMeta: objectMeta(sr, pvcName(sr))}
	if err := r.ensure(ctx, sr, pvc, "persistentvolumeclaim", func() error {
		mutatePVC(pvc, sr, change)
		return nil
	}); err != nil {
		return false, err
	}
	r.setStorageReady(ctx, sr, pvc) // the claim's watch reports its binding
	return false, nil
}

// mutatePVC lays the validated change over pvc: the whole spec on create,
// then only labels and a larger size (a claim's spec is otherwise
// immutable).
func mutatePVC(pvc *corev1.PersistentVolumeClaim, sr *vllmv1alpha1.SemanticRouter, change storageChange) {
	pvc.Labels = mergeLabels(pvc.Labels, objectLabels(sr))
	if pvc.CreationTimestamp.IsZero() {
		class := change.class
		pvc.Spec = corev1.PersistentVolumeClaimSpec{
			AccessModes:      []corev1.PersistentVolumeAccessMode{accessMode(sr)},
			StorageClassName: &class,
			Resources: corev1.VolumeResourceRequirements{
				Requests: corev1.ResourceList{corev1.ResourceStorage: change.size},
			},
		}
		return
	}
	if cur := pvc.Spec.Resources.Requests[corev1.ResourceStorage]; cur.Cmp(change.size) < 0 {
		if pvc.Spec.Resources.Requests == nil {
			pvc.Spec.Resources.Requests = corev1.ResourceList{}
		}
		pvc.Spec.Resources.Requests[corev1.ResourceStorage] = change.size
	}
}
