package nplt

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

// FuzzReader feeds arbitrary bytes to Reader. Every frame it accepts must
// re-encode to the same bytes and parse back equal, whole and split in two.
func FuzzReader(f *testing.F) {
	for _, fr := range []Frame{
		{Type: ChatText, Payload: []byte("CPU使用率是多少？")},
		{Type: ChatText},
		{Type: AgentThought, Seq: 1, Payload: []byte(`{"type":"stream_start"}`)},
		{Type: FileMetadata, Seq: 2, Payload: []byte(`{"filename":"a.txt","size":3}`)},
		{Type: FileData, Seq: 3, Payload: []byte("abc")},
	} {
		b, _ := fr.Append(nil)
		f.Add(b)
	}
	f.Add([]byte{0x01, 0x00})
	f.Add([]byte{0x01, 0x00, 0x00, 0xFF, 0xFF, 0x00})
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewReader(bytes.NewReader(data))
		consumed := 0
		for {
			fr, err := r.ReadFrame()
			if err != nil {
				if err != io.EOF && !errors.Is(err, ErrShortHeader) && !errors.Is(err, ErrShortPayload) {
					t.Fatalf("unexpected error %v", err)
				}
				return
			}
			enc, err := fr.Append(nil)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(enc, data[consumed:consumed+len(enc)]) {
				t.Fatalf("re-encoding differs")
			}
			consumed += len(enc)
			for split := 0; split <= len(enc); split += 1 + len(enc)/7 {
				r2 := NewReader(io.MultiReader(bytes.NewReader(enc[:split]), bytes.NewReader(enc[split:])))
				fr2, err := r2.ReadFrame()
				if err != nil || fr2.Type != fr.Type || fr2.Seq != fr.Seq || !bytes.Equal(fr2.Payload, fr.Payload) {
					t.Fatalf("split at %d: %v", split, err)
				}
			}
			p, n, err := Parse(enc)
			if err != nil || n != len(enc) || !bytes.Equal(p.Payload, fr.Payload) {
				t.Fatalf("Parse: %v", err)
			}
		}
	})
}
