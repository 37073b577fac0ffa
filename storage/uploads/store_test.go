package uploads

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSanitizeName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"config.yaml", "config.yaml"},
		{"../../etc/passwd", "passwd"},
		{`..\..\windows\system.ini`, "system.ini"},
		{"/abs/path/app.log", "app.log"},
		{"a\x00b.txt", "ab.txt"},
		{"bell\a\r\n.txt", "bell.txt"},
		{"...hidden", "hidden"},
		{"  spaced  ", "spaced"},
		{"报告 2026.pdf", "报告 2026.pdf"},
		{"bad\xffutf8.txt", "badutf8.txt"},
		{strings.Repeat("很", 100) + ".txt", strings.Repeat("很", 65) + ".txt"},
		// Bidi controls would show "invoice\u202Efdp.exe" as "invoiceexe.pdf".
		{"invoice\u202Efdp.exe", "invoicefdp.exe"},
		{"\u202Ainvoice\u202B\u202C\u202D.pdf", "invoice.pdf"},
		{"\u2066a\u2067b\u2068c\u2069.txt", "abc.txt"},
		{"\u200Eleft\u200Fright\u061C.txt", "leftright.txt"},
		{"pass\u200Bw\u200Cd\u200D\u2060\uFEFF.txt", "passwd.txt"},
		{"mongol\u180Eian\u00ADsoft.txt", "mongoliansoft.txt"},
		{"tag\U000E0041\U000E007F.txt", "tag.txt"},
		{"fill\u3164er\u115F\u034F.txt", "filler.txt"},
		{"line\u2028para\u2029.txt", "linepara.txt"},
		{"heart\u2764\uFE0F.txt", "heart\u2764.txt"},
		{"\u200B.bashrc", "bashrc"},
		{"..\u200B", DefaultName},
		{"\u202E", DefaultName},
		{"\u200B\u200C\uFEFF", DefaultName},
		{"dir/\u2066\u2069", DefaultName},
		{"\x00", DefaultName},
		{"\n", DefaultName},
		{"\xff\xfe", DefaultName},
		{"nbsp\u00A0ideo\u3000.txt", "nbsp\u00A0ideo\u3000.txt"},
	}
	for _, tt := range tests {
		got, err := SanitizeName(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("SanitizeName(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
		if len(got) > maxNameBytes {
			t.Errorf("%q too long", got)
		}
	}
	for _, bad := range []string{"", "..", ".", "/", "../..", "a/..", "   ", " . . ", "\\"} {
		if got, err := SanitizeName(bad); !errors.Is(err, ErrBadName) {
			t.Errorf("SanitizeName(%q) = %q, %v; want ErrBadName", bad, got, err)
		}
	}
}

func newStore(t *testing.T) *Store {
	s, err := NewStore(t.TempDir(), 1024)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func entries(t *testing.T, dir string) []string {
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			out = append(out, p)
		}
		return nil
	})
	return out
}

func TestCommit(t *testing.T) {
	s := newStore(t)
	data := []byte("database:\n  port: 5432\n")
	sum := sha256.Sum256(data)
	p, err := s.Begin("config.yaml", int64(len(data)), strings.ToUpper(hex.EncodeToString(sum[:])))
	if err != nil {
		t.Fatal(err)
	}
	p.Write(data[:5])
	if p.Complete() {
		t.Fatal("complete early")
	}
	p.Write(data[5:])
	r, err := p.Commit()
	if err != nil {
		t.Fatal(err)
	}
	if r.SHA256 != hex.EncodeToString(sum[:]) || r.Path != filepath.Join(s.Dir(), r.ID, "config.yaml") {
		t.Fatalf("%+v", r)
	}
	if b, _ := os.ReadFile(r.Path); string(b) != string(data) {
		t.Fatal("content differs")
	}
	if got := entries(t, s.Dir()); len(got) != 1 {
		t.Fatalf("files %v", got)
	}
	if err := s.Remove(r.ID); err != nil || len(entries(t, s.Dir())) != 0 {
		t.Fatal("remove", err)
	}
	if err := s.Remove("../x"); err == nil {
		t.Fatal("bad id accepted")
	}
}

