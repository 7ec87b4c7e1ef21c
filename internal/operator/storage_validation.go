package operator

import (
	"context"
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	vllmv1alpha1 "github.com/semantic-router/semantic-router/api/v1alpha1"
)

// Storage annotations and condition reasons.
const (
	annotationDefaultClass     = "storageclass.kubernetes.io/is-default-class"
	annotationDefaultClassBeta = "storageclass.beta.kubernetes.io/is-default-class"

	reasonStorageClassNotFound    = "StorageClassNotFound"
	reasonNoDefaultStorageClass   = "NoDefaultStorageClass"
	reasonStorageShrinkRefused    = "StorageShrinkRefused"
	reasonStorageExpansionRefused = "StorageExpansionNotAllowed"
	reasonClaimNotBound           = "StorageClaimNotBound"
	reasonStorageClassChange      = "StorageClassChangeRefused"
	reasonAccessModeChange        = "AccessModeChangeRefused"
	reasonReadWriteOnceShared     = "ReadWriteOnceShared"
	reasonClaimReady              = "ClaimReconciled"
	reasonClaimPending            = "ClaimPending"
	reasonWaitingForFirstConsumer = "WaitingForFirstConsumer"
)

// storageChange is what the operator may do to the claim for the spec.
type storageChange struct {
	create bool
	// class is the storage class of a claim to create ("" never: a claim is
	// created only once a class was found).
	class string
	// size is the requested size; for an existing claim it differs from
	// the claim's only when growth is allowed.
	size resource.Quantity
}

// validateStorage checks spec.persistence against the cluster and the
// existing claim (nil when there is none yet), as the operations guide's
// storage_validation.go does:
//
//   - no class named: the cluster's default class (annotation
//     storageclass.kubernetes.io/is-default-class=true) must exist;
//   - a named class must exist;
//   - an existing claim may only grow, and only where its class allows
//     volume expansion; a shrink, a class change or an access-mode change
//     is refused, never ignored.
//
// A refusal is an error whose reason names it; the caller reports it as a
// condition and a Warning event, and creates or changes no claim.
func (r *Reconciler) validateStorage(ctx context.Context, sr *vllmv1alpha1.SemanticRouter, existing *corev1.PersistentVolumeClaim) (storageChange, error) {
	size, err := pvcSize(sr)
	if err != nil {
		return storageChange{}, &specError{reason: reasonReconcileFailed, err: err}
	}
	named := sr.Spec.Persistence.StorageClassName
	if existing == nil {
		class, err := r.resolveStorageClass(ctx, named)
		if err != nil {
			return storageChange{}, err
		}
		return storageChange{create: true, class: class.Name, size: size}, nil
	}

	claim := existing.Name
	var refusals []string
	reason := ""
	refuse := func(why, msg string) {
		if reason == "" {
			reason = why
		}
		refusals = append(refusals, msg)
	}
	current := ptrValue(existing.Spec.StorageClassName)
	if named != nil && *named != "" && *named != current {
		refuse(reasonStorageClassChange, fmt.Sprintf("spec.persistence.storageClassName: claim %s uses storage class %q and a claim's class cannot change (asked: %q); back up the data, then replace the claim", claim, current, *named))
	}
	if mode := accessMode(sr); !slices.Contains(existing.Spec.AccessModes, mode) {
		refuse(reasonAccessModeChange, fmt.Sprintf("spec.persistence.accessMode: claim %s has access modes %s and they cannot change (asked: %s); back up the data, then replace the claim", claim, joinModes(existing.Spec.AccessModes), mode))
	}
	have := existing.Spec.Resources.Requests[corev1.ResourceStorage]
	switch cmp := size.Cmp(have); {
	case cmp < 0:
		refuse(reasonStorageShrinkRefused, fmt.Sprintf("spec.persistence.size: claim %s has %s and a claim cannot shrink (asked: %s)", claim, have.String(), size.String()))
	case cmp > 0 && existing.Status.Phase != corev1.ClaimBound:
		refuse(reasonClaimNotBound, fmt.Sprintf("spec.persistence.size: claim %s is %s, not Bound; it can grow from %s to %s once a volume is bound to it",
			claim, phaseOr(existing.Status.Phase), have.String(), size.String()))
	case cmp > 0:
		class := &storagev1.StorageClass{}
		err := r.Client.Get(ctx, client.ObjectKey{Name: current}, class)
		switch {
		case apierrors.IsNotFound(err) || current == "":
			refuse(reasonStorageExpansionRefused, fmt.Sprintf("spec.persistence.size: claim %s cannot grow from %s to %s: its storage class %q does not exist", claim, have.String(), size.String(), current))
		case err != nil:
			return storageChange{}, fmt.Errorf("storageclass %s: %w", current, err)
		case class.AllowVolumeExpansion == nil || !*class.AllowVolumeExpansion:
			refuse(reasonStorageExpansionRefused, fmt.Sprintf("spec.persistence.size: claim %s cannot grow from %s to %s: storage class %q does not allow volume expansion", claim, have.String(), size.String(), current))
		}
	}
	if len(refusals) > 0 {
		return storageChange{}, &specError{reason: reason, err: fmt.Errorf("%s", strings.Join(refusals, "; "))}
	}
	if size.Cmp(have) < 0 {
		size = have
	}
	return storageChange{class: current, size: size}, nil
}

