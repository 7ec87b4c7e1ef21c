package operator

import (
	"context"
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	vllmv1alpha1 "github.com/semantic-router/semantic-router/api/v1alpha1"
)

// maxCauseBytes bounds the download failure's cause in the condition and
// the event (an event's note holds at most 1 KiB).
const maxCauseBytes = 768

// errorPrefix starts the line on which `semantic-router` reports the error
// it exits with.
const errorPrefix = "semantic-router: "

// artifactFailure lists the router's pods and returns the cause of a failed
// download in one of those that run the current config (by its hash), or
// "" when none failed.
func (r *Reconciler) artifactFailure(ctx context.Context, sr *vllmv1alpha1.SemanticRouter, hash string) (string, error) {
	var pods corev1.PodList
	if err := r.Client.List(ctx, &pods, client.InNamespace(sr.Namespace), client.MatchingLabels(selectorLabels(sr))); err != nil {
		return "", fmt.Errorf("listing pods: %w", err)
	}
	return downloadFailure(pods.Items, hash), nil
}

// downloadFailure returns the failure of the first pod (by name) whose
// models-pull init container last exited non-zero and has not succeeded
// since: "pod P: init container models-pull failed (exit code N): cause".
// Pods being deleted, and pods of another config, are ignored.
func downloadFailure(pods []corev1.Pod, hash string) string {
	var failed []string
	for i := range pods {
		p := &pods[i]
		if p.DeletionTimestamp != nil || p.Annotations[annotationConfigHash] != hash {
			continue
		}
		for _, s := range p.Status.InitContainerStatuses {
			if s.Name != initContainerName {
				continue
			}
			if t := failedTermination(s); t != nil {
				failed = append(failed, fmt.Sprintf("pod %s: init container %s failed (exit code %d): %s",
					p.Name, initContainerName, t.ExitCode, terminationCause(t)))
			}
		}
	}
	if len(failed) == 0 {
		return ""
	}
	slices.Sort(failed)
	if len(failed) > 1 {
		return fmt.Sprintf("%s (and %d more pods)", failed[0], len(failed)-1)
	}
	return failed[0]
}

// failedTermination is the init container's failed exit that is still
// current: the present state, or the last one while it waits to retry
// (CrashLoopBackOff). A running retry or a success is not a failure.
func failedTermination(s corev1.ContainerStatus) *corev1.ContainerStateTerminated {
	switch {
	case s.State.Terminated != nil:
		if s.State.Terminated.ExitCode != 0 {
			return s.State.Terminated
		}
	case s.State.Waiting != nil:
		if t := s.LastTerminationState.Terminated; t != nil && t.ExitCode != 0 {
			return t
		}
	}
	return nil
}

// terminationCause is the termination message (the tail of the output of
// `models pull`), else the reason, bounded to its last maxCauseBytes at a
// line start. When the tail holds the program's closing error, which starts
// "semantic-router: " and names each cause, only that is kept: the log
// lines before it repeat the same causes.
func terminationCause(t *corev1.ContainerStateTerminated) string {
	msg := strings.TrimSpace(t.Message)
	if msg == "" {
		msg = t.Reason
	}
	if i := strings.LastIndex("\n"+msg, "\n"+errorPrefix); i >= 0 {
		msg = msg[i:]
	}
	if msg == "" {
		return "no termination message"
	}
	if len(msg) > maxCauseBytes {
		msg = msg[len(msg)-maxCauseBytes:]
		if i := strings.IndexByte(msg, '\n'); i >= 0 && i < len(msg)-1 {
			msg = msg[i+1:]
		}
		msg = "…" + msg
	}
	return msg
}

// markArtifactFailure sets Degraded for a failed download after a
// successful reconcile, and emits a Warning event when the cause is new.
func (r *Reconciler) markArtifactFailure(sr *vllmv1alpha1.SemanticRouter, failure string) {
	meta.SetStatusCondition(&sr.Status.Conditions, metav1.Condition{
		Type:               vllmv1alpha1.ConditionDegraded,
		Status:             metav1.ConditionTrue,
		Reason:             reasonArtifactDownloadFailed,
		Message:            failure,
		ObservedGeneration: sr.Generation,
	})
	r.warnOnChange(sr, reasonArtifactDownloadFailed, reasonArtifactDownloadFailed, failure)
}

// warnNotPersisted emits a Warning event, once per generation, when
// artifacts are cached in an emptyDir.
func (r *Reconciler) warnNotPersisted(sr *vllmv1alpha1.SemanticRouter, plan artifactPlan) {
	if !plan.active() || persistenceEnabled(sr) || sr.Status.ObservedGeneration == sr.Generation {
		return
	}
	r.Recorder.Eventf(sr, nil, corev1.EventTypeWarning, reasonArtifactsNotPersisted, "Reconcile",
		"spec.persistence is disabled: model artifacts are cached in an emptyDir at %s and downloaded again whenever a pod starts; enable spec.persistence to keep them",
		plan.cacheDir)
}

// routerPodChanged lets through pod events that may change what
// artifactFailure or explainNoReplicas report: creation, deletion, a change
// of the models-pull init container's status, and a change of the reason a
// container waits.
var routerPodChanged = predicate.Funcs{
	UpdateFunc: func(e event.UpdateEvent) bool {
		o, ok1 := e.ObjectOld.(*corev1.Pod)
		n, ok2 := e.ObjectNew.(*corev1.Pod)
		if !ok1 || !ok2 {
			return true
		}
		return !equalInitStatus(o, n) || podWaitingProblem([]corev1.Pod{*o}) != podWaitingProblem([]corev1.Pod{*n})
	},
}

func equalInitStatus(a, b *corev1.Pod) bool {
	find := func(p *corev1.Pod) *corev1.ContainerStatus {
		for i := range p.Status.InitContainerStatuses {
			if p.Status.InitContainerStatuses[i].Name == initContainerName {
				return &p.Status.InitContainerStatuses[i]
			}
		}
		return nil
	}
	sa, sb := find(a), find(b)
	if sa == nil || sb == nil {
		return sa == sb
	}
	return equality.Semantic.DeepEqual(failedTermination(*sa), failedTermination(*sb))
}

// routerForPod maps one of the operator's router pods to its SemanticRouter.
func routerForPod(_ context.Context, obj client.Object) []reconcile.Request {
	l := obj.GetLabels()
	if l[labelName] != appName || l[labelManagedBy] != managedBy || l[labelInstance] == "" {
		return nil
	}
	return []reconcile.Request{{NamespacedName: types.NamespacedName{Namespace: obj.GetNamespace(), Name: l[labelInstance]}}}
}

// RouterPodCache restricts the manager's cache of pods to the router pods
// the operator made (by their name and managed-by labels): it watches them
// for the models-pull init container's status, and no other pod of the
// cluster needs to be held in memory. Use it as the cache's ByObject entry
// for *corev1.Pod.
func RouterPodCache() cache.ByObject {
	return cache.ByObject{Label: labels.SelectorFromSet(labels.Set{labelName: appName, labelManagedBy: managedBy})}
}
