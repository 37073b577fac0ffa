package rdt

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"

	"opsassist/api"
)

// Wire constants.
const (
	// Magic is the two bytes every packet starts with ("RD").
	Magic uint16 = 0x5244
	// Version is the protocol version this package speaks.
	Version = 1
	// HeaderSize is the size of the common header: magic, version, type
	// and connection id.
	HeaderSize = 12
	// TrailerSize is the size of the CRC32C trailer.
	TrailerSize = 4
	// DefaultPayload is the default DATA payload size.
	DefaultPayload = 1200
	// MaxPayload is the largest DATA payload size a REQUEST may ask for,
	// and the largest a server sends unprobed.
	MaxPayload = 1452
	// MinPayload is the smallest DATA payload size a peer may ask for.
	MinPayload = 256
	// MaxTokenLen is the longest token a REQUEST may carry.
	MaxTokenLen = 128
	// MaxCookieLen is the longest cookie.
	MaxCookieLen = 64
	// MaxHaveRanges is the most byte ranges a REQUEST may carry.
	MaxHaveRanges = 64
	// MaxAckRanges is the most packet-number ranges an ACK may carry.
	MaxAckRanges = 32
	// MaxReasonLen is the longest ERROR reason.
	MaxReasonLen = 512
	// DataOverhead is a DATA packet's size without payload.
	DataOverhead = HeaderSize + 4 + 8 + 8 + TrailerSize
	// MaxPacketSize is the largest datagram a peer sends without
	// probing: a DATA packet of MaxPayload.
	MaxPacketSize = DataOverhead + MaxPayload
	// MaxDatagramSize is the largest valid packet: a DATA packet sent
	// after path MTU probing (CAPS) proved the path and the client take
	// it.
	MaxDatagramSize = 16384
	// MaxProbedPayload is the largest DATA payload.
	MaxProbedPayload = MaxDatagramSize - DataOverhead
)

// Type identifies the kind of a packet.
type Type uint8

// Packet types.
const (
	// TypeRequest asks for a file (client to server).
	TypeRequest Type = 0x01
	// TypeRetry carries the address-validation cookie (server to client).
	TypeRetry Type = 0x02
	// TypeData carries file bytes (server to client).
	TypeData Type = 0x03
	// TypeAck acknowledges packets with SACK ranges (client to server).
	TypeAck Type = 0x04
	// TypeFin carries the file size and SHA-256 (server to client).
	TypeFin Type = 0x05
	// TypeError ends a transfer with a reason (either direction).
	TypeError Type = 0x06
	// TypePing asks for an ACK (server to client).
	TypePing Type = 0x07
	// TypeCaps tells the server the largest datagram the client takes,
	// which lets it probe the path for larger DATA (client to server).
	TypeCaps Type = 0x08
)

var typeNames = map[Type]string{
	TypeRequest: "REQUEST", TypeRetry: "RETRY", TypeData: "DATA", TypeAck: "ACK",
	TypeFin: "FIN", TypeError: "ERROR", TypePing: "PING", TypeCaps: "CAPS",
}

// String returns the protocol name of t.
func (t Type) String() string {
	if n, ok := typeNames[t]; ok {
		return n
	}
	return fmt.Sprintf("TYPE_0x%02X", uint8(t))
}

// ErrorCode says why a transfer was refused or ended.
type ErrorCode uint8

// Error codes carried by ERROR packets.
const (
	// CodeUnknownToken: the token was never issued or is long gone.
	CodeUnknownToken ErrorCode = 1
	// CodeExpiredToken: the token expired.
	CodeExpiredToken ErrorCode = 2
	// CodeWrongFile: the token is for another file than the client
	// expects, or the file changed since the token was issued.
	CodeWrongFile ErrorCode = 3
	// CodeBusy: too many transfers, globally or from this address.
	CodeBusy ErrorCode = 4
	// CodeBadRequest: the request cannot be served as asked.
	CodeBadRequest ErrorCode = 5
	// CodeInternal: the server failed (e.g. reading the file).
	CodeInternal ErrorCode = 6
	// CodeShuttingDown: the server is stopping.
	CodeShuttingDown ErrorCode = 7
	// CodeChecksum: the receiver's SHA-256 did not match.
	CodeChecksum ErrorCode = 8
	// CodeCancelled: the peer gave up.
	CodeCancelled ErrorCode = 9
)

