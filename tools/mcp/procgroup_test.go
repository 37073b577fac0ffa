//go:build linux

package mcp

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// childrenOf lists the pids whose parent is pid (from /proc).
func childrenOf(pid int) []int {
	var out []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) > 1 && f[1] == strconv.Itoa(pid) {
			if n, err := strconv.Atoi(e.Name()); err == nil {
				out = append(out, n)
			}
		}
	}
	return out
}

// grandchildServer runs the stdio test server as sh -c "sleep & exec
// server": the sleep holds the server's stdout and stderr open.
func grandchildServer(t *testing.T) ServerConfig {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return ServerConfig{Name: "g", Command: "/bin/sh", Args: []string{"-c", "sleep 3600 & exec \"$EXE\""},
		Env: map[string]string{childEnvVar: "serve", "EXE": exe}}
}

// pidfdOf opens a pidfd of each pid; t.Cleanup kills them and closes
// the pidfds.
func pidfdsOf(t *testing.T, pids []int) []int {
	var fds []int
	for _, pid := range pids {
		fd, err := unix.PidfdOpen(pid, 0)
		if err != nil {
			continue // already gone
		}
		fds = append(fds, fd)
		t.Cleanup(func() {
			unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0)
			unix.Close(fd)
		})
	}
	return fds
}

// TestStdioGrandchildKilledWithSession: closing the manager kills what
// a stdio server started, not only the server.
func TestStdioGrandchildKilledWithSession(t *testing.T) {
	ch := make(statuses, 64)
	m, err := New(Config{Servers: []ServerConfig{grandchildServer(t)}, Registry: newRegistryForTest(),
		Backoff: fastBackoff(), HealthInterval: time.Hour, OnChange: ch.on})
	if err != nil {
		t.Fatal(err)
	}
	m.Start(context.Background())
	ch.waitFor(t, "ready", func(s ServerStatus) bool { return s.State == StateReady })
	var grand []int
	for _, c := range childrenOf(os.Getpid()) {
		grand = append(grand, childrenOf(c)...)
	}
	fds := pidfdsOf(t, grand)
	if len(fds) == 0 {
		t.Fatal("no grandchild found")
	}
	m.Close()
	for _, fd := range fds {
		// The pidfd becomes readable when the process exits; a minute is
		// a guard, not a synchronisation.
		n, err := unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, int(time.Minute/time.Millisecond))
		if n != 1 {
			t.Fatalf("a process the server started outlived Close (poll %d, %v)", n, err)
		}
	}
}

// TestClosedConnectionRestartsAtOnce: a stdio server dies while a
// grandchild holds its stdout (no end of file): the session ends with
// the child (or, at the latest, when the next call finds the connection
// closed), and the server is restarted at once, not at the next health
// check.
func TestClosedConnectionRestartsAtOnce(t *testing.T) {
	ch := make(statuses, 64)
	sc := grandchildServer(t)
	sc.CallTimeout = 500 * time.Millisecond
	reg := newRegistryForTest()
	m, err := New(Config{Servers: []ServerConfig{sc}, Registry: reg,
		Backoff: fastBackoff(), HealthInterval: time.Hour, OnChange: ch.on})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	m.Start(context.Background())
	ch.waitFor(t, "ready", func(s ServerStatus) bool { return s.State == StateReady })
	for _, c := range childrenOf(os.Getpid()) {
		pidfdsOf(t, childrenOf(c))
	}
	o := run(reg, "mcp__g__die", "{}")
	t.Logf("die: %s", o.ForModel)
	o = run(reg, "mcp__g__echo", `{"text":"hi"}`) // finds the connection closed
	t.Logf("echo: %s", o.ForModel)
	st := ch.waitFor(t, "restarted", func(s ServerStatus) bool { return s.State == StateReady && s.Restarts == 1 })
	if o := run(reg, "mcp__g__echo", `{"text":"hi"}`); !o.Result.Success {
		t.Fatalf("echo after the restart (%+v): %s", st, o.ForModel)
	}
}
