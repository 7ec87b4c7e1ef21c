package operator

import (
	"context"
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	vllmv1alpha1 "github.com/semantic-router/semantic-router/api/v1alpha1"
)

// bindPVC marks the claim Bound, as the volume controller would once a
// volume is provisioned (envtest runs no controllers).
func bindPVC(t *testing.T, ns, name string) {
	t.Helper()
	eventually(t, "binding the claim", func(ctx context.Context) (bool, error) {
		pvc := &corev1.PersistentVolumeClaim{}
		if err := k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, pvc); err != nil {
			return false, err
		}
		pvc.Status.Phase = corev1.ClaimBound
		pvc.Status.Capacity = pvc.Spec.Resources.Requests
		return true, k8sClient.Status().Update(ctx, pvc)
	})
}

func claimSize(t *testing.T, ns, name string) string {
	t.Helper()
	pvc := &corev1.PersistentVolumeClaim{ObjectMeta: key(ns, name)}
	waitFor(t, pvc, nil)
	q := pvc.Spec.Resources.Requests[corev1.ResourceStorage]
	return fmt.Sprintf("%s %s %s", ptrValue(pvc.Spec.StorageClassName), pvc.Spec.AccessModes[0], q.String())
}

func TestStorageClassResolution(t *testing.T) {
	requireAPIServer(t)

	t.Run("default class found", func(t *testing.T) {
		ns := newNamespace(t)
		createSR(t, ns, "router", vllmv1alpha1.SemanticRouterSpec{})
		sr := waitReconciled(t, ns, "router")
		if got := claimSize(t, ns, "router-data"); got != "standard ReadWriteOnce 10Gi" {
			t.Errorf("claim = %s, want the default class", got)
		}
		// envtest binds nothing: the claim stays Pending until bindPVC.
		const pending = `claim router-data (storage class "standard") is Pending: no volume is bound to it, ` +
			`and pods that use it cannot start until it binds; kubectl describe pvc router-data shows why`
		c := meta.FindStatusCondition(sr.Status.Conditions, vllmv1alpha1.ConditionStorageReady)
		if c == nil || c.Status != metav1.ConditionFalse || c.Reason != reasonClaimPending || c.Message != pending {
			t.Errorf("StorageReady = %+v, want False %s: %s", c, reasonClaimPending, pending)
		}
		bindPVC(t, ns, "router-data")
		waitStorageReady(t, ns, "router", "True/ClaimReconciled")
	})

	t.Run("class that binds for the first pod", func(t *testing.T) {
		ns := newNamespace(t)
		class := &storagev1.StorageClass{ObjectMeta: metav1.ObjectMeta{Name: ns + "-wffc"}, Provisioner: "example.com/wffc",
			VolumeBindingMode: ptr.To(storagev1.VolumeBindingWaitForFirstConsumer)}
		if err := k8sClient.Create(context.Background(), class); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = k8sClient.Delete(context.Background(), class) })
		createSR(t, ns, "router", vllmv1alpha1.SemanticRouterSpec{Persistence: vllmv1alpha1.PersistenceSpec{StorageClassName: ptr.To(class.Name)}})
		sr := waitReconciled(t, ns, "router")
		want := fmt.Sprintf(`claim router-data (storage class %q) is Pending until the first pod that uses it is scheduled `+
			`(volumeBindingMode WaitForFirstConsumer); that is normal before the router's first pod starts`, class.Name)
		c := meta.FindStatusCondition(sr.Status.Conditions, vllmv1alpha1.ConditionStorageReady)
		if c == nil || c.Status != metav1.ConditionUnknown || c.Reason != reasonWaitingForFirstConsumer || c.Message != want {
			t.Errorf("StorageReady = %+v, want Unknown %s: %s", c, reasonWaitingForFirstConsumer, want)
		}
		bindPVC(t, ns, "router-data")
		waitStorageReady(t, ns, "router", "True/ClaimReconciled")
	})

	t.Run("named class missing", func(t *testing.T) {
		ns := newNamespace(t)
		createSR(t, ns, "router", vllmv1alpha1.SemanticRouterSpec{Persistence: vllmv1alpha1.PersistenceSpec{StorageClassName: ptr.To("fast")}})
		sr := waitDegraded(t, ns, "router", reasonStorageClassNotFound)
		const want = `spec.persistence.storageClassName: storage class "fast" not found; no claim was created`
		c := meta.FindStatusCondition(sr.Status.Conditions, vllmv1alpha1.ConditionStorageReady)
		if c == nil || c.Status != "False" || c.Reason != reasonStorageClassNotFound || c.Message != want {
			t.Errorf("StorageReady = %+v", c)
		}
		if ev := waitEvent(t, ns, "router", reasonStorageClassNotFound); ev.Type != corev1.EventTypeWarning || ev.Note != want {
			t.Errorf("event = %s %q", ev.Type, ev.Note)
		}
		requireAbsent(t, &corev1.PersistentVolumeClaim{}, ns, "router-data")
		updateSR(t, ns, "router", func(sr *vllmv1alpha1.SemanticRouter) { sr.Spec.Persistence.StorageClassName = ptr.To(expandableClass) })
		waitReconciled(t, ns, "router")
		if got := claimSize(t, ns, "router-data"); got != "expandable ReadWriteOnce 10Gi" {
			t.Errorf("claim = %s", got)
		}
	})

	// Runs with the cluster's default class unmarked; no other test of this
	// package runs meanwhile (none is parallel).
	t.Run("default class missing", func(t *testing.T) {
		setDefaultClass(t, "false")
		t.Cleanup(func() { setDefaultClass(t, "true") })
		ns := newNamespace(t)
		createSR(t, ns, "router", vllmv1alpha1.SemanticRouterSpec{})
		sr := waitDegraded(t, ns, "router", reasonNoDefaultStorageClass)
		const want = "spec.persistence.storageClassName is empty and the cluster has no default storage class " +
			"(annotation storageclass.kubernetes.io/is-default-class=true); name a class or mark one as default; no claim was created"
		if c := meta.FindStatusCondition(sr.Status.Conditions, vllmv1alpha1.ConditionDegraded); c.Message != want {
			t.Errorf("Degraded = %q", c.Message)
		}
		waitEvent(t, ns, "router", reasonNoDefaultStorageClass)
		requireAbsent(t, &corev1.PersistentVolumeClaim{}, ns, "router-data")
		setDefaultClass(t, "true")
		waitReconciled(t, ns, "router")
		if got := claimSize(t, ns, "router-data"); got != "standard ReadWriteOnce 10Gi" {
			t.Errorf("claim = %s", got)
		}
	})
}

