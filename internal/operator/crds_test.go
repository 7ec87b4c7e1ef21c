package operator

import (
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/utils/ptr"
)

// optionalAPIs are the APIs the operator uses only where a cluster serves
// them. The test API server serves them all (as stand-in CRDs that keep
// any field); tests that need a cluster without them use the bare view
// (see suite_test.go), which hides exactly these groups.
var optionalAPIs = []schema.GroupVersionKind{gatewayGVK, httpRouteGVK, routeGVK, inferenceServiceGVK, serviceMonitorGVK}

// standInCRD is a schemaless CRD for gvk: the operator reads and writes
// these kinds as unstructured, so only the names and the group matter.
func standInCRD(gvk schema.GroupVersionKind, plural string) *apiextensionsv1.CustomResourceDefinition {
	crd := &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: plural + "." + gvk.Group},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: gvk.Group,
			Names: apiextensionsv1.CustomResourceDefinitionNames{
				Plural: plural, Singular: lower(gvk.Kind), Kind: gvk.Kind, ListKind: gvk.Kind + "List",
			},
			Scope: apiextensionsv1.NamespaceScoped,
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{
				Name: gvk.Version, Served: true, Storage: true,
				Subresources: &apiextensionsv1.CustomResourceSubresources{Status: &apiextensionsv1.CustomResourceSubresourceStatus{}},
				Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
					Type: "object", XPreserveUnknownFields: ptr.To(true),
				}},
			}},
		},
	}
	if gvk.Group == "gateway.networking.k8s.io" {
		// *.k8s.io groups need this; the real Gateway API CRDs carry it.
		crd.Annotations = map[string]string{"api-approved.kubernetes.io": "https://github.com/kubernetes-sigs/gateway-api/pull/891"}
	}
	return crd
}

// standInCRDs are the optional APIs' CRDs.
func standInCRDs() []*apiextensionsv1.CustomResourceDefinition {
	return []*apiextensionsv1.CustomResourceDefinition{
		standInCRD(gatewayGVK, "gateways"),
		standInCRD(httpRouteGVK, "httproutes"),
		standInCRD(routeGVK, "routes"),
		standInCRD(inferenceServiceGVK, "inferenceservices"),
		standInCRD(serviceMonitorGVK, "servicemonitors"),
	}
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
