// Package operator reconciles SemanticRouter resources: it renders the router
// config, creates the router's owned objects in the order the operations
// guide describes, and reports honest status.
//
// The operator meets the data plane only at the config contract; it imports
// no other data-plane package.
package operator
