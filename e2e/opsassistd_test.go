package e2e

import (
	"bufio"
	"encoding/json"
	"net"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"opsassist/nplt"
)

// TestDaemonRunsAndStopsOnSIGTERM builds the daemon, runs it with no config
// on a free port, greets a client, and checks that SIGTERM exits 0.
func TestDaemonRunsAndStopsOnSIGTERM(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin := filepath.Join(dir, "opsassistd")
	if out, err := exec.Command("go", "build", "-o", bin, "opsassist/cmd/opsassistd").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "--nplt", "127.0.0.1:0", "--rdt", "127.0.0.1:0", "--http", "127.0.0.1:0", "--data", filepath.Join(dir, "data"), "--log-format", "json")
	cmd.Dir = dir
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })

	addr := make(chan string, 1)
	logs := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			var l struct {
				Msg  string `json:"msg"`
				Addr string `json:"addr"`
			}
			if json.Unmarshal(sc.Bytes(), &l) == nil && l.Msg == "nplt listening" {
				addr <- l.Addr
			}
			select {
			case logs <- sc.Text():
			default:
			}
		}
		close(logs)
	}()
	var a string
	select {
	case a = <-addr:
	case <-time.After(30 * time.Second):
		t.Fatal("daemon did not report its address")
	}
	nc, err := net.DialTimeout("tcp", a, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	nc.SetReadDeadline(time.Now().Add(time.Minute))
	f, err := nplt.NewReader(nc).ReadFrame()
	if err != nil || f.Type != nplt.ChatText || !strings.Contains(string(f.Payload), "opsassist") {
		t.Fatalf("greeting: %v %q", err, f.Payload)
	}
	nc.Close()

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			var all []string
			for l := range logs {
				all = append(all, l)
			}
			t.Fatalf("exit: %v\n%s", err, strings.Join(all, "\n"))
		}
	case <-time.After(15 * time.Second):
		t.Fatal("daemon did not exit after SIGTERM")
	}
}
