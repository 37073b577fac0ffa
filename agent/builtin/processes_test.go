package builtin

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"opsassist/internal/golden"
	"opsassist/tools/command"
)

const (
	psDefault = "    PID USER     %CPU %MEM COMMAND\n" +
		"   2211 mysql    12.5 31.0 mysqld\n" +
		"   8812 app      87.3  4.2 java\n" +
		"      1 root      0.0  0.1 systemd\n" +
		"   9001 www-data  3.1  0.4 nginx\n" +
		"  10442 app       0.2 45.9 python3\n" +
		"  10443 app       0.2  0.9 sh\n"
	psAux = "USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND\n" +
		"root           1  0.0  0.1 167000 11000 ?        Ss   Nov23   0:05 /sbin/init splash\n" +
		"app         8812 87.3  4.2 9000000 700000 ?      Sl   09:00  10:00 java -Xmx2g -Dspring.datasource.password=hunter2-secret -jar app.jar\n" +
		"mysql       2211 12.5 31.0 5000000 2500000 ?     Ssl  Nov23  99:00 /usr/sbin/mysqld --user=mysql\n"
)

// TestProcessAnswers: a process question is answered with the top
// processes by CPU, or by memory when it asks about memory, as many as
// asked, in both languages and both of ps's shapes
// (testdata/processes.golden); secrets on a command line are hidden.
func TestProcessAnswers(t *testing.T) {
	var b strings.Builder
	for _, c := range []struct {
		q, cmd, out string
		zh          bool
	}{
		{"查看进程", "ps -eo pid,user,%cpu,%mem,comm --sort=-%cpu", psDefault, true},
		{"哪些进程占用内存最多", "ps -eo pid,user,%cpu,%mem,comm --sort=-%cpu", psDefault, true},
		{"top 3 processes by memory", "ps -eo pid,user,%cpu,%mem,comm --sort=-%cpu", psDefault, false},
		{"CPU 占用前 2 的进程", "ps -eo pid,user,%cpu,%mem,comm --sort=-%cpu", psDefault, true},
		{"show processes", "ps aux", psAux, false},
	} {
		raw, _ := json.Marshal(map[string]any{"command": c.cmd, "exit_code": 0, "stdout": c.out})
		got := describe(c.zh, Intent{input: c.q}, result{tool: "command_executor", Success: true, Output: raw})
		if strings.Contains(got, "hunter2-secret") {
			t.Errorf("%q shows a secret: %s", c.q, got)
		}
		b.WriteString("## " + c.q + "\n" + got + "\n\n")
	}
	golden.Check(t, filepath.Join("testdata", "processes.golden"), b.String(), *update)
}

// TestProcessAnswerFallsBack: output that is no process table — empty,
// a header only, another command's, a failed ps — is quoted as before.
func TestProcessAnswerFallsBack(t *testing.T) {
	for _, c := range []struct {
		cmd, out string
		code     int
	}{
		{"ps", "", 0},
		{"ps -o pid", "PID\n1\n2\n", 0},
		{"ps x", "garbage\x00\xff\n", 0},
		{"ps aux", psAux, 1},
		{"ls -la", psDefault, 0},
	} {
		raw, _ := json.Marshal(map[string]any{"command": c.cmd, "exit_code": c.code, "stdout": c.out})
		r := result{tool: "command_executor", Success: true, Output: raw}
		if _, ok := processAnswer(false, Intent{input: "show processes"}, r); ok {
			t.Errorf("%q %q: answered as a process table", c.cmd, c.out)
		}
	}
	if _, ok := describeProcesses(false, "ps", "ps", "    PID USER %CPU %MEM COMMAND\n"); ok {
		t.Error("a header alone is a table")
	}
}

// TestProcessAnswerRealPS: this machine's ps, in both shapes, answers
// with its processes ranked by CPU.
func TestProcessAnswerRealPS(t *testing.T) {
	psPath, err := exec.LookPath("ps")
	if err != nil {
		t.Skip("ps is not installed")
	}
	for _, args := range [][]string{(command.Tiers{}).DefaultArgs("ps"), {"aux"}} {
		out, err := exec.Command(psPath, args...).Output()
		if err != nil {
			t.Fatalf("ps %q: %v", args, err)
		}
		got, ok := describeProcesses(false, "show processes", "ps "+strings.Join(args, " "), string(out))
		if !ok || !strings.HasPrefix(got, "Top ") || !strings.Contains(got, "PID") {
			t.Fatalf("ps %q: %v %q", args, ok, got)
		}
		prev := 1e9
		for _, l := range strings.Split(got, "\n")[3:] {
			f := strings.Fields(l)
			if len(f) < 4 || strings.HasPrefix(l, "```") {
				continue
			}
			cpu, err := strconv.ParseFloat(f[2], 64)
			if err != nil || cpu > prev {
				t.Errorf("ps %q: not ranked by CPU at %q", args, l)
			}
			prev = cpu
		}
	}
}

// TestProcessCommandColumnAnywhere: a command with spaces keeps its
// row, and a command column that is not the last is read (review 16a,
// item 16).
func TestProcessCommandColumnAnywhere(t *testing.T) {
	out := "  PID USER     COMMAND         %CPU %MEM\n    1 root     systemd          0.1  0.2\n  812 www      nginx: worker process 7.5  1.0\n  900 app      tmux: server     2.0  0.5\n"
	got, ok := describeProcesses(false, "top processes", "ps -eo pid,user,comm,%cpu,%mem", out)
	if !ok {
		t.Fatal("no table")
	}
	for _, want := range []string{"Top 3 processes by CPU", "812  www   7.5   1.0   nginx: worker process", "900  app   2.0   0.5   tmux: server", "1    root  0.1   0.2   systemd"} {
		if !strings.Contains(got, want) {
			t.Errorf("lacks %q:\n%s", want, got)
		}
	}
}
