package nplt

import (
	"bytes"
	"errors"
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
