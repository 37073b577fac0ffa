package e2e

import (
	"bytes"
	"context"
	"crypto/rand"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"opsassist/cli"
	"opsassist/client"
)

// TestREPLDownloadsOfferOverRDT: in the CLI REPL, after an upload, "下载
// report.bin" with the built-in planner brings a DOWNLOAD_OFFER with
// transport rdt, and the client downloads and verifies the file through
// the daemon's RDT server without the user typing the token: at once in
// auto mode, after answering y in ask mode.
func TestREPLDownloadsOfferOverRDT(t *testing.T) {
	t.Parallel()
	a := startApp(t, t.TempDir())
	defer stop(t, a)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	data := make([]byte, 3<<20+17)
	rand.Read(data)
	src := filepath.Join(t.TempDir(), "report.bin")
	if err := os.WriteFile(src, data, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []struct{ name, env, answer string }{{"auto", "", ""}, {"ask", "ask", "y\n"}} {
		dl := t.TempDir()
		var out, errOut bytes.Buffer
		env := map[string]string{cli.EnvServer: a.NPLTAddr().String(), cli.EnvDownloadDir: dl, cli.EnvDownload: mode.env}
		prog := &cli.CLI{Stdin: strings.NewReader("/upload " + src + "\n下载report.bin\n" + mode.answer + "/quit\n"), Stdout: &out, Stderr: &errOut,
			Getenv: func(k string) string { return env[k] }}
		if code := prog.Run(ctx, nil); code != 0 {
			t.Fatalf("%s: repl exit %d: %s", mode.name, code, errOut.String())
		}
		got, err := os.ReadFile(filepath.Join(dl, "report.bin"))
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("%s: downloaded file: %v (stdout %q, stderr %q)", mode.name, err, out.String(), errOut.String())
		}
		if !strings.Contains(out.String(), "over rdt") || errOut.Len() != 0 {
			t.Fatalf("%s: stdout %q, stderr %q", mode.name, out.String(), errOut.String())
		}
	}
	// Both transfers reach /metrics (reported when the server forgets
	// them, just after the client is done).
	want := "opsassist_rdt_goodput_bytes_total " + strconv.FormatFloat(float64(2*len(data)), 'g', -1, 64)
	var body []byte
	for deadline := time.Now().Add(10 * time.Second); ; {
		res, err := http.Get("http://" + a.HTTPAddr().String() + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		body, _ = io.ReadAll(res.Body)
		res.Body.Close()
		if bytes.Contains(body, []byte(want)) || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !bytes.Contains(body, []byte(want)) || !bytes.Contains(body, []byte("opsassist_rdt_transfer_goodput_bytes_per_second_count 2")) {
		t.Fatalf("metrics lack the RDT transfers (%s):\n%s", want, body)
	}
}

// TestDownloadFallsBackToNPLT: when no RDT packet comes back (UDP
// blocked), "opsassist download" asks for the file over NPLT, verifies
// it and exits 0.
func TestDownloadFallsBackToNPLT(t *testing.T) {
	t.Parallel()
	a := startApp(t, t.TempDir())
	defer stop(t, a)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	data := make([]byte, 200<<10+3)
	rand.Read(data)
	src := filepath.Join(t.TempDir(), "blocked.bin")
	os.WriteFile(src, data, 0o600)
	conn, err := client.Dial(ctx, a.NPLTAddr().String(), client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Upload(ctx, src, nil); err != nil {
		t.Fatal(err)
	}
	var token, sid string
	if err := conn.Chat(ctx, "下载blocked.bin", func(e client.Event) {
		if e.Type == client.EventDownloadOffer {
			token = e.Offer.DownloadToken
		}
	}); err != nil || token == "" {
		t.Fatalf("no offer: %v", err)
	}
	sid = conn.SessionID()
	// A UDP socket that never answers stands for a firewall dropping UDP.
	hole, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer hole.Close()
	out := filepath.Join(t.TempDir(), "got.bin")
	var stdout, stderr bytes.Buffer
	prog := &cli.CLI{Stdout: &stdout, Stderr: &stderr, FirstPacketTimeout: 300 * time.Millisecond}
	if code := prog.Run(ctx, []string{"--server", a.NPLTAddr().String(), "--session", sid, "download", token, "-o", out, "--rdt", hole.LocalAddr().String()}); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if got, err := os.ReadFile(out); err != nil || !bytes.Equal(got, data) {
		t.Fatalf("file: %v", err)
	}
	if !strings.Contains(stdout.String(), "over nplt") {
		t.Fatalf("stdout %q", stdout.String())
	}
	// An unknown token fails with a non-zero exit, over either transport.
	stdout.Reset()
	if code := prog.Run(ctx, []string{"--server", a.NPLTAddr().String(), "download", "nope", "-o", out + "2", "--rdt", hole.LocalAddr().String()}); code == 0 {
		t.Fatal("unknown token exited 0")
	}
	if code := prog.Run(ctx, []string{"--server", a.NPLTAddr().String(), "download", "nope", "-o", out + "3", "--rdt", a.RDTAddr().String()}); code == 0 {
		t.Fatal("unknown token over RDT exited 0")
	}
}

// TestDownloadFindsTheServersRDTAddress: "opsassist download TOKEN"
// without --rdt downloads over RDT from the address the server's HELLO
// names (rdt_addr), here not the default port, not over NPLT after
// waiting for a default-port RDT server that is not there.
func TestDownloadFindsTheServersRDTAddress(t *testing.T) {
	t.Parallel()
	a := startApp(t, t.TempDir())
	defer stop(t, a)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	data := make([]byte, 100<<10+5)
	rand.Read(data)
	src := filepath.Join(t.TempDir(), "where.bin")
	os.WriteFile(src, data, 0o600)
	conn, err := client.Dial(ctx, a.NPLTAddr().String(), client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if got := conn.Hello().RDTAddr; got != a.RDTAddr().String() {
		t.Errorf("HELLO rdt_addr %q, want %q", got, a.RDTAddr())
	}
	if _, err := conn.Upload(ctx, src, nil); err != nil {
		t.Fatal(err)
	}
	var token string
	if err := conn.Chat(ctx, "下载where.bin", func(e client.Event) {
		if e.Type == client.EventDownloadOffer {
			token = e.Offer.DownloadToken
		}
	}); err != nil || token == "" {
		t.Fatalf("no offer: %v", err)
	}
	out := filepath.Join(t.TempDir(), "got.bin")
	var stdout, stderr bytes.Buffer
	prog := &cli.CLI{Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }}
	if code := prog.Run(ctx, []string{"--server", a.NPLTAddr().String(), "download", token, "-o", out}); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if got, err := os.ReadFile(out); err != nil || !bytes.Equal(got, data) {
		t.Fatalf("file: %v", err)
	}
	if !strings.Contains(stdout.String(), "over rdt") {
		t.Fatalf("stdout %q, want the download over rdt", stdout.String())
	}
}
