// Command pingload drives BenchmarkService.StreamingCall as ping-pong, the way h2load drives plain requests: one
// goroutine speaks HTTP/2 over one h2c connection, with the request message encoded once, and writes what a read
// brought about before it reads again. grpc-go's benchmark client spends more CPU per round trip than either server
// it calls, so on a machine whose client has one core it, not the server, sets the rate; this client spends far
// less, so the server's own capacity shows.
//
// It opens -streams calls, sends each its first request, and answers every response message with the stream's next
// request. After -w seconds of warm-up it counts the round trips completed in -d seconds and prints
// "qps: N rounds: N". It fails (exit 1) on a call that ends, a response that is not the expected message, a
// GOAWAY or RST_STREAM, or a peer that breaks flow control.
//
// -mode stream measures server streaming the same way: each of the -streams calls is a StreamingFromServer call,
// one request and a half-close, and every response message that arrives counts as a round.
package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"flag"
	"fmt"
	"net"
	"os"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

const (
	frameHeaderLen = 9
	// SETTINGS_MAX_FRAME_SIZE's initial value, which every peer accepts.
	maxFrameSize = 16384
	// What this client grants the server: the largest window HTTP/2 allows, topped up at half.
	ourWindow = 1<<31 - 1
)

func main() {
	addr := flag.String("addr", "127.0.0.1:50051", "server host:port (h2c)")
	mode := flag.String("mode", "pingpong", "pingpong (StreamingCall) or stream (StreamingFromServer)")
	streams := flag.Int("streams", 100, "calls in ping-pong at once")
	size := flag.Int("size", 1024, "request and response payload bytes")
	warmup := flag.Int("w", 3, "warm-up seconds")
	duration := flag.Int("d", 10, "measured seconds")
	flag.Parse()
	if *streams <= 0 || *streams > 10000 || *size < 0 || *duration <= 0 || *warmup < 0 ||
		(*mode != "pingpong" && *mode != "stream") {
		fmt.Fprintln(os.Stderr, "-streams must be 1-10000, -size at least 0, -d positive, -w at least 0, "+
			"-mode pingpong or stream")
		os.Exit(2)
	}
	if len(request(*size)) > maxFrameSize {
		// Each request goes in one DATA frame, and every peer takes frames of the default maximum size.
		fmt.Fprintf(os.Stderr, "-size %d makes a request larger than one %d-octet frame\n", *size, maxFrameSize)
		os.Exit(2)
	}
	rounds, err := run(*addr, *mode == "stream", *streams, *size, time.Duration(*warmup)*time.Second,
		time.Duration(*duration)*time.Second)
	if err != nil {
		fmt.Fprintln(os.Stderr, "pingload:", err)
		os.Exit(1)
	}
	fmt.Printf("qps: %.0f rounds: %d\n", float64(rounds)/float64(*duration), rounds)
}

// request is the SimpleRequest grpc-go's benchmark client sends (response_size and a payload of size zeros), in
// gRPC's length-prefixed framing.
func request(size int) []byte {
	var payload []byte
	if size > 0 {
		payload = append(protowire(0x12, size), make([]byte, size)...)
	}
	var msg []byte
	if size > 0 {
		msg = append([]byte{0x10}, varint(size)...)
	}
	msg = append(msg, protowire(0x1a, len(payload))...)
	msg = append(msg, payload...)
	framed := make([]byte, 5, 5+len(msg))
	binary.BigEndian.PutUint32(framed[1:], uint32(len(msg)))
	return append(framed, msg...)
}

// responseLen is the framed length of the SimpleResponse both servers answer with: a payload of size zeros.
func responseLen(size int) int {
	body := 0
	if size > 0 {
		body = 1 + len(varint(size)) + size
	}
	return 5 + 1 + len(varint(body)) + body
}

func protowire(tag byte, length int) []byte {
	return append([]byte{tag}, varint(length)...)
}

func varint(n int) []byte {
	var out []byte
	for {
		low := byte(n & 0x7f)
		n >>= 7
		if n == 0 {
			return append(out, low)
		}
		out = append(out, low|0x80)
	}
}

