package loopguard

import (
	"fmt"
	"strings"
	"testing"
)

// check runs Check and returns "run", "stop" or "persist".
func check(g *Guard, tool, args string) string {
	v := g.Check(tool, []byte(args))
	switch {
	case v.Persisted && !v.Stop:
		return "persisted without stop"
	case v.Persisted:
		return "persist"
	case v.Stop:
		return "stop"
	}
	return "run"
}

// TestThirdRepeatStops: the third call of one tool with the same
// (canonically equal) arguments is stopped, and every later one too,
// now as persisted; other calls are not affected.
func TestThirdRepeatStops(t *testing.T) {
	g := New()
	steps := []struct{ tool, args, want string }{
		{"command_executor", `{"command":"systemctl","args":["status","nginx"]}`, "run"},
		{"sys_monitor", `{}`, "run"},
		{"command_executor", `{ "args":["status","nginx"], "command":"systemctl" }`, "run"},
		{"command_executor", `{"command":"systemctl","args":["status","nginx"]}`, "stop"},
		{"command_executor", `{"command":"systemctl","args":["status","sshd"]}`, "run"},
		{"command_executor", `{"command":"systemctl","args":["status","nginx"]}`, "persist"},
		{"sys_monitor", `{}`, "run"},
		{"other", `{"command":"systemctl","args":["status","nginx"]}`, "run"},
	}
	for i, s := range steps {
		if got := check(g, s.tool, s.args); got != s.want {
			t.Fatalf("call %d %s %s: %s, want %s", i+1, s.tool, s.args, got, s.want)
		}
	}
}

// TestReasonNamesToolAndTellsModel: the reason is bilingual, names the
// tool and says not to call it again.
func TestReasonNamesToolAndTellsModel(t *testing.T) {
	g := New()
	g.Check("command_executor", []byte(`{"command":"false"}`))
	g.Check("command_executor", []byte(`{"command":"false"}`))
	v := g.Check("command_executor", []byte(`{"command":"false"}`))
	for _, want := range []string{"循环检测", "The loop guard stopped command_executor", "call 3 with the same arguments", "Do not call it again this turn", "ask the user"} {
		if !strings.Contains(v.Reason, want) {
			t.Errorf("reason %q lacks %q", v.Reason, want)
		}
	}
	g = New()
	for _, tool := range []string{"a", "b", "a"} {
		g.Check(tool, nil)
	}
	v = g.Check("b", nil)
	if !v.Stop || !strings.Contains(v.Reason, "The loop guard stopped b: it alternates with a") || !strings.Contains(v.Reason, "a 与 b") {
		t.Errorf("oscillation reason %q", v.Reason)
	}
	long := strings.Repeat("x", 10000)
	g = New()
	for range 3 {
		v = g.Check(long, nil)
	}
	if len(v.Reason) > 2*maxToolName+600 {
		t.Errorf("reason of %d bytes for a long tool name", len(v.Reason))
	}
}

// TestOscillationStops: A B A B stops the fourth call; continuing the
// oscillation is persisted; the same tool with two argument sets
// oscillates too; A B C A B is no oscillation.
func TestOscillationStops(t *testing.T) {
	for _, tc := range []struct {
		name  string
		calls [][2]string
		want  []string
	}{
		{"two tools", [][2]string{{"a", `{}`}, {"b", `{}`}, {"a", `{}`}, {"b", `{}`}, {"a", `{}`}},
			[]string{"run", "run", "run", "stop", "persist"}},
		{"one tool, two argument sets", [][2]string{{"t", `{"x":1}`}, {"t", `{"x":2}`}, {"t", `{"x":1}`}, {"t", `{"x":2}`}},
			[]string{"run", "run", "run", "stop"}},
		{"three calls cycling", [][2]string{{"a", `{}`}, {"b", `{}`}, {"c", `{}`}, {"a", `{}`}, {"b", `{}`}},
			[]string{"run", "run", "run", "run", "run"}},
		{"A A B A is no swing", [][2]string{{"a", `{}`}, {"a", `{}`}, {"b", `{}`}, {"a", `{}`}},
			[]string{"run", "run", "run", "stop"}}, // the third a: a repeat
	} {
		g := New()
		for i, c := range tc.calls {
			if got := check(g, c[0], c[1]); got != tc.want[i] {
				t.Errorf("%s: call %d %v: %s, want %s", tc.name, i+1, c, got, tc.want[i])
			}
		}
	}
}

