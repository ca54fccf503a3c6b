// A gorilla/websocket client for WebSocket interop tests: echoes through the server at os.Args[1] a text message
// and a binary one, with permessage-deflate when os.Args[2] is "deflate", then runs the close handshake. Prints
// what it saw; exits non-zero on any mismatch.
package main

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"time"

	"github.com/gorilla/websocket"
)

func fail(format string, args ...interface{}) {
	fmt.Printf("FAIL: "+format+"\n", args...)
	os.Exit(1)
}

func main() {
	url, mode := os.Args[1], os.Args[2]
	dialer := websocket.Dialer{HandshakeTimeout: 30 * time.Second, EnableCompression: mode == "deflate"}
	conn, resp, err := dialer.Dial(url, http.Header{})
	if err != nil {
		fail("dial: %v", err)
	}
	defer conn.Close()
	fmt.Printf("extensions: %q\n", resp.Header.Get("Sec-WebSocket-Extensions"))
	conn.SetReadDeadline(time.Now().Add(60 * time.Second))

	text := "Hello from gorilla, ünïcödé ✓ " + string(bytes.Repeat([]byte("abc"), 1000))
	if err := conn.WriteMessage(websocket.TextMessage, []byte(text)); err != nil {
		fail("write text: %v", err)
	}
	kind, got, err := conn.ReadMessage()
	if err != nil || kind != websocket.TextMessage || string(got) != text {
		fail("text echo: kind=%d err=%v len=%d", kind, err, len(got))
	}
	fmt.Println("text echoed")

	binary := make([]byte, 300000)
	for i := range binary {
		binary[i] = byte(i * 7)
	}
	if err := conn.WriteMessage(websocket.BinaryMessage, binary); err != nil {
		fail("write binary: %v", err)
	}
	kind, got, err = conn.ReadMessage()
	if err != nil || kind != websocket.BinaryMessage || !bytes.Equal(got, binary) {
		fail("binary echo: kind=%d err=%v len=%d", kind, err, len(got))
	}
	fmt.Println("binary echoed")

	closing := websocket.FormatCloseMessage(websocket.CloseNormalClosure, "bye")
	if err := conn.WriteControl(websocket.CloseMessage, closing, time.Now().Add(10*time.Second)); err != nil {
		fail("write close: %v", err)
	}
	_, _, err = conn.ReadMessage()
	if ce, ok := err.(*websocket.CloseError); ok {
		fmt.Printf("close code: %d\n", ce.Code)
	} else {
		fail("expected the server's close frame, got %v", err)
	}
	fmt.Println("OK")
}