// resolveStorageClass finds the named class, or the cluster's default when
// none is named. A missing class is retried: creating it fixes the spec.
func (r *Reconciler) resolveStorageClass(ctx context.Context, named *string) (*storagev1.StorageClass, error) {
	if named != nil && *named != "" {
		class := &storagev1.StorageClass{}
		if err := r.Client.Get(ctx, client.ObjectKey{Name: *named}, class); err != nil {
			if apierrors.IsNotFound(err) {
				return nil, &missingDependencyError{reasonStorageClassNotFound, fmt.Errorf(
					"spec.persistence.storageClassName: storage class %q not found; no claim was created", *named)}
			}
			return nil, fmt.Errorf("storageclass %s: %w", *named, err)
		}
		return class, nil
	}
	var list storagev1.StorageClassList
	if err := r.Client.List(ctx, &list); err != nil {
		return nil, fmt.Errorf("listing storage classes: %w", err)
	}
	// As the API server's admission plugin does, the newest default wins
	// when several are marked.
	var def *storagev1.StorageClass
	for i := range list.Items {
		c := &list.Items[i]
		if c.Annotations[annotationDefaultClass] != "true" && c.Annotations[annotationDefaultClassBeta] != "true" {
			continue
		}
		if def == nil || c.CreationTimestamp.After(def.CreationTimestamp.Time) ||
			(c.CreationTimestamp.Equal(&def.CreationTimestamp) && c.Name < def.Name) {
			def = c
		}
	}
	if def == nil {
		return nil, &missingDependencyError{reasonNoDefaultStorageClass, fmt.Errorf(
			"spec.persistence.storageClassName is empty and the cluster has no default storage class (annotation %s=true); name a class or mark one as default; no claim was created",
			annotationDefaultClass)}
	}
	return def, nil
}