func TestRefusalsLeaveNothing(t *testing.T) {
	s := newStore(t)
	if _, err := s.Begin("a", 1025, ""); !errors.Is(err, ErrTooLarge) || !strings.HasSuffix(err.Error(), ": 1025 B, larger than the 1 KiB limit") ||
		err.(*SizeError).Message() != "文件太大：1025 B，超过了单个文件 1 KiB 的上传上限。 File too large: 1025 B is larger than the 1 KiB limit for one upload." {
		t.Fatal(err)
	}
	if _, err := s.Begin("a", -1, ""); !errors.Is(err, ErrBadSize) {
		t.Fatal(err)
	}
	if _, err := s.Begin("..", 1, ""); !errors.Is(err, ErrBadName) {
		t.Fatal(err)
	}
	if _, err := s.Begin("a", 1, "abc"); !errors.Is(err, ErrBadChecksum) {
		t.Fatal(err)
	}
	p, _ := s.Begin("a", 3, "")
	if n, err := p.Write([]byte("abcd")); !errors.Is(err, ErrOverflow) || n != 0 {
		t.Fatal(n, err)
	}
	p.Abort()
	p, _ = s.Begin("a", 3, strings.Repeat("0", 64))
	p.Write([]byte("abc"))
	if _, err := p.Commit(); !errors.Is(err, ErrChecksum) {
		t.Fatal(err)
	}
	p, _ = s.Begin("a", 3, "")
	p.Write([]byte("ab"))
	if _, err := p.Commit(); !errors.Is(err, ErrIncomplete) {
		t.Fatal(err)
	}
	p.Abort() // after a failed commit: harmless
	if got := entries(t, s.Dir()); len(got) != 0 {
		t.Fatalf("left %v", got)
	}
}

func TestNewStoreClearsStaleTemp(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, ".tmp"), 0o700)
	os.WriteFile(filepath.Join(dir, ".tmp", "x.part"), []byte("stale"), 0o600)
	if _, err := NewStore(dir, 10); err != nil {
		t.Fatal(err)
	}
	if got := entries(t, dir); len(got) != 0 {
		t.Fatalf("stale temp kept: %v", got)
	}
}

func TestLargeUploadHashesEverything(t *testing.T) {
	s, err := NewStore(t.TempDir(), 10<<20)
	if err != nil {
		t.Fatal(err)
	}
	data := make([]byte, 3*hashChunk+12345)
	for i := range data {
		data[i] = byte(i * 7)
	}
	sum := sha256.Sum256(data)
	p, err := s.Begin("big.bin", int64(len(data)), hex.EncodeToString(sum[:]))
	if err != nil {
		t.Fatal(err)
	}
	for off := 0; off < len(data); off += 65535 {
		if _, err := p.Write(data[off:min(off+65535, len(data))]); err != nil {
			t.Fatal(err)
		}
	}
	r, err := p.Commit()
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(r.Path); !bytes.Equal(got, data) || r.SHA256 != hex.EncodeToString(sum[:]) {
		t.Fatal("stored data or hash differ")
	}
}

func TestAbortMidUpload(t *testing.T) {
	s := newStore(t)
	p, _ := s.Begin("a", 1000, "")
	p.Write(make([]byte, 500))
	p.Abort()
	p.Abort()
	if _, err := p.Commit(); !errors.Is(err, ErrIncomplete) {
		t.Fatal(err)
	}
	if got := entries(t, s.Dir()); len(got) != 0 {
		t.Fatalf("left %v", got)
	}
}

func TestBeginStream(t *testing.T) {
	s := newStore(t)
	p, err := s.BeginStream("../stream.log", "")
	if err != nil {
		t.Fatal(err)
	}
	data := bytes.Repeat([]byte("x"), 700)
	if _, err := p.Write(data); err != nil {
		t.Fatal(err)
	}
	p.End()
	r, err := p.Commit()
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	if r.Size != 700 || r.Name != "stream.log" || r.SHA256 != hex.EncodeToString(sum[:]) {
		t.Fatalf("result %+v", r)
	}

	p, err = s.BeginStream("big.log", "")
	if err != nil {
		t.Fatal(err)
	}
	p.Write(data)
	if _, err := p.Write(data); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("past the limit: %v", err)
	}
	p.Abort()
	if ents, _ := os.ReadDir(filepath.Join(s.Dir(), tmpDir)); len(ents) != 0 {
		t.Fatalf("temp files left: %v", ents)
	}
}
