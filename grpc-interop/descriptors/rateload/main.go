// Command rateload calls BenchmarkService at a fixed rate, which grpc-go's benchmark client (closed-loop: each of
// its -r calls starts the next as soon as it ends) cannot: at a rate both servers can sustain, the server's CPU per
// call is compared at equal work instead of at whatever rate the client reaches. It paces -rate calls per second over
// one connection to -max workers (more calls wait in a queue as deep), each call a -req byte payload asking for a
// -resp byte answer, and measures each call's latency from its scheduled start, so a stall is charged to every call
// it delayed. -mode unary makes each call a UnaryCall; -mode pingpong gives each worker one StreamingCall and makes
// each call one request and its response on it. After -w seconds of warm-up it counts the calls completed in -d
// seconds and prints "qps: N p50_us: N p99_us: N skipped: N" (skipped: scheduled calls dropped because every worker
// was busy and the queue full; a run with many is overloaded).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	testpb "google.golang.org/grpc/interop/grpc_testing"

	"weir.io/grpc-interop/loadclient"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:50051", "server host:port")
	mode := flag.String("mode", "unary", "unary or pingpong")
	rate := flag.Int("rate", 10000, "calls per second")
	maxOutstanding := flag.Int("max", 100, "most calls outstanding at once")
	req := flag.Int("req", 1024, "request payload bytes")
	resp := flag.Int("resp", 1024, "response payload bytes")
	warmup := flag.Int("w", 3, "warm-up seconds")
	duration := flag.Int("d", 10, "measured seconds")
	flag.Parse()
	if *rate <= 0 || *maxOutstanding <= 0 || *duration <= 0 {
		fmt.Fprintln(os.Stderr, "-rate, -max and -d must be positive")
		os.Exit(2)
	}
	if *mode != "unary" && *mode != "pingpong" {
		fmt.Fprintln(os.Stderr, "-mode must be unary or pingpong")
		os.Exit(2)
	}

	conn, client := loadclient.Connect(*addr)
	defer conn.Close()
	request := &testpb.SimpleRequest{ResponseSize: int32(*resp), Payload: &testpb.Payload{Body: make([]byte, *req)}}
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(*warmup+*duration+30)*time.Second)
	defer cancel()

	begin := time.Now()
	measureFrom := begin.Add(time.Duration(*warmup) * time.Second)
	measureTo := measureFrom.Add(time.Duration(*duration) * time.Second)
	interval := time.Second / time.Duration(*rate)

	var mu sync.Mutex
	latencies := make([]time.Duration, 0, *rate**duration)
	var completed, skipped atomic.Int64
	var failed atomic.Value
	// -max workers take due times from a queue as deep: a call is skipped only when every worker is busy and as
	// many calls wait.
	due := make(chan time.Time, *maxOutstanding)
	var wg sync.WaitGroup
	for w := 0; w < *maxOutstanding; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			call, err := caller(ctx, client, *mode, request)
			if err != nil {
				failed.Store(err)
				for range due {
				}
				return
			}
			for start := range due {
				if err := call(); err != nil {
					failed.Store(err)
					continue
				}
				if start.Before(measureFrom) {
					continue
				}
				completed.Add(1)
				latency := time.Since(start)
				mu.Lock()
				latencies = append(latencies, latency)
				mu.Unlock()
			}
		}()
	}

	// Open loop: call i is due at begin + i*interval; the pacer sleeps until the next one is due and queues every
	// call due by then, so a late wake-up starts the calls it delayed at once and their latency shows the delay.
	for i := int64(0); ; i++ {
		at := begin.Add(time.Duration(i) * interval)
		if !at.Before(measureTo) {
			break
		}
		if wait := time.Until(at); wait > 0 {
			time.Sleep(wait)
		}
		select {
		case due <- at:
		default:
			if !at.Before(measureFrom) {
				skipped.Add(1)
			}
		}
	}
	close(due)
	wg.Wait()
	if err, ok := failed.Load().(error); ok {
		fmt.Fprintln(os.Stderr, "call failed:", err)
		os.Exit(1)
	}
	if len(latencies) == 0 {
		fmt.Fprintln(os.Stderr, "no calls in the measured window")
		os.Exit(1)
	}
	sort.Slice(latencies, func(a, b int) bool { return latencies[a] < latencies[b] })
	at := func(q float64) float64 { return float64(latencies[int(q*float64(len(latencies)-1))]) / 1e3 }
	fmt.Printf("qps: %.0f p50_us: %.0f p99_us: %.0f skipped: %d\n", float64(completed.Load())/float64(*duration),
		at(0.50), at(0.99), skipped.Load())
}

// caller returns what makes one call of mode: a UnaryCall, or one request and its response on a StreamingCall
// opened now for this worker alone.
func caller(ctx context.Context, client testpb.BenchmarkServiceClient, mode string,
	request *testpb.SimpleRequest) (func() error, error) {
	if mode == "unary" {
		return func() error {
			_, err := client.UnaryCall(ctx, request)
			return err
		}, nil
	}
	stream, err := client.StreamingCall(ctx)
	if err != nil {
		return nil, err
	}
	return func() error {
		if err := stream.Send(request); err != nil {
			return err
		}
		_, err := stream.Recv()
		return err
	}, nil
}
