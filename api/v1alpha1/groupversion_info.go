// Package v1alpha1 holds the vllm.ai/v1alpha1 API: the SemanticRouter custom
// resource that the semantic-router operator reconciles.
//
// +kubebuilder:object:generate=true
// +groupName=vllm.ai
package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var (
	// GroupVersion is the group and version of every type in this package.
	GroupVersion = schema.GroupVersion{Group: "vllm.ai", Version: "v1alpha1"}

	// SchemeBuilder registers the types of this package with a runtime.Scheme. It uses
	// apimachinery alone, so that importing the API stays cheap.
	SchemeBuilder = runtime.NewSchemeBuilder(addKnownTypes)

	// AddToScheme adds the types of this package to a runtime.Scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)

func addKnownTypes(s *runtime.Scheme) error {
	s.AddKnownTypes(GroupVersion, &SemanticRouter{}, &SemanticRouterList{})
	metav1.AddToGroupVersion(s, GroupVersion)
	return nil
}
