package builtin

import (
	"fmt"
	"strings"
	"testing"
)

// chainLog is the log the multi-step chains upload
// (testdata/evals/chains/app.log), shortened.
const chainLog = "10:00:01 INFO server started on :8080\n10:01:13 ERROR db: connection refused\n10:02:05 WARN slow request\n10:06:10 ERROR db: connection refused\n10:06:45 INFO GET /healthz 200\n10:07:00 INFO shutting down worker pool\n"

// TestLinesWanted: the last or first lines, and how many, in both
// languages; a question about something else asks for none.
func TestLinesWanted(t *testing.T) {
	for _, c := range []struct {
		q    string
		ok   bool
		tail bool
		n    int
	}{
		{"显示我上传的日志的最后 3 行", true, true, 3},
		{"tail the log I uploaded, last 3 lines", true, true, 3},
		{"请给我看上传的 README 的前 10 行", true, false, 10},
		{"show the first 2 lines of the log I uploaded", true, false, 2},
		{"日志最后三行", true, true, 3},
		{"最后十五行", true, true, 15},
		{"日志的最后一行是什么", true, true, 1},
		{"what is the last line of the log?", true, true, 1},
		{"tail the log I uploaded", true, true, defaultLinesShown},
		{"看看日志末尾几行", true, true, defaultLinesShown},
		{"这个文件里数据库端口是多少？", false, false, 0},
		{"what is the head node host?", false, false, 0},
		{"最后一次部署是什么时候", false, false, 0},
		{"日志里最后运行的任务是什么", false, false, 0},
		{"最后执行了哪些命令", false, false, 0},
	} {
		tail, n, ok := linesWanted(c.q)
		if ok != c.ok || ok && (tail != c.tail || n != c.n) {
			t.Errorf("%q: tail %v n %d ok %v, want %v %d %v", c.q, tail, n, ok, c.tail, c.n, c.ok)
		}
	}
}

// TestLinesAnswer: an uploaded log asked for its last or first lines
// shows those lines, numbered, not the whole log (it showed every line);
// fewer lines than asked show all; a read cut at the budget cannot show
// the end and says so; a secret on a line is hidden.
func TestLinesAnswer(t *testing.T) {
	zh := describeRead(true, Intent{input: "显示我上传的日志的最后 3 行"}, "app.log", chainLog, false)
	if want := "app.log 的最后 3 行（共 6 行）：\n```\n4: 10:06:10 ERROR db: connection refused\n5: 10:06:45 INFO GET /healthz 200\n6: 10:07:00 INFO shutting down worker pool\n```"; zh != want {
		t.Errorf("zh tail:\n got %q\nwant %q", zh, want)
	}
	en := describeRead(false, Intent{input: "show the first 2 lines of the log I uploaded"}, "app.log", chainLog, false)
	if want := "The first 2 lines of app.log (of 6):\n```\n1: 10:00:01 INFO server started on :8080\n2: 10:01:13 ERROR db: connection refused\n```"; en != want {
		t.Errorf("en head:\n got %q\nwant %q", en, want)
	}
	if got := describeRead(false, Intent{input: "tail app.log, last line"}, "app.log", chainLog, false); !strings.HasPrefix(got, "The last line of app.log (of 6):") || strings.Contains(got, "10:06:45") {
		t.Errorf("en last line: %q", got)
	}
	if got := describeRead(true, Intent{input: "日志最后 50 行"}, "app.log", chainLog, false); !strings.HasPrefix(got, "app.log 只有 6 行，全部如下：") {
		t.Errorf("short file: %q", got)
	}
	if got := describeRead(true, Intent{input: "日志最后 3 行"}, "app.log", chainLog, true); strings.Contains(got, "shutting down") || !strings.Contains(got, "无法显示它的最后 3 行") {
		t.Errorf("truncated tail: %q", got)
	}
	if got := describeRead(false, Intent{input: "first 2 lines"}, "app.log", chainLog, true); !strings.HasPrefix(got, "The first 2 lines of app.log (of the first 6 read):") {
		t.Errorf("truncated head: %q", got)
	}
	if got := describeRead(false, Intent{input: "last 3 lines"}, "empty.log", "", false); got != "empty.log is empty." {
		t.Errorf("empty: %q", got)
	}
	secret := "a\nb\nDB_PASSWORD=hunter2hunter2\n"
	if got := describeRead(false, Intent{input: "last 2 lines"}, "x.log", secret, false); strings.Contains(got, "hunter2") {
		t.Errorf("secret shown: %q", got)
	}
	var long strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&long, "line %d\n", i+1)
	}
	got := describeRead(false, Intent{input: "last 5000 lines"}, "big.log", long.String(), false)
	if !strings.HasPrefix(got, fmt.Sprintf("The last %d lines of big.log (of 1000):", maxLinesShown)) || !strings.Contains(got, "1000: line 1000") ||
		strings.Contains(got, "800: line 800\n") || !strings.HasSuffix(got, fmt.Sprintf("(at most %d lines are shown at once)", maxLinesShown)) {
		t.Errorf("capped: %.200q … %q", got, got[max(0, len(got)-120):])
	}
}
