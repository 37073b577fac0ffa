package daemon

import (
	"crypto/sha256"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"net"
	"os"
	"path/filepath"
	"sync"
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
		TLS: true, TLSCertSHA256: hex.EncodeToString(sum[:]), Version: Version, Nonce: r.Nonce}
	if r != want || r.Nonce == "" {
		stop(t, a)
		t.Fatalf("record %+v, want %+v", r, want)
	}
	stop(t, a)
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("record after Shutdown: %v, want it removed", err)
	}
}

// closeWatch is a listener that reports, as it closes, whether the data
// directory's record was still there.
type closeWatch struct {
	net.Listener
	record   string
	once     sync.Once
	recorded bool // the record existed when Close was first called
}

func (l *closeWatch) Close() error {
	l.once.Do(func() {
		_, err := os.Stat(l.record)
		l.recorded = err == nil
	})
	return l.Listener.Close()
}

// TestShutdownUnpublishesFirst: Shutdown removes daemon.json before it
// closes the HTTP or the NPLT listener, so no local client is sent to a
// port the daemon no longer owns.
func TestShutdownUnpublishesFirst(t *testing.T) {
	data := t.TempDir()
	a, err := New(testConfig(data), zaptest.NewLogger(t))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(data, datalock.RecordName)
	h := &closeWatch{Listener: a.hln, record: path}
	n := &closeWatch{Listener: a.ln, record: path}
	a.hln, a.ln = h, n
	a.Start()
	if _, err := os.Stat(path); err != nil {
		stop(t, a)
		t.Fatalf("record after Start: %v", err)
	}
	stop(t, a)
	h.once.Do(func() { t.Error("Shutdown did not close the HTTP listener") })
	n.once.Do(func() { t.Error("Shutdown did not close the NPLT listener") })
	if h.recorded || n.recorded {
		t.Fatalf("the record was still there when a listener closed (http %v, nplt %v)", h.recorded, n.recorded)
	}
}
