package operator

import (
	"context"
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"sigs.k8s.io/controller-runtime/pkg/client"

	vllmv1alpha1 "github.com/semantic-router/semantic-router/api/v1alpha1"
)

// maxWaitingBytes bounds the kubelet's message quoted in Available.
const maxWaitingBytes = 512

// explainNoReplicas adds to Available=False NoReplicasReady why a router pod
// does not run, when one of them says so (an image that cannot be pulled, a
// crash loop): the condition then answers the first question an operator
// asks without kubectl describe pod. It lists the router pods from the
// cache only in that case. A failure to list them leaves the message as is.
func (r *Reconciler) explainNoReplicas(ctx context.Context, sr *vllmv1alpha1.SemanticRouter) {
	c := meta.FindStatusCondition(sr.Status.Conditions, vllmv1alpha1.ConditionAvailable)
	if c == nil || c.Reason != reasonNoReplicasReady {
		return
	}
	var pods corev1.PodList
	if err := r.Client.List(ctx, &pods, client.InNamespace(sr.Namespace), client.MatchingLabels(selectorLabels(sr))); err != nil {
		return
	}
	if why := podWaitingProblem(pods.Items); why != "" {
		c.Message += "; " + why
	}
}

// podWaitingProblem returns, for the first pod by name that is not being
// deleted, its first container (init containers first) waiting for a reason
// other than the normal start: "pod P: container C is waiting:
// ImagePullBackOff: message". It is "" when no pod shows one.
func podWaitingProblem(pods []corev1.Pod) string {
	sorted := slices.Clone(pods)
	slices.SortFunc(sorted, func(a, b corev1.Pod) int { return strings.Compare(a.Name, b.Name) })
	for _, p := range sorted {
		if p.DeletionTimestamp != nil {
			continue
		}
		for _, s := range slices.Concat(p.Status.InitContainerStatuses, p.Status.ContainerStatuses) {
			w := s.State.Waiting
			if w == nil || w.Reason == "" || w.Reason == "ContainerCreating" || w.Reason == "PodInitializing" {
				continue
			}
			why := fmt.Sprintf("pod %s: container %s is waiting: %s", p.Name, s.Name, w.Reason)
			if msg := strings.TrimSpace(w.Message); msg != "" {
				if len(msg) > maxWaitingBytes {
					msg = msg[:maxWaitingBytes] + "…"
				}
				why += ": " + msg
			}
			return why
		}
	}
	return ""
}
