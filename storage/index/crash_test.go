package index

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"opsassist/storage/embed"
)

// Environment of the crash test's child process.
const (
	crashDirEnv   = "OPSASSIST_INDEX_CRASH_DIR"
	crashStartEnv = "OPSASSIST_INDEX_CRASH_START"
)

// crashFile is file i of the crash test: 1 to 40 chunks, so records vary
// from a few hundred bytes to tens of kilobytes.
func crashFile(t testing.TB, e embed.Embedder, i int) File {
	n := 1 + (i*7)%40
	texts := make([]string, n)
	for j := range texts {
		texts[j] = fmt.Sprintf("file %d chunk %d: disk usage on host-%d reached %d%%, 日志轮转 %d", i, j, i%13, 50+j, i*j)
	}
	return makeFile(t, e, fmt.Sprintf("crash-%04d", i), fmt.Sprintf("crash-%04d.log", i), ScopeSystem, "", texts...)
}

// TestCrashChild is the child process of TestKill9MidIngest: it indexes
// files forever, printing "ack N" after each Put returns.
func TestCrashChild(t *testing.T) {
	dir := os.Getenv(crashDirEnv)
	if dir == "" {
		t.Skip("child process of TestKill9MidIngest")
	}
	start, _ := strconv.Atoi(os.Getenv(crashStartEnv))
	e := embed.NewBuiltin(testDim)
	// Small log limit: snapshots happen often, so kills land in them too.
	x, err := Open(dir, Config{Embedder: e, CompactAfter: 256 << 10})
	if err != nil {
		fmt.Println("open failed:", err)
		os.Exit(3)
	}
	for i := start; ; i++ {
		if err := x.Put(context.Background(), crashFile(t, e, i)); err != nil {
			fmt.Println("put failed:", err)
			os.Exit(4)
		}
		if i%5 == 0 {
			x.Delete(context.Background(), fmt.Sprintf("crash-%04d", i-3))
		}
		fmt.Printf("ack %d\n", i)
	}
}

// TestKill9MidIngest kills a process that is indexing with SIGKILL at
// several moments and checks that the index reopens with every
// acknowledged file whole and no file partly present.
func TestKill9MidIngest(t *testing.T) {
	if os.Getenv(crashDirEnv) != "" {
		t.Skip("in the child")
	}
	dir := t.TempDir()
	e := embed.NewBuiltin(testDim)
	acked := map[int]bool{}
	deleted := map[int]bool{}
	next := 0
	for round, kills := range []int{1, 7, 23, 60, 111} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), crashDirEnv+"="+dir, crashStartEnv+"="+strconv.Itoa(next))
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(out)
		// ack notes one "ack N" line: file N is acknowledged, and so is
		// the delete the child made before printing it.
		ack := func(line string) bool {
			n, ok := strings.CutPrefix(line, "ack ")
			if !ok {
				return false
			}
			i, _ := strconv.Atoi(n)
			acked[i] = true
			if i%5 == 0 && i >= 3 {
				deleted[i-3] = true
			}
			next = i + 1
			return true
		}
		got := 0
		for got < kills && sc.Scan() {
			if ack(sc.Text()) {
				got++
			}
		}
		if got < kills {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("round %d: child stopped after %d acks: %v", round, got, sc.Err())
		}
		// Kill while the child is in the middle of a Put. It may have run
		// ahead of what was read so far (its acks wait in the pipe, and
		// a delete it made there may remove a file read as acknowledged):
		// every ack it printed before it died counts.
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		for sc.Scan() {
			ack(sc.Text())
		}
		cmd.Wait()
		// The file in flight, and the delete before its ack, may or may
		// not have happened.
		if next%5 == 0 && next >= 3 {
			deleted[next-3] = true
		}
		next++

		x, err := Open(dir, Config{Embedder: e})
		if err != nil {
			t.Fatalf("round %d: reopen: %v", round, err)
		}
		for i := range next {
			fi, ok := x.Get(fmt.Sprintf("crash-%04d", i))
			want := len(crashFile(t, e, i).Chunks)
			switch {
			case ok && fi.Chunks != want:
				t.Fatalf("round %d: file %d has %d of %d chunks", round, i, fi.Chunks, want)
			case !ok && acked[i] && !deleted[i]:
				t.Fatalf("round %d: acknowledged file %d lost", round, i)
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		if _, err := x.Search(ctx, Query{Text: "disk usage host-3", TopK: 3}); err != nil {
			t.Fatalf("round %d: search: %v", round, err)
		}
		cancel()
		if err := x.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