type stream struct {
	window   int64 // what the server lets this stream send
	received int   // octets of the current response message received
	pending  bool  // the next request waits for window
	unacked  int64 // octets received since the last WINDOW_UPDATE for this stream
}

func run(addr string, serverStreaming bool, n, size int, warmup, duration time.Duration) (int64, error) {
	conn, err := net.DialTimeout("tcp", addr, 10*time.Second)
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	// Opening the calls may fill the socket (100 requests are more than its buffer): a bound for that too.
	conn.SetDeadline(time.Now().Add(warmup + duration + 20*time.Second))
	br := bufio.NewReaderSize(conn, 64<<10)
	bw := bufio.NewWriterSize(conn, 64<<10)
	if _, err := bw.WriteString(http2.ClientPreface); err != nil {
		return 0, err
	}
	fr := http2.NewFramer(bw, br)
	fr.ReadMetaHeaders = hpack.NewDecoder(4096, nil)
	fr.MaxHeaderListSize = 64 << 10
	if err := fr.WriteSettings(http2.Setting{ID: http2.SettingInitialWindowSize, Val: ourWindow},
		http2.Setting{ID: http2.SettingEnablePush, Val: 0}); err != nil {
		return 0, err
	}
	if err := fr.WriteWindowUpdate(0, ourWindow-65535); err != nil {
		return 0, err
	}

	method := "StreamingCall"
	if serverStreaming {
		method = "StreamingFromServer"
	}
	var block bytes.Buffer
	enc := hpack.NewEncoder(&block)
	for _, f := range []hpack.HeaderField{
		{Name: ":method", Value: "POST"}, {Name: ":scheme", Value: "http"},
		{Name: ":path", Value: "/grpc.testing.BenchmarkService/" + method}, {Name: ":authority", Value: addr},
		{Name: "content-type", Value: "application/grpc"}, {Name: "te", Value: "trailers"},
	} {
		if err := enc.WriteField(f); err != nil {
			return 0, err
		}
	}
	// Every stream opens with this one block. Each copy adds its fields to the server's dynamic table again, which
	// is valid HPACK (the encoder is not used again, so its table cannot disagree), and costs only at stream start.
	headers := append([]byte(nil), block.Bytes()...)
	req := request(size)
	respLen := responseLen(size)

	connWindow := int64(65535)
	initialWindow := int64(65535)
	all := make(map[uint32]*stream, n)
	var waiting []uint32
	send := func(id uint32, s *stream) error {
		if s.window < int64(len(req)) || connWindow < int64(len(req)) {
			if !s.pending {
				s.pending = true
				waiting = append(waiting, id)
			}
			return nil
		}
		s.window -= int64(len(req))
		connWindow -= int64(len(req))
		// A server-streaming call's one request ends the client's half.
		return fr.WriteData(id, serverStreaming, req)
	}
	for i := 0; i < n; i++ {
		id := uint32(2*i + 1)
		s := &stream{window: initialWindow}
		all[id] = s
		if err := fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: headers, EndHeaders: true}); err != nil {
			return 0, err
		}
		if err := send(id, s); err != nil {
			return 0, err
		}
	}

	start := time.Now()
	measureFrom, measureTo := start.Add(warmup), start.Add(warmup+duration)
	var rounds int64
	var connUnacked int64
	// A server that stops reading or answering fails the run instead of hanging it.
	conn.SetDeadline(measureTo.Add(10 * time.Second))
	for {
		// Write out what the frames read so far brought about before waiting for more, as an event loop does at the
		// end of its read: only when no whole frame is buffered.
		if !wholeFrameBuffered(br) {
			if err := bw.Flush(); err != nil {
				return 0, err
			}
		}
		f, err := fr.ReadFrame()
		if err != nil {
			return 0, err
		}
		switch f := f.(type) {
		case *http2.DataFrame:
			s := all[f.StreamID]
			if s == nil {
				return 0, fmt.Errorf("DATA on stream %d, which this client did not open", f.StreamID)
			}
			if f.StreamEnded() {
				return 0, fmt.Errorf("stream %d ended without trailers", f.StreamID)
			}
			s.received += len(f.Data())
			if serverStreaming {
				// Messages follow one another, a frame may carry several or part of one: count whole ones.
				whole := s.received / respLen
				s.received %= respLen
				now := time.Now()
				if now.After(measureTo) {
					return rounds, nil
				}
				if !now.Before(measureFrom) {
					rounds += int64(whole)
				}
			} else if s.received > respLen {
				return 0, fmt.Errorf("stream %d: %d octets for a %d-octet response", f.StreamID, s.received, respLen)
			} else if s.received == respLen {
				s.received = 0
				now := time.Now()
				if now.After(measureTo) {
					return rounds, nil
				}
				if !now.Before(measureFrom) {
					rounds++
				}
				if err := send(f.StreamID, s); err != nil {
					return 0, err
				}
			}
			flowed := int64(f.Length)
			s.unacked += flowed
			connUnacked += flowed
			if s.unacked >= ourWindow/2 {
				if err := fr.WriteWindowUpdate(f.StreamID, uint32(s.unacked)); err != nil {
					return 0, err
				}
				s.unacked = 0
			}
			if connUnacked >= ourWindow/2 {
				if err := fr.WriteWindowUpdate(0, uint32(connUnacked)); err != nil {
					return 0, err
				}
				connUnacked = 0
			}
		case *http2.MetaHeadersFrame:
			if all[f.StreamID] == nil {
				return 0, fmt.Errorf("HEADERS on stream %d, which this client did not open", f.StreamID)
			}
			if f.StreamEnded() {
				return 0, fmt.Errorf("stream %d ended: grpc-status %q, grpc-message %q", f.StreamID,
					headerValue(f, "grpc-status"), headerValue(f, "grpc-message"))
			}
			if status := f.PseudoValue("status"); status != "200" {
				return 0, fmt.Errorf("stream %d answered :status %s", f.StreamID, status)
			}
		case *http2.SettingsFrame:
			if f.IsAck() {
				continue
			}
			if v, ok := f.Value(http2.SettingInitialWindowSize); ok {
				delta := int64(v) - initialWindow
				initialWindow = int64(v)
				for _, s := range all {
					s.window += delta
				}
			}
			if err := fr.WriteSettingsAck(); err != nil {
				return 0, err
			}
		case *http2.WindowUpdateFrame:
			if f.StreamID == 0 {
				connWindow += int64(f.Increment)
			} else if s := all[f.StreamID]; s != nil {
				s.window += int64(f.Increment)
			}
			retry := waiting
			waiting = nil
			for _, id := range retry {
				s := all[id]
				s.pending = false
				if err := send(id, s); err != nil {
					return 0, err
				}
			}
		case *http2.PingFrame:
			if !f.IsAck() {
				if err := fr.WritePing(true, f.Data); err != nil {
					return 0, err
				}
			}
		case *http2.GoAwayFrame:
			return 0, fmt.Errorf("GOAWAY %v: %q", f.ErrCode, f.DebugData())
		case *http2.RSTStreamFrame:
			return 0, fmt.Errorf("RST_STREAM %v on stream %d", f.ErrCode, f.StreamID)
		}
	}
}

// wholeFrameBuffered says whether the reader holds a whole frame, so that reading it cannot block.
func wholeFrameBuffered(br *bufio.Reader) bool {
	if br.Buffered() < frameHeaderLen {
		return false
	}
	head, err := br.Peek(frameHeaderLen)
	if err != nil {
		return false
	}
	length := int(head[0])<<16 | int(head[1])<<8 | int(head[2])
	return br.Buffered() >= frameHeaderLen+length
}

func headerValue(f *http2.MetaHeadersFrame, name string) string {
	for _, hf := range f.RegularFields() {
		if hf.Name == name {
			return hf.Value
		}
	}
	return ""
}
