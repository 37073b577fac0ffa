package api

import (
	"strings"
	"testing"
)

func TestGrantScope(t *testing.T) {
	if got := GrantScope("command_executor", "command_executor:systemctl restart", []byte(`{"command":"systemctl restart nginx"}`)); got != "command_executor:systemctl restart" {
		t.Fatalf("with a scope: %q", got)
	}
	if got := GrantScope("sys_monitor", "", []byte(`{"metric":"cpu"}`)); got != `sys_monitor:{"metric":"cpu"}` {
		t.Fatalf("without: %q", got)
	}
}

func TestDecisionAllows(t *testing.T) {
	for d, want := range map[string][2]bool{
		DecisionAllowOnce: {true, false}, DecisionAllowSession: {true, true},
		DecisionDeny: {false, false}, "": {false, false}, "sure": {false, false},
	} {
		if a, s := DecisionAllows(d); a != want[0] || s != want[1] {
			t.Errorf("%q: %v %v, want %v", d, a, s, want)
		}
	}
}

// reviewPairs are calls whose redacted arguments are the same text but
// whose raw arguments differ: a grant of one must not cover the other.
var reviewPairs = [][2]string{
	{`{"path":"/home/alice/.ssh/authorized_keys","content":"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKx7Qm2v9Lr8pT3yU6wZ1aB4cD5eF6gH7iJ8kL9mN0oP alice@laptop\n"}`,
		`{"path":"/home/alice/.ssh/authorized_keys","content":"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIEvi1Attacker2Key3Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq alice@laptop\n"}`},
	{`{"repo":"prod","ref":"3f9a2c4e1b7d8f6a5c3e2d1b0a9f8e7d6c5b4a39","force":true}`,
		`{"repo":"prod","ref":"0000000000000000000000000000000000000001a","force":true}`},
	{`{"table":"users","bypass_rls":false}`, `{"table":"users","bypass_rls":true}`},
	{`{"name":"web","max_tokens":10}`, `{"name":"web","max_tokens":100000}`},
}

func TestGrantKeyRawArguments(t *testing.T) {
	for _, p := range reviewPairs {
		if GrantKey("mcp__fs__write_file", "", []byte(p[0])) == GrantKey("mcp__fs__write_file", "", []byte(p[1])) {
			t.Errorf("one key for\n %s\n %s", p[0], p[1])
		}
	}
	a := GrantKey("t", "", []byte(`{"b":1,"a":{"y":"x","x":[1, 2]}}`))
	if b := GrantKey("t", "", []byte(" {\"a\":{\"x\":[1,2],\"y\":\"x\"},\n\"b\":1}")); a != b {
		t.Errorf("key order and whitespace change the key: %s %s", a, b)
	}
	if GrantKey("t", "", []byte(`{"n":1}`)) == GrantKey("t", "", []byte(`{"n":1.0}`)) {
		t.Error("1 and 1.0 share a key")
	}
	if GrantKey("t", "", []byte("{\"s\":\"\xff\"}")) == GrantKey("t", "", []byte("{\"s\":\"\xfe\"}")) {
		t.Error("two invalid bytes share a key")
	}
	if GrantKey("t", "", []byte(`{"a":1}`)) == GrantKey("u", "", []byte(`{"a":1}`)) {
		t.Error("two tools share a key")
	}
	if GrantKey("t", "t:mysql -pOne", nil) == GrantKey("t", "t:mysql -pTwo", nil) {
		t.Error("two scopes share a key")
	}
	if GrantKey("t", `t:{"a":1}`, nil) == GrantKey("t", "", []byte(`{"a":1}`)) {
		t.Error("a scope and arguments share a key")
	}
	k := GrantKey("t", "t:mysql -pS3cretValue", nil)
	if strings.Contains(k, "S3cret") || !strings.HasPrefix(k, "sha256:") {
		t.Errorf("key %q", k)
	}
}
