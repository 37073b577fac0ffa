package mcp

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

var validName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

func TestToolName(t *testing.T) {
	taken := map[string]bool{}
	cases := []struct{ server, tool, want string }{
		{"fs", "read_file", "mcp__fs__read_file"},
		{"k8s-prod", "get-pods", "mcp__k8s-prod__get-pods"},
	}
	for _, c := range cases {
		if got := ToolName(c.server, c.tool, taken); got != c.want {
			t.Errorf("ToolName(%q, %q) = %q, want %q", c.server, c.tool, got, c.want)
		}
	}
	// Sanitised names get a hash: "a.b" and "a_b" never meet, in either order.
	ab := ToolName("s", "a_b", taken)
	adot := ToolName("s", "a.b", taken)
	if ab != "mcp__s__a_b" || adot == ab || !strings.HasPrefix(adot, "mcp__s__a_b_") {
		t.Fatalf("a_b %q, a.b %q", ab, adot)
	}
	if ToolName("s", "a.b", nil) != adot {
		t.Fatal("names depend on the order")
	}
	srvDot, srvUnd := ToolName("my.srv", "x", nil), ToolName("my_srv", "x", nil)
	if srvDot == srvUnd {
		t.Fatalf("servers my.srv and my_srv both give %q", srvDot)
	}
	// Long names are cut to 64 with a hash; two long names sharing a
	// prefix stay apart.
	long1 := ToolName("server", strings.Repeat("x", 100)+"1", taken)
	long2 := ToolName("server", strings.Repeat("x", 100)+"2", taken)
	if len(long1) != 64 || len(long2) != 64 || long1 == long2 {
		t.Fatalf("long: %q %q", long1, long2)
	}
	// Unicode.
	uni := ToolName("服务", "读取文件", taken)
	if !validName.MatchString(uni) {
		t.Fatalf("unicode: %q", uni)
	}
	// An exact collision (the same name given twice) gets another suffix.
	again := ToolName("fs", "read_file", taken)
	if again == "mcp__fs__read_file" || !validName.MatchString(again) {
		t.Fatalf("collision: %q", again)
	}
	// Edge cases never panic and always give a valid name.
	for _, s := range []string{"", "\x00", "\xff\xfe", strings.Repeat("é", 80), strings.Repeat("_", 200), "a/b c"} {
		for _, n := range []string{ToolName(s, s, taken), ToolName("s", s, taken), ToolName(s, "t", taken)} {
			if !validName.MatchString(n) {
				t.Fatalf("ToolName of %q: %q", s, n)
			}
		}
	}
}

func FuzzToolName(f *testing.F) {
	f.Add("fs", "read_file")
	f.Add("服务", strings.Repeat("x", 70))
	f.Fuzz(func(t *testing.T, server, tool string) {
		taken := map[string]bool{}
		a, b := ToolName(server, tool, taken), ToolName(server, tool, taken)
		if !validName.MatchString(a) || !validName.MatchString(b) || a == b {
			t.Fatalf("%q %q", a, b)
		}
	})
}

func TestBackoffDelays(t *testing.T) {
	b := Backoff{}.withDefaults()
	var got []time.Duration
	for n := 1; n <= 5; n++ {
		d, open := b.delay(n, 0.5) // no jitter
		got = append(got, d)
		if open != (n >= DefaultBreakerFailures) {
			t.Fatalf("failure %d: open %v", n, open)
		}
	}
	want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, DefaultBreakerCooldown}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("delays %v, want %v", got, want)
		}
	}
	b.BreakerFailures = 100
	if d, _ := b.delay(30, 0.5); d != DefaultBackoffMax {
		t.Fatalf("capped: %s", d)
	}
	if d, _ := b.delay(1, 0); d != 750*time.Millisecond {
		t.Fatalf("jitter: %s", d)
	}
}

func TestConfigChecked(t *testing.T) {
	for _, servers := range [][]ServerConfig{
		{{Command: "x"}},
		{{Name: "a"}},
		{{Name: "builtin", Command: "x"}},
		{{Name: "a:b", Command: "x"}},
		{{Name: "a", Command: "x", URL: "u"}},
		{{Name: "a", Command: "x"}, {Name: "a", URL: "u"}},
	} {
		if _, err := New(Config{Servers: servers, Registry: newRegistryForTest()}); err == nil {
			t.Errorf("%+v accepted", servers)
		}
	}
	if _, err := New(Config{}); err == nil {
		t.Error("no registry accepted")
	}
}
