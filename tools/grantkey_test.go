package tools

import (
	"context"
	"encoding/json"
	"testing"
)

// anyArgs is a tool that takes any object, as a consumed MCP tool does.
type anyArgs struct{}

func (anyArgs) Spec() Spec {
	return Spec{Name: "mcp__fs__write_file", Description: "writes", Risk: RiskSensitive, Parameters: json.RawMessage(`{"type":"object"}`)}
}

func (anyArgs) Run(context.Context, *Call, json.RawMessage) (any, error) { return "ok", nil }

// redactPolicy asks about every call, with no scope, showing the
// arguments redacted, as the permission policy does for an MCP tool.
type redactPolicy struct{}

func (redactPolicy) Decide(_ context.Context, _ *Call, _ Spec, args json.RawMessage) Verdict {
	return Verdict{Decision: Ask, Reason: "writes", Shown: Redact(args)}
}

// grantPairs are arguments whose redacted forms read the same.
var grantPairs = [][2]string{
	{`{"path":"/home/alice/.ssh/authorized_keys","content":"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKx7Qm2v9Lr8pT3yU6wZ1aB4cD5eF6gH7iJ8kL9mN0oP alice@laptop\n"}`,
		`{"path":"/home/alice/.ssh/authorized_keys","content":"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIEvi1Attacker2Key3Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq alice@laptop\n"}`},
	{`{"repo":"prod","ref":"3f9a2c4e1b7d8f6a5c3e2d1b0a9f8e7d6c5b4a39","force":true}`,
		`{"repo":"prod","ref":"0000000000000000000000000000000000000001a","force":true}`},
	// Keys named like secrets (tools.SecretKey); bypass_rls and
	// max_tokens are not (issue 16: one rule, no look-alikes).
	{`{"table":"users","passphrase":"a1"}`, `{"table":"users","passphrase":"b2"}`},
	{`{"name":"web","MYSQL_PWD":"10"}`, `{"name":"web","MYSQL_PWD":"100000"}`},
}

// TestGrantKeyIsTheRawArguments: the Confirmation of a call with no
// policy scope shows the redacted arguments, but its grant key is the
// raw ones': two calls that read the same are never one grant.
func TestGrantKeyIsTheRawArguments(t *testing.T) {
	r := NewRegistry(Config{Policy: redactPolicy{}})
	if err := r.Register(anyArgs{}); err != nil {
		t.Fatal(err)
	}
	confirmation := func(args string) Confirmation {
		var got Confirmation
		r.Execute(context.Background(), &Call{Confirm: func(_ context.Context, c Confirmation) (Confirmed, error) {
			got = c
			return Confirmed{By: ByUser}, nil
		}}, "mcp__fs__write_file", args)
		return got
	}
	for _, p := range grantPairs {
		a, b := confirmation(p[0]), confirmation(p[1])
		if a.GrantScope() != b.GrantScope() {
			t.Fatalf("the pair does not read the same: %s / %s", a.GrantScope(), b.GrantScope())
		}
		if a.Key == "" || a.GrantKey() == b.GrantKey() {
			t.Errorf("one grant for\n %s\n %s", p[0], p[1])
		}
		if again := confirmation(p[0]); again.GrantKey() != a.GrantKey() {
			t.Errorf("the same call has two keys: %s", p[0])
		}
		// The loop guard's question about a repeat: the same rule.
		if LoopScope(a.Tool, json.RawMessage(p[0])) != LoopScope(a.Tool, json.RawMessage(p[1])) {
			t.Fatalf("loop scopes differ: %s", p[0])
		}
		if loopKey(a.Tool, json.RawMessage(p[0])) == loopKey(a.Tool, json.RawMessage(p[1])) {
			t.Errorf("one loop grant for\n %s\n %s", p[0], p[1])
		}
	}
}

// TestGrantKeyOfAScope: a policy scope is matched on its ScopeKey (the
// unredacted scope's), and on Scope only when the policy gave no key.
func TestGrantKeyOfAScope(t *testing.T) {
	v := Verdict{Decision: Ask, Scope: "command_executor:mysql -p***", ScopeKey: "sha256:k1"}
	if got := grantKey("command_executor", v, json.RawMessage(`{}`)); got != "sha256:k1" {
		t.Fatalf("with a ScopeKey: %q", got)
	}
	v.ScopeKey = ""
	if a, b := grantKey("command_executor", v, json.RawMessage(`{"a":1}`)), grantKey("command_executor", v, json.RawMessage(`{"a":2}`)); a != b || a == "" {
		t.Fatalf("a scope without key: %q %q", a, b)
	}
}
