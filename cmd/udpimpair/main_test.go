package main

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"opsassist/netimpair"
)

func TestParseImpairment(t *testing.T) {
	var im netimpair.Impairment
	if err := parseImpairment(&im, "0.01,0.3,0.9", "100M", "100p", "6KiB"); err != nil {
		t.Fatal(err)
	}
	want := netimpair.Impairment{Rate: 100_000_000, QueuePackets: 100, BucketBytes: 6144,
		GE: netimpair.GilbertElliott{P: 0.01, R: 0.3, LossBad: 0.9}}
	if im != want {
		t.Errorf("got %+v, want %+v", im, want)
	}
	im = netimpair.Impairment{}
	if err := parseImpairment(&im, "", "10M", "256KiB", ""); err != nil || im.QueueBytes != 256<<10 {
		t.Errorf("queue bytes: %+v, %v", im, err)
	}
	for _, bad := range [][4]string{{"0.1", "0", "", ""}, {"", "fast", "", ""}, {"", "0", "xp", ""}, {"a,b", "0", "", ""}} {
		if err := parseImpairment(&im, bad[0], bad[1], bad[2], bad[3]); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestRunRelays(t *testing.T) {
	up, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer up.Close()
	addrFile := filepath.Join(t.TempDir(), "addr")
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr bytes.Buffer
	done := make(chan int)
	go func() {
		done <- run(ctx, []string{"-upstream", up.LocalAddr().String(), "-delay", "1ms", "-dir", "forward", "-addr-file", addrFile}, &stdout, &stderr)
	}()
	var addr string
	deadline := time.Now().Add(5 * time.Second)
	for addr == "" {
		if b, err := os.ReadFile(addrFile); err == nil && strings.HasSuffix(string(b), "\n") {
			addr = strings.TrimSpace(string(b))
		} else if time.Now().After(deadline) {
			t.Fatal("relay never wrote its address")
		} else {
			time.Sleep(time.Millisecond)
		}
	}
	c, err := net.Dial("udp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Write([]byte("hi")); err != nil {
		t.Fatal(err)
	}
	_ = up.SetReadDeadline(time.Now().Add(5 * time.Second))
	buf := make([]byte, 16)
	n, _, err := up.ReadFrom(buf)
	if err != nil || string(buf[:n]) != "hi" {
		t.Fatalf("upstream got %q, %v", buf[:n], err)
	}
	cancel()
	if code := <-done; code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "forward: in=1") {
		t.Errorf("stats not printed: %q", stdout.String())
	}
}

func TestRunBadFlags(t *testing.T) {
	for _, args := range [][]string{{"-loss", "2", "-upstream", "127.0.0.1:1"}, {"-dir", "up", "-upstream", "x:1"}, {}, {"-nope"}} {
		var out, errb bytes.Buffer
		if code := run(context.Background(), args, &out, &errb); code == 0 {
			t.Errorf("%q: exit 0", args)
		}
	}
}
