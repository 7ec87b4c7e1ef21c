package operator

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	vllmv1alpha1 "github.com/semantic-router/semantic-router/api/v1alpha1"
)

// reasonNameConflict is the Degraded reason when an object the operator
// would create already exists and belongs to someone else.
const reasonNameConflict = "NameConflict"

// annotationRetainedFrom marks a claim that the finalizer kept under
// retentionPolicy Retain; its value is the SemanticRouter's name. A new
// SemanticRouter of that name in the same namespace takes the claim back,
// which is how a retained cache survives deleting and re-creating a router.
const annotationRetainedFrom = "semanticrouter.vllm.ai/retained-from"

// checkControl decides whether the operator may write live, an object read
// from the API server under a name the SemanticRouter wants (kind is its
// Kubernetes kind, for the message). It may when the object does not exist
// yet (no creation timestamp), when this SemanticRouter (by UID) is its
// controller, or when it is a claim the finalizer retained for a
// SemanticRouter of the same name: then the mark is removed from live, since
// the caller is about to make sr its controller.
//
// Anything else (an object a user made, one with no owner or with another
// controller) is refused with NameConflict and never updated: taking it over
// would overwrite it and hand it to the garbage collector when the
// SemanticRouter is deleted. Labels are not trusted as proof of ownership;
// anyone can set them.
func checkControl(sr *vllmv1alpha1.SemanticRouter, live client.Object, kind string) error {
	if ts := live.GetCreationTimestamp(); ts.IsZero() || metav1.IsControlledBy(live, sr) {
		return nil
	}
	ref := metav1.GetControllerOf(live)
	if ref == nil && live.GetAnnotations()[annotationRetainedFrom] == sr.Name {
		a := live.GetAnnotations()
		delete(a, annotationRetainedFrom)
		live.SetAnnotations(a)
		return nil
	}
	whose := "it was not created by this SemanticRouter and has no controller"
	if ref != nil {
		whose = fmt.Sprintf("its controller is %s %s", ref.Kind, ref.Name)
		if ref.Kind == "SemanticRouter" && ref.Name == sr.Name {
			// Same namespace and name but another UID: a deleted one whose
			// objects the garbage collector has not removed yet.
			whose = fmt.Sprintf("its controller is a deleted SemanticRouter %s (uid %s) whose objects the garbage collector has not removed yet",
				ref.Name, ref.UID)
		}
	}
	return &missingDependencyError{reasonNameConflict, fmt.Errorf(
		"%s %s already exists and %s; the operator leaves it untouched: delete or rename it, or give the SemanticRouter another name",
		kind, live.GetName(), whose)}
}
