package operator

import (
	"context"
	"errors"
	"fmt"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	vllmv1alpha1 "github.com/semantic-router/semantic-router/api/v1alpha1"
)

// TestForeignObjectsAreNeverTakenOver: an object that exists under a name
// the operator wants, and that this SemanticRouter does not control, is left
// exactly as it was; the reconcile stops with Degraded NameConflict naming
// it, and says so in one Warning event however often it runs again.
func TestForeignObjectsAreNeverTakenOver(t *testing.T) {
	requireAPIServer(t)
	noPersistence := vllmv1alpha1.PersistenceSpec{Enabled: ptr.To(false)}
	otherController := []metav1.OwnerReference{{
		APIVersion: "apps/v1", Kind: "Deployment", Name: "search", UID: types.UID("0b0e4a5c-0000-4000-8000-000000000001"),
		Controller: ptr.To(true),
	}}
	tests := []struct {
		name    string
		foreign client.Object
		spec    vllmv1alpha1.SemanticRouterSpec
		want    string
	}{
		{
			name: "configmap without owner",
			foreign: &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "victim-config"},
				Data: map[string]string{"important": "do not touch"}},
			spec: vllmv1alpha1.SemanticRouterSpec{Persistence: noPersistence},
			want: "ConfigMap victim-config already exists and it was not created by this SemanticRouter and has no controller; " +
				"the operator leaves it untouched: delete or rename it, or give the SemanticRouter another name",
		},
		{
			name: "service controlled by another object",
			foreign: &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: "victim", OwnerReferences: otherController},
				Spec: corev1.ServiceSpec{Selector: map[string]string{"app": "something-else"}, Ports: []corev1.ServicePort{{Name: "web", Port: 80}}}},
			spec: vllmv1alpha1.SemanticRouterSpec{Persistence: noPersistence},
			want: "Service victim already exists and its controller is Deployment search; " +
				"the operator leaves it untouched: delete or rename it, or give the SemanticRouter another name",
		},
		{
			name: "claim with the operator's labels but no owner",
			foreign: &corev1.PersistentVolumeClaim{
				ObjectMeta: metav1.ObjectMeta{Name: "victim-data", Labels: map[string]string{labelInstance: "victim", "team": "search"}},
				Spec: corev1.PersistentVolumeClaimSpec{
					AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
					Resources:   corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("10Gi")}},
				}},
			spec: vllmv1alpha1.SemanticRouterSpec{Persistence: vllmv1alpha1.PersistenceSpec{RetentionPolicy: vllmv1alpha1.RetentionDelete}},
			want: "PersistentVolumeClaim victim-data already exists and it was not created by this SemanticRouter and has no controller; " +
				"the operator leaves it untouched: delete or rename it, or give the SemanticRouter another name",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			ns := newNamespace(t)
			tt.foreign.SetNamespace(ns)
			if err := k8sClient.Create(ctx, tt.foreign); err != nil {
				t.Fatal(err)
			}
			before := tt.foreign.DeepCopyObject().(client.Object)
			createSR(t, ns, "victim", tt.spec)
			sr := waitDegraded(t, ns, "victim", reasonNameConflict)
			if c := meta.FindStatusCondition(sr.Status.Conditions, vllmv1alpha1.ConditionDegraded); c.Message != tt.want {
				t.Errorf("Degraded message\n got: %s\nwant: %s", c.Message, tt.want)
			}

			// A new generation runs the reconcile again with the same refusal.
			updateSR(t, ns, "victim", func(sr *vllmv1alpha1.SemanticRouter) { sr.Spec.Replicas = ptr.To(int32(2)) })
			waitDegraded(t, ns, "victim", reasonNameConflict)

			after := before.DeepCopyObject().(client.Object)
			if err := k8sClient.Get(ctx, client.ObjectKeyFromObject(before), after); err != nil {
				t.Fatal(err)
			}
			if after.GetResourceVersion() != before.GetResourceVersion() {
				t.Errorf("%T %s was written (resourceVersion %s -> %s); owners now %+v, labels %v",
					after, after.GetName(), before.GetResourceVersion(), after.GetResourceVersion(), after.GetOwnerReferences(), after.GetLabels())
			}
			var conflicts []string
			for _, e := range namespaceEvents(t, ns).Items {
				if e.Reason == reasonNameConflict {
					conflicts = append(conflicts, e.Note)
					if e.Series != nil {
						t.Errorf("NameConflict event repeated %d times, want once", e.Series.Count)
					}
				}
			}
			if len(conflicts) != 1 || conflicts[0] != tt.want {
				t.Errorf("NameConflict events = %q, want one: %s", conflicts, tt.want)
			}
		})
	}
}