func setDefaultClass(t *testing.T, value string) {
	t.Helper()
	eventually(t, "marking the default class "+value, func(ctx context.Context) (bool, error) {
		sc := &storagev1.StorageClass{}
		if err := k8sClient.Get(ctx, client.ObjectKey{Name: defaultClass}, sc); err != nil {
			return false, err
		}
		sc.Annotations[annotationDefaultClass] = value
		return true, k8sClient.Update(ctx, sc)
	})
}

// TestStorageChanges: a claim grows where its class allows expansion; a
// growth elsewhere, a shrink, a class change and an access-mode change are
// refused with a Warning event and the condition, and the claim is kept.
func TestStorageChanges(t *testing.T) {
	requireAPIServer(t)
	tests := []struct {
		name     string
		class    string
		change   func(*vllmv1alpha1.PersistenceSpec)
		reason   string
		message  string
		wantSize string
	}{
		{name: "growth allowed", class: expandableClass, change: func(p *vllmv1alpha1.PersistenceSpec) { p.Size = ptr.To("20Gi") },
			wantSize: "expandable ReadWriteOnce 20Gi"},
		{name: "growth refused", class: defaultClass, change: func(p *vllmv1alpha1.PersistenceSpec) { p.Size = ptr.To("20Gi") },
			reason: reasonStorageExpansionRefused, wantSize: "standard ReadWriteOnce 10Gi",
			message: `spec.persistence.size: claim router-data cannot grow from 10Gi to 20Gi: storage class "standard" does not allow volume expansion`},
		{name: "shrink refused", class: expandableClass, change: func(p *vllmv1alpha1.PersistenceSpec) { p.Size = ptr.To("5Gi") },
			reason: reasonStorageShrinkRefused, wantSize: "expandable ReadWriteOnce 10Gi",
			message: "spec.persistence.size: claim router-data has 10Gi and a claim cannot shrink (asked: 5Gi)"},
		{name: "class change refused", class: defaultClass, change: func(p *vllmv1alpha1.PersistenceSpec) { p.StorageClassName = ptr.To(expandableClass) },
			reason: reasonStorageClassChange, wantSize: "standard ReadWriteOnce 10Gi",
			message: `spec.persistence.storageClassName: claim router-data uses storage class "standard" and a claim's class cannot change (asked: "expandable"); back up the data, then replace the claim`},
		{name: "access mode change refused", class: defaultClass, change: func(p *vllmv1alpha1.PersistenceSpec) { p.AccessMode = corev1.ReadWriteMany },
			reason: reasonAccessModeChange, wantSize: "standard ReadWriteOnce 10Gi",
			message: "spec.persistence.accessMode: claim router-data has access modes ReadWriteOnce and they cannot change (asked: ReadWriteMany); back up the data, then replace the claim"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ns := newNamespace(t)
			createSR(t, ns, "router", vllmv1alpha1.SemanticRouterSpec{Persistence: vllmv1alpha1.PersistenceSpec{StorageClassName: ptr.To(tt.class)}})
			waitReconciled(t, ns, "router")
			bindPVC(t, ns, "router-data")
			updateSR(t, ns, "router", func(sr *vllmv1alpha1.SemanticRouter) { tt.change(&sr.Spec.Persistence) })
			if tt.reason == "" {
				waitReconciled(t, ns, "router")
				if got := claimSize(t, ns, "router-data"); got != tt.wantSize {
					t.Errorf("claim = %s, want %s", got, tt.wantSize)
				}
				return
			}
			sr := waitDegraded(t, ns, "router", tt.reason)
			c := meta.FindStatusCondition(sr.Status.Conditions, vllmv1alpha1.ConditionStorageReady)
			if c == nil || c.Status != "False" || c.Reason != tt.reason || c.Message != tt.message {
				t.Errorf("StorageReady = %+v, want False/%s %q", c, tt.reason, tt.message)
			}
			if ev := waitEvent(t, ns, "router", tt.reason); ev.Type != corev1.EventTypeWarning || ev.Note != tt.message {
				t.Errorf("event = %s %q", ev.Type, ev.Note)
			}
			if got := claimSize(t, ns, "router-data"); got != tt.wantSize {
				t.Errorf("claim = %s, want %s (kept)", got, tt.wantSize)
			}
		})
	}
}