// setStorageReady records the storage condition after a successful
// persistence step and reports whether the claim is still Pending:
//
//	Pending, class binds at once (Immediate)  -> False ClaimPending: no volume, pods that mount it cannot start
//	ReadWriteOnce claim mounted by several pods -> True ReadWriteOnceShared, with a Warning event once per transition
//	Pending, class binds for the first pod    -> Unknown WaitingForFirstConsumer: normal before the first pod
//	otherwise                                 -> True ClaimReconciled
func (r *Reconciler) setStorageReady(ctx context.Context, sr *vllmv1alpha1.SemanticRouter, pvc *corev1.PersistentVolumeClaim) (pending bool) {
	claim, modes := pvc.Name, pvc.Spec.AccessModes
	c := metav1.Condition{Type: vllmv1alpha1.ConditionStorageReady, Status: metav1.ConditionTrue, ObservedGeneration: sr.Generation,
		Reason: reasonClaimReady, Message: fmt.Sprintf("claim %s (%s)", claim, joinModes(modes))}
	pending = pvc.Status.Phase == "" || pvc.Status.Phase == corev1.ClaimPending
	class := ptrValue(pvc.Spec.StorageClassName)
	waitsForPod := pending && r.bindsForFirstPod(ctx, class)
	shared := autoscalingEnabled(sr) || desiredReplicas(sr) > 1
	switch {
	case pending && !waitsForPod:
		c.Status, c.Reason = metav1.ConditionFalse, reasonClaimPending
		c.Message = fmt.Sprintf("claim %s (storage class %q) is Pending: no volume is bound to it, and pods that use it cannot start until it binds; "+
			"kubectl describe pvc %s shows why", claim, class, claim)
	case shared && slices.Contains(modes, corev1.ReadWriteOnce) && !slices.Contains(modes, corev1.ReadWriteMany):
		c.Reason = reasonReadWriteOnceShared
		c.Message = fmt.Sprintf("claim %s is ReadWriteOnce but %s; pods scheduled on another node cannot mount it: use ReadWriteMany or one replica",
			claim, sharedBy(sr))
		r.warnOnChange(sr, reasonReadWriteOnceShared, reasonReadWriteOnceShared, c.Message)
	case waitsForPod:
		c.Status, c.Reason = metav1.ConditionUnknown, reasonWaitingForFirstConsumer
		c.Message = fmt.Sprintf("claim %s (storage class %q) is Pending until the first pod that uses it is scheduled "+
			"(volumeBindingMode WaitForFirstConsumer); that is normal before the router's first pod starts", claim, class)
	}
	if c.Reason != reasonReadWriteOnceShared {
		r.memo.clear(sr.UID, reasonReadWriteOnceShared)
	}
	meta.SetStatusCondition(&sr.Status.Conditions, c)
	return pending
}

// bindsForFirstPod reports whether the storage class binds its volumes when
// the first pod using a claim is scheduled. A class that cannot be read
// counts as binding at once, so a claim stuck Pending is never excused.
func (r *Reconciler) bindsForFirstPod(ctx context.Context, class string) bool {
	if class == "" {
		return false
	}
	sc := &storagev1.StorageClass{}
	if err := r.Client.Get(ctx, client.ObjectKey{Name: class}, sc); err != nil {
		return false
	}
	return sc.VolumeBindingMode != nil && *sc.VolumeBindingMode == storagev1.VolumeBindingWaitForFirstConsumer
}

func sharedBy(sr *vllmv1alpha1.SemanticRouter) string {
	if autoscalingEnabled(sr) {
		return fmt.Sprintf("the HPA may run up to %d replicas", hpaMaxReplicas(sr))
	}
	return fmt.Sprintf("spec.replicas is %d", desiredReplicas(sr))
}

// markStorageFailed records a storage failure of reason in the condition.
func markStorageFailed(sr *vllmv1alpha1.SemanticRouter, err error) {
	meta.SetStatusCondition(&sr.Status.Conditions, metav1.Condition{
		Type: vllmv1alpha1.ConditionStorageReady, Status: metav1.ConditionFalse, ObservedGeneration: sr.Generation,
		Reason: failureReason(err), Message: err.Error(),
	})
}

func accessMode(sr *vllmv1alpha1.SemanticRouter) corev1.PersistentVolumeAccessMode {
	if m := sr.Spec.Persistence.AccessMode; m != "" {
		return m
	}
	return corev1.ReadWriteOnce
}

func joinModes(modes []corev1.PersistentVolumeAccessMode) string {
	s := make([]string, len(modes))
	for i, m := range modes {
		s[i] = string(m)
	}
	return strings.Join(s, ",")
}

func phaseOr(p corev1.PersistentVolumeClaimPhase) string {
	if p == "" {
		return "Pending"
	}
	return string(p)
}

func ptrValue(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