// codeNames are the codes' names, which api owns.
var codeNames = map[ErrorCode]string{
	CodeUnknownToken: api.CodeRDTUnknownToken, CodeExpiredToken: api.CodeRDTExpiredToken, CodeWrongFile: api.CodeRDTWrongFile,
	CodeBusy: api.CodeRDTBusy, CodeBadRequest: api.CodeBadRequest, CodeInternal: api.CodeInternal,
	CodeShuttingDown: api.CodeShuttingDown, CodeChecksum: api.CodeRDTChecksum, CodeCancelled: api.CodeRDTCancelled,
}

// String returns the code's name.
func (c ErrorCode) String() string {
	if n, ok := codeNames[c]; ok {
		return n
	}
	return fmt.Sprintf("code_%d", uint8(c))
}

// Codec errors. Every packet Parse rejects matches ErrMalformed.
var (
	// ErrMalformed is wrapped by every decoding error.
	ErrMalformed = errors.New("rdt: malformed packet")
	// ErrShortPacket: the packet ends before its fields do.
	ErrShortPacket = fmt.Errorf("%w: short packet", ErrMalformed)
	// ErrBadMagic: the packet does not start with Magic.
	ErrBadMagic = fmt.Errorf("%w: bad magic", ErrMalformed)
	// ErrBadVersion: the packet is of another protocol version.
	ErrBadVersion = fmt.Errorf("%w: unsupported version", ErrMalformed)
	// ErrBadChecksum: the CRC32C does not match.
	ErrBadChecksum = fmt.Errorf("%w: bad checksum", ErrMalformed)
	// ErrUnknownType: the type byte is not a known packet type.
	ErrUnknownType = fmt.Errorf("%w: unknown type", ErrMalformed)
	// ErrTooLarge: the packet, or a length field, exceeds its limit.
	ErrTooLarge = fmt.Errorf("%w: too large", ErrMalformed)
	// ErrTrailingBytes: bytes follow the last field.
	ErrTrailingBytes = fmt.Errorf("%w: trailing bytes", ErrMalformed)
	// ErrBadRange: a range is empty or out of order.
	ErrBadRange = fmt.Errorf("%w: bad range", ErrMalformed)
)

// Range is the half-open byte range [Start, End) of the file.
type Range struct {
	Start, End uint64
}

// PNRange is the closed packet-number range [Lo, Hi].
type PNRange struct {
	Lo, Hi uint32
}

