// ws-load: a WebSocket echo load client for microbench/ws-compare. It opens -connections connections to -url
// (github.com/gorilla/websocket, no compression), and on each keeps -depth messages of -size bytes in flight:
// writes them, reads their echoes, repeats. After -warmup it counts the echoes received for -duration and prints
// "messages/s: N" and "messages: N". Any error, or an echo of the wrong size, ends it with a non-zero status.
package main

import (
	"flag"
	"fmt"
	"os"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
)

func main() {
	url := flag.String("url", "ws://127.0.0.1:8080/ws", "the echo endpoint")
	connections := flag.Int("connections", 64, "connections")
	size := flag.Int("size", 128, "message payload bytes")
	depth := flag.Int("depth", 1, "messages in flight per connection")
	binary := flag.Bool("binary", false, "binary messages instead of text")
	warmup := flag.Duration("warmup", 3*time.Second, "time before counting")
	duration := flag.Duration("duration", 10*time.Second, "counted time")
	flag.Parse()

	payload := make([]byte, *size)
	for i := range payload {
		payload[i] = byte('a' + i%26)
	}
	kind := websocket.TextMessage
	if *binary {
		kind = websocket.BinaryMessage
	}
	var echoed atomic.Int64
	failed := make(chan error, *connections)
	ready := make(chan struct{}, *connections)
	dialer := websocket.Dialer{HandshakeTimeout: 30 * time.Second, ReadBufferSize: 16384, WriteBufferSize: 16384}
	for c := 0; c < *connections; c++ {
		go func() {
			conn, _, err := dialer.Dial(*url, nil)
			if err != nil {
				failed <- fmt.Errorf("dial: %w", err)
				return
			}
			ready <- struct{}{}
			for {
				for i := 0; i < *depth; i++ {
					if err := conn.WriteMessage(kind, payload); err != nil {
						failed <- fmt.Errorf("write: %w", err)
						return
					}
				}
				for i := 0; i < *depth; i++ {
					_, got, err := conn.ReadMessage()
					if err != nil {
						failed <- fmt.Errorf("read: %w", err)
						return
					}
					if len(got) != len(payload) {
						failed <- fmt.Errorf("echo of %d bytes, sent %d", len(got), len(payload))
						return
					}
				}
				echoed.Add(int64(*depth))
			}
		}()
	}
	for c := 0; c < *connections; c++ {
		select {
		case <-ready:
		case err := <-failed:
			fmt.Println("FAIL:", err)
			os.Exit(1)
		}
	}
	phase := func(d time.Duration) {
		select {
		case <-time.After(d):
		case err := <-failed:
			fmt.Println("FAIL:", err)
			os.Exit(1)
		}
	}
	phase(*warmup)
	start, from := time.Now(), echoed.Load()
	phase(*duration)
	count := echoed.Load() - from
	elapsed := time.Since(start).Seconds()
	fmt.Printf("messages/s: %.0f\nmessages: %d\n", float64(count)/elapsed, count)
}
