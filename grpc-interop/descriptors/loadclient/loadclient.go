// Package loadclient holds what the load commands (streamload, rateload) share: one plaintext connection to a
// grpc.testing.BenchmarkService.
package loadclient

import (
	"fmt"
	"os"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	testpb "google.golang.org/grpc/interop/grpc_testing"
)

// Connect makes a client for the BenchmarkService at addr over one plaintext connection, or exits with status 1.
// The caller closes the connection.
func Connect(addr string) (*grpc.ClientConn, testpb.BenchmarkServiceClient) {
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	return conn, testpb.NewBenchmarkServiceClient(conn)
}
