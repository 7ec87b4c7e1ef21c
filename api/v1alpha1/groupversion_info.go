// Package v1alpha1 holds the vllm.ai/v1alpha1 API: the SemanticRouter custom
// resource that the semantic-router operator reconciles.
//
// +kubebuilder:object:generate=true
// +groupName=vllm.ai
package v1alpha1

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/scheme"
)

var (
	// GroupVersion is the group and version of every type in this package.
	GroupVersion = schema.GroupVersion{Group: "vllm.ai", Version: "v1alpha1"}

	// SchemeBuilder registers the types of this package with a runtime.Scheme.
	SchemeBuilder = &scheme.Builder{GroupVersion: GroupVersion}

	// AddToScheme adds the types of this package to a runtime.Scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)