// TestAllowStartsOver: after the user allows a stopped call, it runs
// again until it repeats Repeats times more (the allowed call counts as
// the first), and is not persisted.
func TestAllowStartsOver(t *testing.T) {
	g := New()
	args := []byte(`{"command":"false"}`)
	want := []string{"run", "run", "stop"}
	for i, w := range want {
		if got := check(g, "c", string(args)); got != w {
			t.Fatalf("call %d: %s, want %s", i+1, got, w)
		}
	}
	g.Allow("c", args)
	for i, w := range []string{"run", "stop"} {
		if got := check(g, "c", string(args)); got != w {
			t.Fatalf("after allow, call %d: %s, want %s", i+1, got, w)
		}
	}
	// An allowed oscillation starts over from the allowed call.
	g = New()
	for _, tool := range []string{"a", "b", "a"} {
		g.Check(tool, nil)
	}
	if v := g.Check("b", nil); !v.Stop {
		t.Fatal("B not stopped")
	}
	g.Allow("b", nil)
	if got := check(g, "c", `{}`); got != "run" {
		t.Fatalf("after allowing b, c: %s", got)
	}
}

// TestBounded: a turn of many distinct calls keeps at most
// MaxSignatures of them, and repeats still stop within the bound.
func TestBounded(t *testing.T) {
	g := New()
	for i := range 3 * MaxSignatures {
		if v := g.Check("t", fmt.Appendf(nil, `{"i":%d}`, i)); v.Stop {
			t.Fatalf("distinct call %d stopped: %s", i, v.Reason)
		}
	}
	if len(g.seen) > MaxSignatures || len(g.swings) > MaxSignatures || len(g.recent) > 3 {
		t.Fatalf("guard holds %d signatures, %d swings, %d recent", len(g.seen), len(g.swings), len(g.recent))
	}
	g.Check("t", []byte(`{"i":0}`))
	if v := g.Check("t", []byte(`{"i":0}`)); !v.Stop {
		t.Fatal("third call of a counted signature not stopped")
	}
}

// TestQuestionForTheUser: the user is asked a question of their own,
// bilingual, naming the tool and the count or the oscillation, without
// the instructions meant for the model.
func TestQuestionForTheUser(t *testing.T) {
	g := New()
	var v Verdict
	for range 3 {
		v = g.Check("command_executor", []byte(`{"command":"false"}`))
	}
	for _, want := range []string{"模型已第 3 次以相同参数调用 command_executor", "是否仍要执行？", "The model has called command_executor with the same arguments 3 times. Run it anyway?"} {
		if !strings.Contains(v.Question.Both(), want) {
			t.Errorf("question %q lacks %q", v.Question.Both(), want)
		}
	}
	for _, q := range []string{v.Question.Zh, v.Question.En} {
		if strings.Contains(q, "Do not call it again") || strings.Contains(q, "本轮不要再调用") {
			t.Errorf("question %q carries the model's instructions", q)
		}
	}
	g = New()
	for _, tool := range []string{"a", "b", "a"} {
		g.Check(tool, nil)
	}
	v = g.Check("b", nil)
	if q := v.Question.En; !strings.Contains(q, "alternating between two calls, a and b") || !strings.Contains(q, "Run b anyway?") || strings.Contains(q, "Do not call") {
		t.Errorf("oscillation question %q", v.Question.En)
	}
	g = New()
	for _, args := range []string{`{"x":1}`, `{"x":2}`, `{"x":1}`} {
		g.Check("a", []byte(args))
	}
	v = g.Check("a", []byte(`{"x":2}`))
	if !strings.Contains(v.Question.En, "alternating between two calls of a") || !strings.Contains(v.Question.Zh, "交替调用 a") {
		t.Errorf("same-tool oscillation question %+v", v.Question)
	}
	long := strings.Repeat("x", 10000)
	g = New()
	for range 3 {
		v = g.Check(long, nil)
	}
	if len(v.Question.Both()) > 3*maxToolName+400 {
		t.Errorf("question of %d bytes for a long tool name", len(v.Question.Both()))
	}
}
