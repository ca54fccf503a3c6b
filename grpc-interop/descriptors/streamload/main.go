// Command streamload measures server streaming, which grpc-go's benchmark client does not: it opens -streams
// StreamingFromServer calls on one connection, each asking for -resp byte responses, and counts the responses that
// arrive in -d seconds after -w seconds of warm-up. It prints "msgs/s: N".
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	testpb "google.golang.org/grpc/interop/grpc_testing"

	"weir.io/grpc-interop/loadclient"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:50051", "server host:port")
	streams := flag.Int("streams", 1, "concurrent streams on the one connection")
	resp := flag.Int("resp", 1024, "response payload bytes")
	warmup := flag.Int("w", 3, "warm-up seconds")
	duration := flag.Int("d", 10, "measured seconds")
	flag.Parse()

	conn, client := loadclient.Connect(*addr)
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(*warmup+*duration+30)*time.Second)
	defer cancel()

	var received atomic.Int64
	var failed atomic.Value
	var wg sync.WaitGroup
	for i := 0; i < *streams; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			stream, err := client.StreamingFromServer(ctx, &testpb.SimpleRequest{ResponseSize: int32(*resp)})
			if err != nil {
				failed.Store(err)
				return
			}
			for {
				if _, err := stream.Recv(); err != nil {
					if ctx.Err() == nil {
						failed.Store(err)
					}
					return
				}
				received.Add(1)
			}
		}()
	}
	time.Sleep(time.Duration(*warmup) * time.Second)
	start := received.Load()
	begin := time.Now()
	time.Sleep(time.Duration(*duration) * time.Second)
	count := received.Load() - start
	elapsed := time.Since(begin).Seconds()
	cancel()
	wg.Wait()
	if err, ok := failed.Load().(error); ok {
		fmt.Fprintln(os.Stderr, "stream failed:", err)
		os.Exit(1)
	}
	if count == 0 {
		fmt.Fprintln(os.Stderr, "no responses in the measured window")
		os.Exit(1)
	}
	fmt.Printf("msgs/s: %.0f\n", float64(count)/elapsed)
}
