package index

import (
	"bytes"
	"testing"
	"time"
)

// FuzzParseRecord checks that any bytes either fail to parse or parse to
// a record that encodes back to the same bytes.
func FuzzParseRecord(f *testing.F) {
	f.Add(appendRecord(nil, record{op: opDelete, id: "file-1"}))
	f.Add(appendRecord(nil, record{op: opPut, file: File{ID: "a", Name: "a.md", Scope: ScopeSystem, Skipped: "binary"}}))
	f.Add(appendRecord(nil, record{op: opPut, file: File{ID: "u", Name: "c.yaml", Path: "/x/c.yaml", Scope: ScopeUploads,
		ConversationID: "c", SHA256: "00ff", UploadedAt: time.Unix(1700000000, 5).UTC(),
		Chunks: []Chunk{{Text: "port: 5432", Position: "line 1-2", Embedding: []float32{0.6, 0.8}}, {Text: "数据库", Position: "# 配置", Embedding: []float32{1, 0}}}}}))
	qf := File{ID: "q", Name: "q.md", Scope: ScopeSystem, Chunks: []Chunk{{Text: "端口 5432", Position: "line 1-1", Embedding: []float32{0.6, -0.8}}}}
	f.Add(appendRecord(nil, record{op: opPutQ, file: File{ID: qf.ID, Name: qf.Name, Scope: qf.Scope, Chunks: withoutEmbeddings(qf.Chunks)}, vecs: quantize(qf.Chunks, 2)}))
	f.Add([]byte{opPut, 0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Add([]byte{opPutQ, 0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := parseRecord(b)
		if err != nil {
			return
		}
		again := appendRecord(nil, r)
		if !bytes.Equal(again, b) {
			// Non-minimal varints parse but re-encode shorter; the re-encoded
			// form must parse to the same record.
			// (Bytes, not DeepEqual: NaN vector values never compare equal.)
			r2, err := parseRecord(again)
			if err != nil {
				t.Fatalf("re-encoded record does not parse: %v", err)
			}
			if third := appendRecord(nil, r2); !bytes.Equal(third, again) {
				t.Fatalf("round trip changed the record:\n%+v\n%+v", r, r2)
			}
		}
	})
}

// FuzzLogFrames feeds arbitrary bytes to the frame reader: it must stop
// with io.EOF or a corruption error, never panic or over-allocate.
func FuzzLogFrames(f *testing.F) {
	var b []byte
	b = appendHeader(b, header{kind: kindLog, embedder: "builtin-hash-v1-64", dim: 64, gen: 3})
	b = appendFrame(b, appendRecord(nil, record{op: opDelete, id: "x"}))
	f.Add(b)
	f.Add(b[:len(b)-2])
	f.Add([]byte(magic + "\xff\xff\xff\x7f"))
	f.Fuzz(func(t *testing.T, b []byte) {
		fr := newFrameReader(bytes.NewReader(b))
		if _, err := readHeader(fr, kindLog); err != nil {
			return
		}
		for {
			p, err := fr.next()
			if err != nil {
				if fr.off > int64(len(b)) {
					t.Fatalf("offset %d past end %d", fr.off, len(b))
				}
				return
			}
			parseRecord(p)
		}
	})
}
