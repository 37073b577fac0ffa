package index

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
)

// Record operations.
const (
	opPut    byte = 1 // a file with float32 vectors (written before opPutQ; still read)
	opDelete byte = 2
	opPutQ   byte = 3 // a file with 8-bit vectors (see vectors)
)

// Errors returned when decoding records.
var (
	// ErrCorrupt means a record or log frame failed its checks.
	ErrCorrupt = errors.New("index: corrupt record")
)

// Scopes of a File.
const (
	ScopeSystem  = "system"
	ScopeUploads = "uploads"
)

// File is one indexed file and its chunks.
type File struct {
	// ID identifies the file: an upload's file id, or a system document's
	// id derived from its path (SystemID).
	ID string
	// Name is the file name shown to users.
	Name string
	// Path is the file's absolute path.
	Path string
	// Scope is ScopeSystem or ScopeUploads.
	Scope string
	// ConversationID owns an upload; empty for system documents.
	ConversationID string
	// SHA256 is the hex digest of the file's bytes when it was indexed.
	SHA256 string
	// UploadedAt is the upload time, or a system document's mtime.
	UploadedAt time.Time
	// Skipped, if not empty, says why the file has no chunks (an
	// unsupported type, too large, binary…).
	Skipped string
	// Chunks are the file's pieces with their embeddings.
	Chunks []Chunk
}

// Chunk is one piece of a file's text.
type Chunk struct {
	// Text is the chunk's text.
	Text string
	// Position is "line a-b" or the nearest heading.
	Position string
	// Embedding is the chunk's vector, of the index's dimension.
	Embedding []float32
}

// record is one log entry: a put of a whole file, or a delete.
type record struct {
	op   byte
	file File    // opPut, opPutQ (without embeddings: they are in vecs)
	vecs vectors // opPutQ
	id   string  // opDelete
}

// appendRecord encodes r onto b.
func appendRecord(b []byte, r record) []byte {
	b = append(b, r.op)
	switch r.op {
	case opDelete:
		return appendString(b, r.id)
	case opPut, opPutQ:
	default:
		panic(fmt.Sprintf("index: unknown record op %d", r.op))
	}
	f := &r.file
	for _, s := range []string{f.ID, f.Name, f.Path, f.Scope, f.ConversationID, f.SHA256, f.Skipped} {
		b = appendString(b, s)
	}
	var t int64
	if !f.UploadedAt.IsZero() {
		t = f.UploadedAt.UnixNano()
	}
	b = binary.LittleEndian.AppendUint64(b, uint64(t))
	dim := 0
	switch {
	case r.op == opPutQ:
		dim = r.vecs.dim
	case len(f.Chunks) > 0:
		dim = len(f.Chunks[0].Embedding)
	}
	b = binary.AppendUvarint(b, uint64(len(f.Chunks)))
	b = binary.AppendUvarint(b, uint64(dim))
	for i, c := range f.Chunks {
		b = appendString(b, c.Text)
		b = appendString(b, c.Position)
		if r.op == opPutQ {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(r.vecs.scale[i]))
			for _, v := range r.vecs.chunk(i) {
				b = append(b, byte(v))
			}
			continue
		}
		for _, v := range c.Embedding[:dim] {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
		}
	}
	return b
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// decoder reads a record's fields, checking every length against what is
// left before allocating.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) fail(what string) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: %s", ErrCorrupt, what)
	}
}

func (d *decoder) uvarint(what string) uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail(what)
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) string(what string) string { return string(d.bytes(what)) }

// bytes returns the next length-prefixed field, aliasing the input.
func (d *decoder) bytes(what string) []byte {
	n := d.uvarint(what)
	if d.err != nil {
		return nil
	}
	if n > uint64(len(d.b)) {
		d.fail(what)
		return nil
	}
	b := d.b[:n:n]
	d.b = d.b[n:]
	return b
}

func (d *decoder) uint64(what string) uint64 {
	if d.err != nil {
		return 0
	}
	if len(d.b) < 8 {
		d.fail(what)
		return 0
	}
	v := binary.LittleEndian.Uint64(d.b)
	d.b = d.b[8:]
	return v
}