// TestReadWriteOnceShared: an RWO claim with several replicas or the HPA is
// warned about (condition and Warning event), not refused.
func TestReadWriteOnceShared(t *testing.T) {
	requireAPIServer(t)
	tests := []struct {
		name    string
		spec    vllmv1alpha1.SemanticRouterSpec
		message string
	}{
		{"replicas", vllmv1alpha1.SemanticRouterSpec{Replicas: ptr.To[int32](3)},
			"claim router-data is ReadWriteOnce but spec.replicas is 3; pods scheduled on another node cannot mount it: use ReadWriteMany or one replica"},
		{"hpa", vllmv1alpha1.SemanticRouterSpec{Autoscaling: vllmv1alpha1.AutoscalingSpec{Enabled: true, MinReplicas: 2, MaxReplicas: 10, TargetCPUUtilizationPercentage: 70}},
			"claim router-data is ReadWriteOnce but the HPA may run up to 10 replicas; pods scheduled on another node cannot mount it: use ReadWriteMany or one replica"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ns := newNamespace(t)
			createSR(t, ns, "router", tt.spec)
			waitReconciled(t, ns, "router")
			bindPVC(t, ns, "router-data")
			sr := waitStorageReady(t, ns, "router", "True/"+reasonReadWriteOnceShared)
			c := meta.FindStatusCondition(sr.Status.Conditions, vllmv1alpha1.ConditionStorageReady)
			if c == nil || c.Status != "True" || c.Reason != reasonReadWriteOnceShared || c.Message != tt.message {
				t.Errorf("StorageReady = %+v", c)
			}
			if ev := waitEvent(t, ns, "router", reasonReadWriteOnceShared); ev.Type != corev1.EventTypeWarning || ev.Note != tt.message {
				t.Errorf("event = %s %q", ev.Type, ev.Note)
			}
		})
	}
}

// waitStorageReady waits for StorageReady status/reason for the current
// generation and returns the SemanticRouter then.
func waitStorageReady(t *testing.T, ns, name, want string) *vllmv1alpha1.SemanticRouter {
	t.Helper()
	var out *vllmv1alpha1.SemanticRouter
	eventually(t, "StorageReady "+want, func(ctx context.Context) (bool, error) {
		sr, err := getSR(ctx, ns, name)
		if err != nil {
			return false, err
		}
		out = sr
		got := conditionStatus(sr, vllmv1alpha1.ConditionStorageReady)
		return got == fmt.Sprintf("%s@%d", want, sr.Generation), fmt.Errorf("StorageReady = %s", got)
	})
	return out
}
