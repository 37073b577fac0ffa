package tools

import (
	"strings"
	"testing"
)

// TestUnaskedWording: a call refused because nobody could be asked
// (no_confirmation: the client had no terminal) names the command and
// says so — never "you declined" (walk-through: `ask "执行 ps aux"
// </dev/null` answered "你拒绝了执行命令 ps aux…"); a user's no still
// says "you declined".
func TestUnaskedWording(t *testing.T) {
	args := map[string]any{"command": "ps", "args": []any{"aux"}}
	for _, zh := range []bool{true, false} {
		got := FailureText(zh, CodeNoConfirmation, "command_executor", "call to command_executor needs the user's confirmation, and the client had no terminal", args)
		if !strings.Contains(got, "ps aux") || strings.Contains(got, "拒绝") || strings.Contains(got, "declined") || !strings.Contains(got, "--yes") {
			t.Errorf("zh=%v: %q", zh, got)
		}
		if d := FailureText(zh, CodeDeclined, "command_executor", "the user declined command_executor", args); !strings.Contains(d, pickLang(zh, "你拒绝了", "You declined")) {
			t.Errorf("zh=%v declined: %q", zh, d)
		}
	}
}
