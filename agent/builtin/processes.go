package builtin

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"opsassist/internal/runecut"
)

var (
	// reMemoryQuestion asks for processes by memory; any other process
	// question is answered by CPU.
	reMemoryQuestion = compile(`(?i)内存|\bmemory\b|\bmem\b|\bram\b|%mem|\brss\b`)
	// reTopN is how many processes the question asks for: "前 5 个",
	// "top 3".
	reTopN = compile(`(?i)前\s*(\d{1,3})|\btop\s*(\d{1,3})\b`)
)

// Bounds of a process answer.
const (
	defaultTopProcesses = 10
	maxTopProcesses     = 50
	maxCommandBytes     = 60
)

// process is one row of ps's table.
type process struct {
	pid, user, command string
	cpu, mem           float64
}

// processAnswer answers from a ps call that succeeded with its top
// processes (describeProcesses); ok is false for any other result.
func processAnswer(zh bool, in Intent, r result) (string, bool) {
	var c struct {
		Command  string `json:"command"`
		ExitCode int    `json:"exit_code"`
		Stdout   string `json:"stdout"`
	}
	if !r.Success || json.Unmarshal(r.Output, &c) != nil || c.ExitCode != 0 || c.Command != "ps" && !strings.HasPrefix(c.Command, "ps ") {
		return "", false
	}
	return describeProcesses(zh, inputOf(in), c.Command, c.Stdout)
}

// describeProcesses answers a process question from ps's output — the
// default columns (pid, user, %cpu, %mem, comm) or "ps aux"'s — with a
// short table of the top processes by CPU, or by memory when the
// question asks about memory ("哪些进程占用内存最多"), ten or the number
// asked ("前 5 个"): pid, user, %cpu, %mem and the command, its secrets
// hidden and cut to maxCommandBytes. ok is false when the output is no
// process table: the command's output is quoted instead.
func describeProcesses(zh bool, q, command, stdout string) (string, bool) {
	procs, ok := parsePS(stdout)
	if !ok || len(procs) == 0 {
		return "", false
	}
	byMem := reMemoryQuestion.MatchString(q)
	slices.SortStableFunc(procs, func(a, b process) int {
		if byMem {
			return cmp.Or(cmp.Compare(b.mem, a.mem), cmp.Compare(b.cpu, a.cpu))
		}
		return cmp.Or(cmp.Compare(b.cpu, a.cpu), cmp.Compare(b.mem, a.mem))
	})
	n := defaultTopProcesses
	if m := reTopN.FindStringSubmatch(q); m != nil {
		if v, err := strconv.Atoi(m[1] + m[2]); err == nil && v > 0 {
			n = min(v, maxTopProcesses)
		}
	}
	top := procs[:min(n, len(procs))]
	rows := [][]string{{"PID", "USER", "%CPU", "%MEM", "COMMAND"}}
	for _, p := range top {
		cmdline := shownLine(p.command)
		if len(cmdline) > maxCommandBytes {
			cmdline = runecut.Head(cmdline, maxCommandBytes) + "…"
		}
		rows = append(rows, []string{p.pid, runecut.Head(p.user, 16), fmt.Sprintf("%.1f", p.cpu), fmt.Sprintf("%.1f", p.mem), cmdline})
	}
	var head string
	metric := "CPU"
	if byMem {
		metric = map[bool]string{true: "内存", false: "memory"}[zh]
	}
	if zh {
		head = fmt.Sprintf("按%s占用排列的前 %d 个进程（共 %d 个，来自 %s）：", metric, len(top), len(procs), codeSpan(command))
		head = strings.Replace(head, "按CPU", "按 CPU ", 1)
	} else {
		head = fmt.Sprintf("Top %d processes by %s (of %d, from %s):", len(top), metric, len(procs), codeSpan(command))
	}
	return head + "\n" + codeBlock(alignColumns(rows)), true
}

// parsePS reads ps's table: a header naming PID, %CPU and %MEM (and
// USER and a command column, COMMAND, CMD or COMM, when shown), then a
// row per process; the command, in any column, may hold spaces (a row's
// words beyond the header's are its command's).
func parsePS(out string) ([]process, bool) {
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	header := strings.Fields(lines[0])
	col := map[string]int{}
	for i, h := range header {
		switch strings.ToUpper(h) {
		case "PID":
			col["pid"] = i
		case "USER", "UID", "RUSER":
			col["user"] = i
		case "%CPU", "PCPU":
			col["cpu"] = i
		case "%MEM", "PMEM":
			col["mem"] = i
		case "COMMAND", "CMD", "COMM", "ARGS":
			col["command"] = i
		}
	}
	for _, need := range []string{"pid", "cpu", "mem"} {
		if _, ok := col[need]; !ok {
			return nil, false
		}
	}
	var procs []process
	cmdCol, hasCmd := col["command"]
	for _, l := range lines[1:] {
		f := strings.Fields(l)
		if len(f) < len(header) {
			continue
		}
		// The command may hold spaces ("tmux: server", "nginx: worker
		// process"): the words a row has more than the header are its
		// command's, and the columns after it are that many further on.
		extra := len(f) - len(header)
		at := func(name string) string {
			i := col[name]
			if hasCmd && i > cmdCol {
				i += extra
			}
			return f[i]
		}
		cpu, err1 := strconv.ParseFloat(at("cpu"), 64)
		mem, err2 := strconv.ParseFloat(at("mem"), 64)
		if err1 != nil || err2 != nil {
			continue
		}
		p := process{pid: at("pid"), cpu: cpu, mem: mem}
		if _, ok := col["user"]; ok {
			p.user = at("user")
		}
		if hasCmd {
			p.command = strings.Join(f[cmdCol:cmdCol+extra+1], " ")
		}
		procs = append(procs, p)
	}
	return procs, true
}

// alignColumns lays rows out in columns padded to their widest cell,
// the last column unpadded.
func alignColumns(rows [][]string) string {
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r[:len(r)-1] {
			widths[i] = max(widths[i], len(c))
		}
	}
	var b strings.Builder
	for n, r := range rows {
		if n > 0 {
			b.WriteByte('\n')
		}
		for i, c := range r {
			if i == len(r)-1 {
				b.WriteString(c)
				break
			}
			b.WriteString(c + strings.Repeat(" ", widths[i]-len(c)+2))
		}
	}
	return b.String()
}
