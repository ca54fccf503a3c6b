//go:build tools

// Package tools pins grpc-health-probe, which GrpcHealthProbeTest builds with `go build` from this module.
package tools

import _ "github.com/grpc-ecosystem/grpc-health-probe"
