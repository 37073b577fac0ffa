package rdt

import (
	"errors"
	"fmt"
	"reflect"
	"testing"
)

// samplePackets has one packet of every type, with every field used.
func samplePackets() []Packet {
	var sum [32]byte
	for i := range sum {
		sum[i] = byte(i)
	}
	return []Packet{
		{Type: TypeRequest, ConnID: 1, Token: "0123456789abcdef0123456789abcdef", MaxPayload: 1200, Window: 4096},
		{Type: TypeRequest, ConnID: 2, Token: "t", Cookie: []byte("cookie-cookie-cookie-123"), Expect: sum, MaxPayload: 1452, Window: 1,
			Have: []Range{{0, 1200}, {2400, 4800}}},
		{Type: TypeRetry, ConnID: 3, Cookie: []byte("c")},
		{Type: TypeData, ConnID: 4, PN: 7, Offset: 5 << 32, Size: 6 << 32, Payload: []byte("hello")},
		{Type: TypeData, ConnID: 4, PN: 8, Offset: 0, Size: 0},
		{Type: TypeAck, ConnID: 5, Acks: []PNRange{{Lo: 10, Hi: 20}, {Lo: 3, Hi: 5}, {Lo: 0, Hi: 0}}, AckDelay: 1000, MaxOffset: 1 << 40, Done: true},
		{Type: TypeAck, ConnID: 5, MaxOffset: 9},
		{Type: TypeFin, ConnID: 6, PN: 99, Size: 12345, SHA256: sum},
		{Type: TypeError, ConnID: 7, Code: CodeUnknownToken, Reason: "unknown download token"},
		{Type: TypePing, ConnID: 8, PN: 1 << 31},
		{Type: TypeCaps, ConnID: 9, MaxDatagram: MaxDatagramSize},
		{Type: TypeData, ConnID: 10, PN: 1, Size: MaxProbedPayload, Payload: make([]byte, MaxProbedPayload)},
	}
}

func TestPacketRoundTrip(t *testing.T) {
	for _, p := range samplePackets() {
		b, err := p.Append(nil)
		if err != nil {
			t.Fatalf("%s: %v", p.Type, err)
		}
		q, err := Parse(b)
		if err != nil {
			t.Fatalf("%s: %v", p.Type, err)
		}
		if !reflect.DeepEqual(p, q) {
			t.Fatalf("%s: got %+v, want %+v", p.Type, q, p)
		}
		// Every proper prefix is rejected, never a panic.
		for n := 0; n < len(b); n++ {
			if _, err := Parse(b[:n]); !errors.Is(err, ErrMalformed) {
				t.Fatalf("%s prefix %d: %v", p.Type, n, err)
			}
		}
		// Every flipped bit is caught by the CRC (or the header checks).
		for i := 0; i < len(b)*8; i += 7 {
			c := append([]byte(nil), b...)
			c[i/8] ^= 1 << (i % 8)
			if _, err := Parse(c); !errors.Is(err, ErrMalformed) {
				t.Fatalf("%s bit %d flipped: %v", p.Type, i, err)
			}
		}
	}
}

func TestPacketErrors(t *testing.T) {
	good, _ := (&Packet{Type: TypePing, ConnID: 1, PN: 2}).Append(nil)
	reseal := func(b []byte) []byte {
		return appendCRC(b[:len(b)-TrailerSize])
	}
	cases := []struct {
		name string
		b    []byte
		want error
	}{
		{"empty", nil, ErrShortPacket},
		{"header only", good[:HeaderSize], ErrShortPacket},
		{"bad magic", reseal(append([]byte{'X'}, good[1:]...)), ErrBadMagic},
		{"bad version", reseal(append(append([]byte{}, good[:2]...), append([]byte{9}, good[3:]...)...)), ErrBadVersion},
		{"bad crc", append(append([]byte{}, good[:len(good)-1]...), good[len(good)-1]^1), ErrBadChecksum},
		{"unknown type", reseal(append(append([]byte{}, good[:3]...), append([]byte{0x7F}, good[4:]...)...)), ErrUnknownType},
		{"trailing", reseal(append(append([]byte{}, good[:len(good)-TrailerSize]...), 0, 0, 0, 0, 0)), ErrTrailingBytes},
		{"too large", make([]byte, MaxDatagramSize+1), ErrTooLarge},
	}
	for _, c := range cases {
		if _, err := Parse(c.b); !errors.Is(err, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, err, c.want)
		}
	}
	bad := []Packet{
		{Type: TypeData, Payload: make([]byte, MaxProbedPayload+1)},
		{Type: TypeAck, Acks: []PNRange{{Lo: 1, Hi: 2}, {Lo: 3, Hi: 4}}},
		{Type: TypeAck, Acks: []PNRange{{Lo: 5, Hi: 6}, {Lo: 3, Hi: 4}}}, // adjacent
		{Type: TypeRequest, Have: []Range{{5, 5}}},
		{Type: TypeRequest, Token: string(make([]byte, MaxTokenLen+1))},
		{Type: TypeError, Reason: string(make([]byte, MaxReasonLen+1))},
		{Type: 0x42},
	}
	for _, p := range bad {
		if _, err := p.Append(nil); !errors.Is(err, ErrMalformed) {
			t.Errorf("%+v encoded: %v", p.Type, err)
		}
	}
}

func TestAppendKeepsPrefix(t *testing.T) {
	b, err := (&Packet{Type: TypePing, ConnID: 1, PN: 2}).Append([]byte("xyz"))
	if err != nil || string(b[:3]) != "xyz" {
		t.Fatal(err)
	}
	if p, err := Parse(b[3:]); err != nil || p.PN != 2 {
		t.Fatal(p, err)
	}
}

// TestCapsHex: the CAPS example of docs/protocol/rdt.md.
func TestCapsHex(t *testing.T) {
	b, err := (&Packet{Type: TypeCaps, ConnID: 0x0102030405060708, MaxDatagram: 16384}).Append(nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprintf("% x", b), "52 44 01 08 01 02 03 04 05 06 07 08 40 00 d8 de 4c 18"; got != want {
		t.Fatalf("CAPS %s, want %s", got, want)
	}
	if _, err := Parse(append(b[:len(b)-TrailerSize:len(b)-TrailerSize], 0)); err == nil {
		t.Fatal("a cut CAPS parsed")
	}
}
