package datalock

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

func TestSecondAcquireRefused(t *testing.T) {
	dir := t.TempDir()
	l, err := Acquire(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Acquire(dir)
	var held *HeldError
	if !errors.Is(err, ErrHeld) || !errors.As(err, &held) {
		t.Fatalf("second Acquire: %v, want a *HeldError", err)
	}
	if held.PID != os.Getpid() || !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), "another opsassistd") {
		t.Fatalf("second Acquire: %v (pid %d), want this pid and the directory named", err, held.PID)
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	if err := l.Release(); err != nil {
		t.Fatalf("second Release: %v", err)
	}
	l2, err := Acquire(dir)
	if err != nil {
		t.Fatalf("Acquire after Release: %v", err)
	}
	l2.Release()
}

const (
	childEnv     = "DATALOCK_CHILD_DIR"
	childPublish = "DATALOCK_CHILD_PUBLISH" // the child publishes a record too
)

// TestLockChild is the child of TestKilledHolderFreesLock and
// TestKilledHolderLeavesStaleRecord: it takes the lock (and publishes a
// record if asked), says so, and waits to be killed.
func TestLockChild(t *testing.T) {
	dir := os.Getenv(childEnv)
	if dir == "" {
		t.Skip("child process of TestKilledHolderFreesLock")
	}
	l, err := Acquire(dir)
	if err == nil && os.Getenv(childPublish) != "" {
		err = l.Publish(Record{HTTP: "127.0.0.1:1"})
	}
	if err != nil {
		os.Stdout.WriteString("failed: " + err.Error() + "\n")
		os.Exit(3)
	}
	os.Stdout.WriteString("locked\n")
	select {}
}

// TestKilledHolderFreesLock: a holder in another process keeps this one
// out, and its lock goes with it when it is killed with SIGKILL.
func TestKilledHolderFreesLock(t *testing.T) {
	if runtime.GOOS == "windows" || os.Getenv(childEnv) != "" {
		t.Skip("needs flock; or in the child")
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestLockChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), childEnv+"="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	sc := bufio.NewScanner(out)
	for sc.Scan() && sc.Text() != "locked" {
		if strings.HasPrefix(sc.Text(), "failed") {
			t.Fatal(sc.Text())
		}
	}
	_, err = Acquire(dir)
	var held *HeldError
	if !errors.As(err, &held) || held.PID != cmd.Process.Pid {
		t.Fatalf("Acquire while the child holds it: %v, want a *HeldError naming pid %d", err, cmd.Process.Pid)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	l, err := Acquire(dir)
	if err != nil {
		t.Fatalf("Acquire after the holder was killed: %v", err)
	}
	l.Release()
}

// TestKilledHolderLeavesStaleRecord: a holder killed with SIGKILL leaves
// its record; the next holder's Acquire removes it, and its Publish
// writes its own.
func TestKilledHolderLeavesStaleRecord(t *testing.T) {
	if runtime.GOOS == "windows" || os.Getenv(childEnv) != "" {
		t.Skip("needs flock; or in the child")
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestLockChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), childEnv+"="+dir, childPublish+"=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	sc := bufio.NewScanner(out)
	for sc.Scan() && sc.Text() != "locked" {
		if strings.HasPrefix(sc.Text(), "failed") {
			t.Fatal(sc.Text())
		}
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if _, err := ReadRecord(dir, cmd.Process.Pid); err != nil {
		t.Fatalf("the killed holder's record: %v", err)
	}
	l, err := Acquire(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	if _, err := ReadRecord(dir, os.Getpid()); !errors.Is(err, ErrNoRecord) || !strings.Contains(err.Error(), "no such file") {
		t.Fatalf("the killed holder's record under a new holder: %v, want it removed by Acquire", err)
	}
	if err := l.Publish(Record{HTTP: "127.0.0.1:2"}); err != nil {
		t.Fatal(err)
	}
	if r, err := ReadRecord(dir, os.Getpid()); err != nil || r.HTTP != "127.0.0.1:2" {
		t.Fatalf("the new holder's record: %+v %v", r, err)
	}
}
