package daemon

import (
	"crypto/sha256"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"go.uber.org/zap/zaptest"

	"opsassist/internal/testkit"
	"opsassist/storage/datalock"
)

// TestRecordsWhereItListens: once New has bound its listeners, the data
// directory's daemon.json names this process and their actual
// addresses (port 0 resolved), mode 0600, with the TLS certificate's
// hash; Shutdown removes it.
func TestRecordsWhereItListens(t *testing.T) {
	data := t.TempDir()
	cfg := testConfig(data)
	cfg.TLSCert, cfg.TLSKey = testkit.WriteSelfSigned(t, t.TempDir())
	a, err := New(cfg, zaptest.NewLogger(t))
	if err != nil {
		t.Fatal(err)
	}
	a.Start()
	path := filepath.Join(data, datalock.RecordName)
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		stop(t, a)
		t.Fatalf("record: %v, mode %v, want 0600", err, fi.Mode())
	}
	r, err := datalock.ReadRecord(data, os.Getpid())
	if err != nil {
		stop(t, a)
		t.Fatal(err)
	}
	conn, err := tls.Dial("tcp", a.HTTPAddr().String(), &tls.Config{InsecureSkipVerify: true})
	if err != nil {
		stop(t, a)
		t.Fatal(err)
	}
	sum := sha256.Sum256(conn.ConnectionState().PeerCertificates[0].Raw)
	conn.Close()
	want := datalock.Record{PID: os.Getpid(), HTTP: a.HTTPAddr().String(), NPLT: a.NPLTAddr().String(), RDT: a.RDTAddr().String(),
		TLS: true, TLSCertSHA256: hex.EncodeToString(sum[:]), Version: Version}
	if r != want {
		stop(t, a)
		t.Fatalf("record %+v, want %+v", r, want)
	}
	stop(t, a)
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("record after Shutdown: %v, want it removed", err)
	}
}
