package nplt

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// Reader reads frames from a byte stream.
type Reader struct {
	br  *bufio.Reader
	hdr [HeaderSize]byte
	buf []byte
}

// NewReader returns a Reader that reads from r. If r is already a
// *bufio.Reader it is used directly, so a caller may Peek it to wait for
// the start of the next frame.
func NewReader(r io.Reader) *Reader {
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReaderSize(r, 4096)
	}
	return &Reader{br: br}
}

// shrinkAbove is the payload buffer capacity above which the buffer is
// released after use, so an idle connection does not pin a 64 KiB buffer.
const shrinkAbove = 4096

// ReadFrame reads the next frame. The returned payload is valid only until
// the next call to ReadFrame. At a clean end of stream between frames it
// returns io.EOF; a stream that ends inside a frame yields ErrShortHeader
// or ErrShortPayload.
func (r *Reader) ReadFrame() (Frame, error) {
	if _, err := io.ReadFull(r.br, r.hdr[:]); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return Frame{}, ErrShortHeader
		}
		return Frame{}, err
	}
	h, _ := ParseHeader(r.hdr[:])
	n := int(h.Len)
	if cap(r.buf) > shrinkAbove && n <= shrinkAbove {
		r.buf = nil
	}
	if cap(r.buf) < n {
		r.buf = make([]byte, n)
	}
	p := r.buf[:n]
	if _, err := io.ReadFull(r.br, p); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return Frame{}, fmt.Errorf("%w: want %d bytes", ErrShortPayload, n)
		}
		return Frame{}, fmt.Errorf("reading payload: %w", err)
	}
	return Frame{Type: h.Type, Seq: h.Seq, Payload: p}, nil
}
