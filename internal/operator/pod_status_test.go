package operator

import (
	"context"
	"fmt"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	vllmv1alpha1 "github.com/semantic-router/semantic-router/api/v1alpha1"
)

func waitingPod(name string, deleting bool, init, main []corev1.ContainerStatus) corev1.Pod {
	p := corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name}, Status: corev1.PodStatus{InitContainerStatuses: init, ContainerStatuses: main}}
	if deleting {
		p.DeletionTimestamp = &metav1.Time{}
	}
	return p
}

func waiting(name, reason, msg string) corev1.ContainerStatus {
	return corev1.ContainerStatus{Name: name, State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: reason, Message: msg}}}
}

func TestPodWaitingProblem(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", maxWaitingBytes+10)
	tests := []struct {
		name string
		pods []corev1.Pod
		want string
	}{
		{"no pods", nil, ""},
		{"starting normally", []corev1.Pod{waitingPod("a", false, nil, []corev1.ContainerStatus{waiting("router", "ContainerCreating", "")})}, ""},
		{"image pull back-off", []corev1.Pod{waitingPod("router-1", false, nil, []corev1.ContainerStatus{
			waiting("router", "ImagePullBackOff", `Back-off pulling image "ghcr.io/x/vllm-sr:v9"`)})},
			`pod router-1: container router is waiting: ImagePullBackOff: Back-off pulling image "ghcr.io/x/vllm-sr:v9"`},
		{"first pod by name, deleting ones skipped", []corev1.Pod{
			waitingPod("router-b", false, nil, []corev1.ContainerStatus{waiting("router", "CrashLoopBackOff", "back-off 10s restarting failed container")}),
			waitingPod("router-0", true, nil, []corev1.ContainerStatus{waiting("router", "ErrImagePull", "")}),
			waitingPod("router-a", false, nil, []corev1.ContainerStatus{waiting("router", "ErrImagePull", "")}),
		}, "pod router-a: container router is waiting: ErrImagePull"},
		{"init container first", []corev1.Pod{waitingPod("router-1", false,
			[]corev1.ContainerStatus{waiting(initContainerName, "CrashLoopBackOff", "back-off 20s")},
			[]corev1.ContainerStatus{waiting("router", "PodInitializing", "")})},
			"pod router-1: container models-pull is waiting: CrashLoopBackOff: back-off 20s"},
		{"long message bounded", []corev1.Pod{waitingPod("p", false, nil, []corev1.ContainerStatus{waiting("router", "CreateContainerConfigError", long)})},
			"pod p: container router is waiting: CreateContainerConfigError: " + long[:maxWaitingBytes] + "…"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := podWaitingProblem(tt.pods); got != tt.want {
				t.Errorf("podWaitingProblem =\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

// TestAvailableSaysWhyNoPodRuns: with no replica ready, Available names a
// router pod and the reason its container waits, and follows it as the
// kubelet reports a new one.
func TestAvailableSaysWhyNoPodRuns(t *testing.T) {
	requireAPIServer(t)
	ctx := context.Background()
	ns := newNamespace(t)
	createSR(t, ns, "router", vllmv1alpha1.SemanticRouterSpec{})
	waitReconciled(t, ns, "router")
	dep := &appsv1.Deployment{ObjectMeta: key(ns, "router")}
	waitFor(t, dep, nil)
	setRollout(t, ns, "router", 1, 1, 0)

	tmpl := dep.Spec.Template
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "router-abc12", Labels: tmpl.Labels, Annotations: tmpl.Annotations},
		Spec:       tmpl.Spec,
	}
	if err := k8sClient.Create(ctx, pod); err != nil {
		t.Fatalf("creating pod: %v", err)
	}
	image := tmpl.Spec.Containers[0].Image
	for _, tt := range []struct{ reason, message, want string }{
		{"ImagePullBackOff", `Back-off pulling image "` + image + `"`,
			`0/1 replicas ready, 1 updated; pod router-abc12: container semantic-router is waiting: ImagePullBackOff: Back-off pulling image "` + image + `"`},
		{"CrashLoopBackOff", "back-off 40s restarting failed container=router pod=router-abc12",
			"0/1 replicas ready, 1 updated; pod router-abc12: container semantic-router is waiting: CrashLoopBackOff: back-off 40s restarting failed container=router pod=router-abc12"},
	} {
		eventually(t, "writing pod status", func(ctx context.Context) (bool, error) {
			if err := k8sClient.Get(ctx, client.ObjectKeyFromObject(pod), pod); err != nil {
				return false, err
			}
			pod.Status.Phase = corev1.PodPending
			pod.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: containerName, Image: image,
				State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: tt.reason, Message: tt.message}}}}
			return true, k8sClient.Status().Update(ctx, pod)
		})
		eventually(t, "Available to name "+tt.reason, func(ctx context.Context) (bool, error) {
			sr, err := getSR(context.Background(), ns, "router")
			if err != nil {
				return false, err
			}
			c := meta.FindStatusCondition(sr.Status.Conditions, vllmv1alpha1.ConditionAvailable)
			if c == nil || c.Status != metav1.ConditionFalse || c.Reason != reasonNoReplicasReady || c.Message != tt.want {
				return false, fmt.Errorf("Available = %+v, want False %s %q", c, reasonNoReplicasReady, tt.want)
			}
			return true, nil
		})
	}
}