// TestRetainedClaimIsTakenBack: the claim the finalizer kept under
// retentionPolicy Retain is marked, and a SemanticRouter re-created under
// the same name controls it again, data and all.
func TestRetainedClaimIsTakenBack(t *testing.T) {
	requireAPIServer(t)
	ctx := context.Background()
	ns := newNamespace(t)
	createSR(t, ns, "router", vllmv1alpha1.SemanticRouterSpec{})
	first := waitReconciled(t, ns, "router")
	if err := k8sClient.Delete(ctx, first); err != nil {
		t.Fatal(err)
	}
	waitGone(t, &vllmv1alpha1.SemanticRouter{ObjectMeta: key(ns, "router")})
	pvc := &corev1.PersistentVolumeClaim{ObjectMeta: key(ns, "router-data")}
	waitFor(t, pvc, nil)
	if got := pvc.Annotations[annotationRetainedFrom]; got != "router" || metav1.GetControllerOf(pvc) != nil {
		t.Fatalf("retained claim: annotation %q, controller %+v; want router and none", got, metav1.GetControllerOf(pvc))
	}
	uid := pvc.UID

	createSR(t, ns, "router", vllmv1alpha1.SemanticRouterSpec{})
	// envtest runs no garbage collector: until it would have removed the
	// first router's objects, the second one is told why it waits.
	sr := waitDegraded(t, ns, "router", reasonNameConflict)
	want := fmt.Sprintf("ServiceAccount router already exists and its controller is a deleted SemanticRouter router (uid %s) "+
		"whose objects the garbage collector has not removed yet; the operator leaves it untouched: "+
		"delete or rename it, or give the SemanticRouter another name", first.UID)
	if c := meta.FindStatusCondition(sr.Status.Conditions, vllmv1alpha1.ConditionDegraded); c.Message != want {
		t.Errorf("Degraded message\n got: %s\nwant: %s", c.Message, want)
	}
	collectGarbage(t, ns, first.UID)
	second := waitReconciled(t, ns, "router")
	waitFor(t, pvc, func() error {
		if metav1.GetControllerOf(pvc) == nil {
			return errors.New("claim has no controller yet")
		}
		return nil
	})
	checkOwned(t, pvc, second)
	if pvc.UID != uid {
		t.Errorf("claim was replaced: uid %s, want %s", pvc.UID, uid)
	}
	if _, ok := pvc.Annotations[annotationRetainedFrom]; ok {
		t.Errorf("annotation %s kept after the claim was taken back: %v", annotationRetainedFrom, pvc.Annotations)
	}
}

// collectGarbage deletes what the garbage collector would once the
// SemanticRouter with uid is gone: the objects it controls.
func collectGarbage(t *testing.T, ns string, uid types.UID) {
	t.Helper()
	ctx := context.Background()
	for _, list := range []client.ObjectList{
		&corev1.ServiceAccountList{}, &corev1.ConfigMapList{}, &corev1.ServiceList{}, &appsv1.DeploymentList{},
	} {
		if err := k8sClient.List(ctx, list, client.InNamespace(ns)); err != nil {
			t.Fatal(err)
		}
		if err := meta.EachListItem(list, func(o runtime.Object) error {
			obj := o.(client.Object)
			if ref := metav1.GetControllerOf(obj); ref != nil && ref.UID == uid {
				return client.IgnoreNotFound(k8sClient.Delete(ctx, obj))
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
}
