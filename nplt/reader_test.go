package nplt

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// TestEveryShortPrefix checks that each truncation of a frame yields the one
// error defined for it, from Parse and from Reader.
func TestEveryShortPrefix(t *testing.T) {
	wire, _ := Frame{Type: ChatText, Seq: 3, Payload: []byte("hello")}.Append(nil)
	for i := 0; i < len(wire); i++ {
		want := ErrShortPayload
		if i < HeaderSize {
			want = ErrShortHeader
		}
		if _, _, err := Parse(wire[:i]); !errors.Is(err, want) {
			t.Errorf("Parse(%d bytes) err = %v, want %v", i, err, want)
		}
		_, err := NewReader(bytes.NewReader(wire[:i])).ReadFrame()
		if i == 0 {
			want = nil // clean EOF between frames
			if err == nil || err.Error() != "EOF" {
				t.Errorf("Reader(0 bytes) err = %v, want EOF", err)
			}
			continue
		}
		if !errors.Is(err, want) {
			t.Errorf("Reader(%d bytes) err = %v, want %v", i, err, want)
		}
	}
}

func TestReaderStream(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	big := strings.Repeat("数据", 20000) // 120000 bytes: split over two frames
	payloads := [][]byte{[]byte("欢迎"), []byte(big[:60000]), nil, []byte(big[60000:])}
	for _, p := range payloads {
		if err := w.WriteFrame(ChatText, p); err != nil {
			t.Fatal(err)
		}
	}
	w.Flush()
	r := NewReader(&buf)
	for i, want := range payloads {
		f, err := r.ReadFrame()
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		if !bytes.Equal(f.Payload, want) || f.Seq != uint16(i) {
			t.Fatalf("frame %d: seq %d, %d bytes", i, f.Seq, len(f.Payload))
		}
	}
	if _, err := r.ReadFrame(); err == nil || err.Error() != "EOF" {
		t.Fatalf("after last frame err = %v, want EOF", err)
	}
}

func BenchmarkReader(b *testing.B) {
	wire, _ := Frame{Type: ChatText, Payload: make([]byte, 1024)}.Append(nil)
	stream := bytes.Repeat(wire, 256)
	src := bytes.NewReader(stream)
	r := NewReader(src)
	b.ReportAllocs()
	b.SetBytes(int64(len(wire)))
	for b.Loop() {
		if _, err := r.ReadFrame(); err != nil {
			src.Reset(stream)
			if _, err = r.ReadFrame(); err != nil {
				b.Fatal(err)
			}
		}
	}
}