// Packet is one decoded packet. Which fields are meaningful depends on
// Type; the others are zero.
type Packet struct {
	Type   Type
	ConnID uint64

	// REQUEST: Token, Cookie, Expect (the SHA-256 the client expects, all
	// zero for any), MaxPayload, Window (packets) and Have (byte ranges
	// already held, ascending and disjoint). RETRY: Cookie.
	Token      string
	Cookie     []byte
	Expect     [32]byte
	MaxPayload uint16
	Window     uint32
	Have       []Range

	// DATA: PN, Offset, Size (of the whole file) and Payload. FIN: PN,
	// Size and SHA256. PING: PN.
	PN      uint32
	Offset  uint64
	Size    uint64
	Payload []byte
	SHA256  [32]byte

	// ACK: Acks (descending, disjoint, not adjacent), AckDelay in
	// microseconds, MaxOffset (the flow-control limit: the sender may not
	// send bytes at or beyond it) and Done (the file is verified and in
	// place).
	Acks      []PNRange
	AckDelay  uint32
	MaxOffset uint64
	Done      bool

	// ERROR: Code and Reason.
	Code   ErrorCode
	Reason string

	// CAPS: MaxDatagram, the largest datagram the client can receive.
	MaxDatagram uint16
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Append appends the wire encoding of p to b. It returns an error
// matching ErrTooLarge or ErrBadRange if a field does not fit the format;
// an encoded packet always parses back equal.
func (p *Packet) Append(b []byte) ([]byte, error) {
	if err := p.validate(); err != nil {
		return b, err
	}
	start := len(b)
	b = binary.BigEndian.AppendUint16(b, Magic)
	b = append(b, Version, byte(p.Type))
	b = binary.BigEndian.AppendUint64(b, p.ConnID)
	switch p.Type {
	case TypeRequest:
		b = append(b, byte(len(p.Token)))
		b = append(b, p.Token...)
		b = append(b, byte(len(p.Cookie)))
		b = append(b, p.Cookie...)
		b = append(b, p.Expect[:]...)
		b = binary.BigEndian.AppendUint16(b, p.MaxPayload)
		b = binary.BigEndian.AppendUint32(b, p.Window)
		b = append(b, byte(len(p.Have)))
		for _, r := range p.Have {
			b = binary.BigEndian.AppendUint64(b, r.Start)
			b = binary.BigEndian.AppendUint64(b, r.End)
		}
	case TypeRetry:
		b = append(b, byte(len(p.Cookie)))
		b = append(b, p.Cookie...)
	case TypeData:
		b = binary.BigEndian.AppendUint32(b, p.PN)
		b = binary.BigEndian.AppendUint64(b, p.Offset)
		b = binary.BigEndian.AppendUint64(b, p.Size)
		b = append(b, p.Payload...)
	case TypeAck:
		b = append(b, byte(len(p.Acks)))
		for _, r := range p.Acks {
			b = binary.BigEndian.AppendUint32(b, r.Hi)
			b = binary.BigEndian.AppendUint32(b, r.Lo)
		}
		b = binary.BigEndian.AppendUint32(b, p.AckDelay)
		b = binary.BigEndian.AppendUint64(b, p.MaxOffset)
		var flags byte
		if p.Done {
			flags = 1
		}
		b = append(b, flags)
	case TypeFin:
		b = binary.BigEndian.AppendUint32(b, p.PN)
		b = binary.BigEndian.AppendUint64(b, p.Size)
		b = append(b, p.SHA256[:]...)
	case TypeError:
		b = append(b, byte(p.Code))
		b = binary.BigEndian.AppendUint16(b, uint16(len(p.Reason)))
		b = append(b, p.Reason...)
	case TypePing:
		b = binary.BigEndian.AppendUint32(b, p.PN)
	case TypeCaps:
		b = binary.BigEndian.AppendUint16(b, p.MaxDatagram)
	}
	return binary.BigEndian.AppendUint32(b, crc32.Checksum(b[start:], castagnoli)), nil
}

// appendCRC appends the CRC32C of b to b.
func appendCRC(b []byte) []byte {
	return binary.BigEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
}

// validate checks what the format cannot express.
func (p *Packet) validate() error {
	switch p.Type {
	case TypeRequest:
		if len(p.Token) > MaxTokenLen || len(p.Cookie) > MaxCookieLen || len(p.Have) > MaxHaveRanges {
			return ErrTooLarge
		}
		return checkHave(p.Have)
	case TypeRetry:
		if len(p.Cookie) > MaxCookieLen {
			return ErrTooLarge
		}
	case TypeData:
		if len(p.Payload) > MaxProbedPayload {
			return ErrTooLarge
		}
	case TypeAck:
		if len(p.Acks) > MaxAckRanges {
			return ErrTooLarge
		}
		return checkAcks(p.Acks)
	case TypeError:
		if len(p.Reason) > MaxReasonLen {
			return ErrTooLarge
		}
	case TypeFin, TypePing, TypeCaps:
	default:
		return ErrUnknownType
	}
	return nil
}

// checkHave requires ascending, disjoint, non-adjacent, non-empty ranges.
func checkHave(rs []Range) error {
	for i, r := range rs {
		if r.Start >= r.End || i > 0 && r.Start <= rs[i-1].End {
			return ErrBadRange
		}
	}
	return nil
}

// checkAcks requires descending, disjoint, non-adjacent ranges.
func checkAcks(rs []PNRange) error {
	for i, r := range rs {
		if r.Lo > r.Hi || i > 0 && uint64(r.Hi)+1 >= uint64(rs[i-1].Lo) {
			return ErrBadRange
		}
	}
	return nil
}

// Parse decodes one packet, which must fill b exactly. The Payload and
// Cookie of the result alias b.
func Parse(b []byte) (Packet, error) {
	var p Packet
	if len(b) < HeaderSize+TrailerSize {
		return p, ErrShortPacket
	}
	if len(b) > MaxDatagramSize {
		return p, ErrTooLarge
	}
	if binary.BigEndian.Uint16(b) != Magic {
		return p, ErrBadMagic
	}
	if b[2] != Version {
		return p, ErrBadVersion
	}
	body := b[:len(b)-TrailerSize]
	if crc32.Checksum(body, castagnoli) != binary.BigEndian.Uint32(b[len(body):]) {
		return p, ErrBadChecksum
	}
	p.Type = Type(b[3])
	p.ConnID = binary.BigEndian.Uint64(b[4:12])
	d := decoder{b: body[HeaderSize:]}
	switch p.Type {
	case TypeRequest:
		p.Token = string(d.bytes(int(d.u8())))
		p.Cookie = d.bytes(int(d.u8()))
		copy(p.Expect[:], d.bytes(32))
		p.MaxPayload = d.u16()
		p.Window = d.u32()
		n := int(d.u8())
		if n > MaxHaveRanges {
			return p, ErrTooLarge
		}
		for i := 0; i < n && d.err == nil; i++ {
			p.Have = append(p.Have, Range{Start: d.u64(), End: d.u64()})
		}
		if len(p.Token) > MaxTokenLen || len(p.Cookie) > MaxCookieLen {
			return p, ErrTooLarge
		}
		if d.err == nil {
			d.err = checkHave(p.Have)
		}
	case TypeRetry:
		p.Cookie = d.bytes(int(d.u8()))
		if len(p.Cookie) > MaxCookieLen {
			return p, ErrTooLarge
		}
	case TypeData:
		p.PN = d.u32()
		p.Offset = d.u64()
		p.Size = d.u64()
		if d.err == nil && len(d.b) > 0 {
			p.Payload = d.bytes(len(d.b))
		}
	case TypeAck:
		n := int(d.u8())
		if n > MaxAckRanges {
			return p, ErrTooLarge
		}
		for i := 0; i < n && d.err == nil; i++ {
			hi := d.u32()
			p.Acks = append(p.Acks, PNRange{Hi: hi, Lo: d.u32()})
		}
		p.AckDelay = d.u32()
		p.MaxOffset = d.u64()
		flags := d.u8()
		if flags&^1 != 0 {
			return p, fmt.Errorf("%w: unknown ack flags", ErrMalformed)
		}
		p.Done = flags == 1
		if d.err == nil {
			d.err = checkAcks(p.Acks)
		}
	case TypeFin:
		p.PN = d.u32()
		p.Size = d.u64()
		copy(p.SHA256[:], d.bytes(32))
	case TypeError:
		p.Code = ErrorCode(d.u8())
		n := int(d.u16())
		if n > MaxReasonLen {
			return p, ErrTooLarge
		}
		p.Reason = string(d.bytes(n))
	case TypePing:
		p.PN = d.u32()
	case TypeCaps:
		p.MaxDatagram = d.u16()
	default:
		return p, ErrUnknownType
	}
	if d.err != nil {
		return p, d.err
	}
	if len(d.b) != 0 {
		return p, ErrTrailingBytes
	}
	return p, nil
}

// decoder reads big-endian fields; the first shortfall sticks in err.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) take(n int) []byte {
	if d.err != nil {
		return nil
	}
	if len(d.b) < n {
		d.err = ErrShortPacket
		return nil
	}
	v := d.b[:n:n]
	d.b = d.b[n:]
	return v
}

func (d *decoder) u8() uint8 {
	if v := d.take(1); v != nil {
		return v[0]
	}
	return 0
}

func (d *decoder) u16() uint16 {
	if v := d.take(2); v != nil {
		return binary.BigEndian.Uint16(v)
	}
	return 0
}

func (d *decoder) u32() uint32 {
	if v := d.take(4); v != nil {
		return binary.BigEndian.Uint32(v)
	}
	return 0
}

func (d *decoder) u64() uint64 {
	if v := d.take(8); v != nil {
		return binary.BigEndian.Uint64(v)
	}
	return 0
}

// bytes returns the next n bytes, or nil for n == 0.
func (d *decoder) bytes(n int) []byte {
	v := d.take(n)
	if len(v) == 0 {
		return nil
	}
	return v
}
