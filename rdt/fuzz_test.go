package rdt

import (
	"errors"
	"reflect"
	"testing"
)

// FuzzParse feeds arbitrary bytes to Parse. Whatever it accepts must
// re-encode to the same bytes and parse back equal; a packet split in two
// (as a truncated datagram) is rejected, never half-accepted.
func FuzzParse(f *testing.F) {
	for _, p := range samplePackets() {
		b, err := p.Append(nil)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte{0x52, 0x44, 0x01})
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse(data)
		if err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("error %v does not match ErrMalformed", err)
			}
			return
		}
		enc, err := p.Append(nil)
		if err != nil {
			t.Fatalf("re-encoding %+v: %v", p, err)
		}
		if string(enc) != string(data) {
			t.Fatalf("re-encoding differs")
		}
		q, err := Parse(enc)
		if err != nil || !reflect.DeepEqual(p, q) {
			t.Fatalf("re-parse: %v", err)
		}
		for _, split := range []int{0, len(enc) / 2, len(enc) - 1} {
			if _, err := Parse(enc[:split]); err == nil {
				t.Fatalf("prefix of %d bytes accepted", split)
			}
			if _, err := Parse(enc[split:]); err == nil && split > 0 {
				t.Fatalf("suffix from %d accepted", split)
			}
		}
	})
}
