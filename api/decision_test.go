package api

import "testing"

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
