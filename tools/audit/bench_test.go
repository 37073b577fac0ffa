package audit

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkRecord is the audit cost of one tool call: encode, hash,
// write and fsync the record, rewrite and fsync HEAD.
func BenchmarkRecord(b *testing.B) {
	l, err := Open(filepath.Join(b.TempDir(), "audit"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	r := call(1)
	b.ReportAllocs()
	for b.Loop() {
		if err := l.Record(r); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "records/s")
}

// BenchmarkRecordParallel is BenchmarkRecord from GOMAXPROCS goroutines:
// the records queue on the Log's mutex.
func BenchmarkRecordParallel(b *testing.B) {
	l, err := Open(filepath.Join(b.TempDir(), "audit"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	r := call(1)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := l.Record(r); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "records/s")
}

// BenchmarkRecordPeerWriteSync is the floor BenchmarkRecord is compared
// with: os.File.Write and Sync of a record's bytes, nothing else.
func BenchmarkRecordPeerWriteSync(b *testing.B) {
	line, err := encodeCall(call(1), 1, zeroHash, day0)
	if err != nil {
		b.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(b.TempDir(), "plain.jsonl"), os.O_WRONLY|os.O_CREATE|os.O_APPEND, filePerm)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := f.Write(line); err != nil {
			b.Fatal(err)
		}
		if err := f.Sync(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "records/s")
}
