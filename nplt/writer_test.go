package nplt

import (
	"bytes"
	"testing"
)

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

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
