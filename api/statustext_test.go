package api

import "testing"

// TestStatusTextsParse: every status text the agent writes, in either
// language, reads back to what it was made of; other text does not.
func TestStatusTextsParse(t *testing.T) {
	for _, zh := range []bool{true, false} {
		for _, step := range []int{0, 1, 12} {
			if got, ok := ParseThinking(ThinkingStatus(step).In(zh)); !ok || got != step {
				t.Errorf("thinking %d (zh %v): %d, %v", step, zh, got, ok)
			}
		}
		if p, ok := ParseToolResult(ToolDoneStatus("sys_monitor", 7).In(zh)); !ok || p != (ToolResultParts{Tool: "sys_monitor", MS: 7}) {
			t.Errorf("done (zh %v): %+v, %v", zh, p, ok)
		}
		why := Text{Zh: "出错了 (1 ms)\n第二行", En: "went wrong (1 ms)\nline two"}
		if p, ok := ParseToolResult(ToolFailedStatus("x", why, 9).In(zh)); !ok || p != (ToolResultParts{Tool: "x", Failed: true, Why: why.In(zh), MS: 9}) {
			t.Errorf("failed (zh %v): %+v, %v", zh, p, ok)
		}
	}
	for _, s := range []string{"", "thinking hard", "正在思考（第 x 步）", "thinking (step 0)", "x done", "x done (1 s)", "two words done (1 ms)"} {
		if _, ok := ParseThinking(s); ok {
			t.Errorf("ParseThinking(%q) ok", s)
		}
		if _, ok := ParseToolResult(s); ok {
			t.Errorf("ParseToolResult(%q) ok", s)
		}
	}
}
