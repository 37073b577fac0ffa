package audit

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// envKillChild makes the test binary the child of TestKill9: it appends
// records to the log in that directory until it is killed.
const envKillChild = "OPSASSIST_AUDIT_KILL_CHILD"

// killChild appends records, printing "wrote N" after each Record
// returned. It stops on its own after maxRecords, or when the parent is
// gone (writing to stdout fails).
func killChild(dir string) {
	const maxRecords = 100000
	l, err := Open(dir, Options{})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(3)
	}
	for i := 1; i <= maxRecords; i++ {
		if err := l.Record(call(i)); err != nil {
			fmt.Println("error", err)
			os.Exit(3)
		}
		if _, err := fmt.Printf("wrote %d\n", i); err != nil {
			os.Exit(4)
		}
	}
	os.Exit(0)
}

func TestKill9(t *testing.T) {
	if dir := os.Getenv(envKillChild); dir != "" {
		killChild(dir)
		return
	}
	if testing.Short() {
		t.Skip("starts a child process")
	}
	dir := filepath.Join(t.TempDir(), "audit")
	records := 0 // in the log before the round
	for round := range 3 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestKill9$", "-test.count=1")
		cmd.Env = append(os.Environ(), envKillChild+"="+dir)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		killed := false
		kill := func() {
			if !killed {
				killed = true
				if err := cmd.Process.Kill(); err != nil { // SIGKILL
					t.Error(err)
				}
			}
		}
		written := 0
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			n, ok := strings.CutPrefix(sc.Text(), "wrote ")
			if !ok {
				kill()
				t.Fatalf("child: %s", sc.Text())
			}
			if written, err = strconv.Atoi(n); err != nil {
				t.Fatal(err)
			}
			if written >= 100+round*37 {
				kill()
			}
		}
		kill()
		cmd.Wait() // killed: the error says so

		l, err := Open(dir, Options{})
		if err != nil {
			t.Fatalf("round %d: Open after kill -9: %v", round, err)
		}
		if err := l.Close(); err != nil {
			t.Fatal(err)
		}
		rep, err := Verify(dir)
		if err != nil {
			t.Fatalf("round %d: Verify after kill -9: %v", round, err)
		}
		if rep.Records < records+written {
			t.Errorf("round %d: %d records, the child reported %d written after %d", round, rep.Records, written, records)
		}
		records = rep.Records
		t.Logf("round %d: child wrote %d, log has %d records", round, written, rep.Records)
	}
}