// parseRecord decodes one record that fills b exactly.
func parseRecord(b []byte) (record, error) {
	if len(b) == 0 {
		return record{}, fmt.Errorf("%w: empty", ErrCorrupt)
	}
	d := &decoder{b: b[1:]}
	r := record{op: b[0]}
	switch r.op {
	case opDelete:
		r.id = d.string("id")
	case opPut, opPutQ:
		if err := parsePut(d, &r); err != nil {
			return record{}, err
		}
	default:
		return record{}, fmt.Errorf("%w: unknown op %d", ErrCorrupt, r.op)
	}
	if d.err != nil {
		return record{}, d.err
	}
	if len(d.b) != 0 {
		return record{}, fmt.Errorf("%w: %d trailing bytes", ErrCorrupt, len(d.b))
	}
	return r, nil
}

// parsePut decodes the body of an opPut or opPutQ record.
func parsePut(d *decoder, r *record) error {
	f := &r.file
	f.ID = d.string("id")
	f.Name = d.string("name")
	f.Path = d.string("path")
	f.Scope = d.string("scope")
	f.ConversationID = d.string("conversation")
	f.SHA256 = d.string("sha256")
	f.Skipped = d.string("skipped")
	if t := int64(d.uint64("time")); t != 0 {
		f.UploadedAt = time.Unix(0, t).UTC()
	}
	n := d.uvarint("chunks")
	dim := d.uvarint("dim")
	if d.err != nil {
		return d.err
	}
	// Each chunk takes at least two length bytes and its vector: 4 bytes
	// a component, or a 4-byte scale and a byte a component.
	vecBytes := 4 * dim
	if r.op == opPutQ {
		vecBytes = 4 + dim
	}
	// A file without chunks (skipped: binary, no text, over a quota) may
	// carry the index's dimension: only chunks must fit.
	if n > 0 && (dim > uint64(len(d.b)) || n > uint64(len(d.b))/(2+vecBytes)) {
		return fmt.Errorf("%w: %d chunks of dimension %d in %d bytes", ErrCorrupt, n, dim, len(d.b))
	}
	if n > 0 {
		f.Chunks = make([]Chunk, n)
	}
	if r.op == opPutQ {
		r.vecs = vectors{dim: int(dim), q: make([]int8, 0, n*dim), scale: make([]float32, 0, n)}
	}
	// One allocation for all the file's texts: per-chunk strings would
	// cost more in size-class rounding than the index may spend.
	type span struct{ text, pos []byte }
	spans := make([]span, n)
	total := 0
	for i := range f.Chunks {
		c := &f.Chunks[i]
		spans[i].text = d.bytes("text")
		spans[i].pos = d.bytes("position")
		if d.err != nil {
			return d.err
		}
		total += len(spans[i].text) + len(spans[i].pos)
		if uint64(len(d.b)) < vecBytes {
			return fmt.Errorf("%w: short vector", ErrCorrupt)
		}
		if r.op == opPutQ {
			r.vecs.scale = append(r.vecs.scale, math.Float32frombits(binary.LittleEndian.Uint32(d.b)))
			for _, v := range d.b[4 : 4+dim] {
				r.vecs.q = append(r.vecs.q, int8(v))
			}
		} else {
			c.Embedding = make([]float32, dim)
			for j := range c.Embedding {
				c.Embedding[j] = math.Float32frombits(binary.LittleEndian.Uint32(d.b[4*j:]))
			}
		}
		d.b = d.b[vecBytes:]
	}
	var sb strings.Builder
	sb.Grow(total)
	for _, sp := range spans {
		sb.Write(sp.text)
		sb.Write(sp.pos)
	}
	all, off := sb.String(), 0
	for i, sp := range spans {
		f.Chunks[i].Text = all[off : off+len(sp.text)]
		off += len(sp.text)
		f.Chunks[i].Position = all[off : off+len(sp.pos)]
		off += len(sp.pos)
	}
	return nil
}
