package index

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"slices"
)

// Log and snapshot files are a magic string, a header frame, then record
// frames. A frame is a little-endian uint32 payload length, the CRC-32C
// of the payload, and the payload.
const (
	magic       = "OPSIDX\x00\x01"
	frameHeader = 8
	// maxFrame bounds one frame; a larger length is corruption.
	maxFrame = 1 << 30
)

// File kinds in a header.
const (
	kindLog      byte = 'L'
	kindSnapshot byte = 'S'
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// appendFrame appends payload as one frame.
func appendFrame(b, payload []byte) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(len(payload)))
	b = binary.LittleEndian.AppendUint32(b, crc32.Checksum(payload, castagnoli))
	return append(b, payload...)
}

// header identifies a log or snapshot file: which embedder built its
// vectors, and its generation.
type header struct {
	kind     byte
	embedder string
	dim      int
	gen      uint64
}

// appendHeader appends the magic and h's frame.
func appendHeader(b []byte, h header) []byte {
	p := []byte{h.kind}
	p = appendString(p, h.embedder)
	p = binary.AppendUvarint(p, uint64(h.dim))
	p = binary.AppendUvarint(p, h.gen)
	return appendFrame(append(b, magic...), p)
}

// parseHeader decodes a header frame's payload.
func parseHeader(p []byte) (header, error) {
	if len(p) == 0 {
		return header{}, fmt.Errorf("%w: empty header", ErrCorrupt)
	}
	d := &decoder{b: p[1:]}
	h := header{kind: p[0]}
	h.embedder = d.string("embedder")
	h.dim = int(d.uvarint("dim"))
	h.gen = d.uvarint("gen")
	if d.err == nil && len(d.b) != 0 {
		d.fail("header trailing bytes")
	}
	return h, d.err
}

// frameReader reads frames, tracking the offset just past the last good
// frame so a torn tail can be cut off.
type frameReader struct {
	r   *bufio.Reader
	off int64
	buf []byte
}

func newFrameReader(r io.Reader) *frameReader {
	return &frameReader{r: bufio.NewReaderSize(r, 256<<10)}
}

// readMagic checks the file's magic string.
func (fr *frameReader) readMagic() error {
	var m [len(magic)]byte
	if _, err := io.ReadFull(fr.r, m[:]); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return fmt.Errorf("%w: short magic", ErrCorrupt)
		}
		return fmt.Errorf("index: %w", err)
	}
	if string(m[:]) != magic {
		return fmt.Errorf("%w: bad magic", ErrCorrupt)
	}
	fr.off = int64(len(magic))
	return nil
}

// next returns the next frame's payload, valid until the following call.
// It returns io.EOF at a clean end, and an error wrapping ErrCorrupt for
// a torn or damaged frame.
func (fr *frameReader) next() ([]byte, error) {
	var h [frameHeader]byte
	n, err := io.ReadFull(fr.r, h[:])
	if err == io.EOF {
		return nil, io.EOF
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, fmt.Errorf("%w: torn frame header (%d bytes)", ErrCorrupt, n)
	}
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	size := binary.LittleEndian.Uint32(h[:4])
	if size > maxFrame {
		return nil, fmt.Errorf("%w: frame of %d bytes", ErrCorrupt, size)
	}
	p, err := fr.readN(int(size))
	if err != nil {
		return nil, err
	}
	if crc32.Checksum(p, castagnoli) != binary.LittleEndian.Uint32(h[4:]) {
		return nil, fmt.Errorf("%w: checksum mismatch", ErrCorrupt)
	}
	fr.off += frameHeader + int64(size)
	if cap(fr.buf) > 4<<20 && size < 1<<20 {
		fr.buf = nil // do not keep one huge record's buffer around
	}
	return p, nil
}

// readN reads n bytes into fr.buf. It grows the buffer as data arrives,
// so a corrupt length cannot make it allocate much more than the file
// holds.
func (fr *frameReader) readN(n int) ([]byte, error) {
	const step = 4 << 20
	fr.buf = fr.buf[:0]
	for len(fr.buf) < n {
		k := min(n-len(fr.buf), step)
		fr.buf = slices.Grow(fr.buf, k)
		m, err := io.ReadFull(fr.r, fr.buf[len(fr.buf):len(fr.buf)+k])
		fr.buf = fr.buf[:len(fr.buf)+m]
		if err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				return nil, fmt.Errorf("%w: torn frame", ErrCorrupt)
			}
			return nil, err
		}
	}
	return fr.buf, nil
}
