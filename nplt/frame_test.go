package nplt

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func TestAppendParseTable(t *testing.T) {
	tests := []struct {
		name  string
		frame Frame
		wire  []byte
	}{
		{"empty chat ends a reply", Frame{Type: ChatText, Seq: 7}, []byte{0x01, 0x00, 0x07, 0x00, 0x00}},
		{"chat hi", Frame{Type: ChatText, Seq: 0x0102, Payload: []byte("hi")}, []byte{0x01, 0x01, 0x02, 0x00, 0x02, 'h', 'i'}},
		{"thought", Frame{Type: AgentThought, Seq: 0xFFFF, Payload: []byte(`{}`)}, []byte{0x0A, 0xFF, 0xFF, 0x00, 0x02, '{', '}'}},
		{"max payload", Frame{Type: FileData, Payload: bytes.Repeat([]byte{0xAB}, MaxPayload)}, append([]byte{0x0D, 0, 0, 0xFF, 0xFF}, bytes.Repeat([]byte{0xAB}, MaxPayload)...)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.frame.Append(nil)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, tt.wire) {
				t.Fatalf("Append = % x, want % x", got[:min(len(got), 16)], tt.wire[:min(len(tt.wire), 16)])
			}
			f, n, err := Parse(append(got, 0x99)) // trailing byte belongs to the next frame
			if err != nil {
				t.Fatal(err)
			}
			if n != len(tt.wire) || f.Type != tt.frame.Type || f.Seq != tt.frame.Seq || !bytes.Equal(f.Payload, tt.frame.Payload) {
				t.Fatalf("Parse = %+v n=%d", f.Type, n)
			}
		})
	}
}

func TestAppendTooLarge(t *testing.T) {
	_, err := Frame{Type: ChatText, Payload: make([]byte, MaxPayload+1)}.Append(nil)
	if !errors.Is(err, ErrFrameTooLarge) {
		t.Fatalf("err = %v, want ErrFrameTooLarge", err)
	}
	var buf bytes.Buffer
	w := NewWriter(&buf)
	if err := w.WriteFrame(ChatText, make([]byte, MaxPayload+1)); !errors.Is(err, ErrFrameTooLarge) {
		t.Fatalf("WriteFrame err = %v", err)
	}
	w.Flush()
	if buf.Len() != 0 {
		t.Fatalf("oversized frame wrote %d bytes", buf.Len())
	}
}

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

func TestWriterSequenceWraps(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	w.seq = 0xFFFF
	for _, s := range []string{"a", "b"} {
		if err := w.WriteFrame(ChatText, []byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	r := NewReader(&buf)
	for _, want := range []uint16{0xFFFF, 0} {
		f, err := r.ReadFrame()
		if err != nil {
			t.Fatal(err)
		}
		if f.Seq != want {
			t.Fatalf("seq = %d, want %d", f.Seq, want)
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

func TestTypeString(t *testing.T) {
	if ChatText.String() != "CHAT_TEXT" || Type(0x99).String() != "TYPE_0x99" {
		t.Fatal(ChatText.String(), Type(0x99).String())
	}
	if !SessionDelete.Known() || Type(0x02).Known() {
		t.Fatal("Known")
	}
}

func BenchmarkAppend(b *testing.B) {
	f := Frame{Type: ChatText, Seq: 1, Payload: make([]byte, 1024)}
	buf := make([]byte, 0, 2048)
	b.ReportAllocs()
	b.SetBytes(int64(HeaderSize + len(f.Payload)))
	for b.Loop() {
		buf, _ = f.Append(buf[:0])
	}
}

func BenchmarkWriter(b *testing.B) {
	w := NewWriter(discard{})
	p := make([]byte, 1024)
	b.ReportAllocs()
	b.SetBytes(int64(HeaderSize + len(p)))
	for b.Loop() {
		if err := w.WriteFrame(ChatText, p); err != nil {
			b.Fatal(err)
		}
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

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
