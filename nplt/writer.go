package nplt

import (
	"bufio"
	"fmt"
	"io"
	"net"
)

// Writer writes frames to a byte stream, numbering them with a sequence
// counter that starts at 0 and wraps at 65536. Small frames are buffered
// until Flush; a frame whose payload is at least the buffer size is
// written at once, header and payload in one vectored write when the
// stream supports it (net.Conn). A Writer is not safe for concurrent use.
type Writer struct {
	w   io.Writer
	bw  *bufio.Writer
	seq uint16
	hdr [HeaderSize]byte
}

// NewWriter returns a Writer that writes to w.
func NewWriter(w io.Writer) *Writer {
	return &Writer{w: w, bw: bufio.NewWriterSize(w, 4096)}
}

// WriteFrame writes one frame of type t with the next sequence number. It
// returns ErrFrameTooLarge, without writing anything, if payload exceeds
// MaxPayload.
func (w *Writer) WriteFrame(t Type, payload []byte) error {
	if len(payload) > MaxPayload {
		return fmt.Errorf("%w: %d bytes", ErrFrameTooLarge, len(payload))
	}
	putHeader(w.hdr[:], Header{Type: t, Seq: w.seq, Len: uint16(len(payload))})
	if len(payload) >= w.bw.Size() {
		if err := w.bw.Flush(); err != nil {
			return err
		}
		bufs := net.Buffers{w.hdr[:], payload}
		if _, err := bufs.WriteTo(w.w); err != nil {
			return err
		}
		w.seq++
		return nil
	}
	if _, err := w.bw.Write(w.hdr[:]); err != nil {
		return err
	}
	if _, err := w.bw.Write(payload); err != nil {
		return err
	}
	w.seq++
	return nil
}

// Buffered returns the number of bytes waiting for Flush.
func (w *Writer) Buffered() int { return w.bw.Buffered() }

// Flush writes any buffered frames to the underlying writer.
func (w *Writer) Flush() error { return w.bw.Flush() }
