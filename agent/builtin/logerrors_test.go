package builtin

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"opsassist/internal/golden"
)

// TestErrorsInConfigFileIgnoreComments: in an uploaded YAML (or other
// configuration file) comment lines and inline " #" comments are not
// error lines; a real error line still is; a log keeps every line.
func TestErrorsInConfigFileIgnoreComments(t *testing.T) {
	config := "# Unknown keys are an error; a typo is reported at start.\n" +
		"log:\n  level: info  # debug, info, warn or error\n" +
		"// error handling below\n; warn: legacy\nlisten: 127.0.0.1:7000\n"
	for _, name := range []string{"opsassist.yaml", "app.YML", "x.toml", "a.ini", "n.conf", "c.cfg", "p.properties", ".env"} {
		got := describeErrors(true, name, config, false)
		if !strings.Contains(got, "没有找到错误或警告") {
			t.Errorf("%s: %q", name, got)
		}
		got = describeErrors(false, name, config, false)
		if !strings.Contains(got, "No errors or warnings found in "+name) {
			t.Errorf("%s en: %q", name, got)
		}
	}
	got := describeErrors(false, "opsassist.yaml", config+"status: error connecting  # see log\n", false)
	if !strings.Contains(got, "1 error and 0 warnings") || !strings.Contains(got, "status: error connecting") || strings.Contains(got, "see log") {
		t.Errorf("real error in config: %q", got)
	}
	if got := describeErrors(false, "app.log", config, false); strings.Contains(got, "No errors") {
		t.Errorf("a log's lines all count: %q", got)
	}
}

// TestErrorsGroupedInRealLogs: the evals' logs — Java with stack
// traces, JSON lines with a Go panic, nginx, the kernel — answered with
// their errors grouped and counted (testdata/logerrors.golden): what
// varies between occurrences (times, ids, addresses, numbers) does not
// split a kind, stack traces are no errors of their own.
func TestErrorsGroupedInRealLogs(t *testing.T) {
	var b strings.Builder
	for i, name := range []string{"payment-app.log", "order-service-error.log", "nginx-error.log", "kern-oom.log", "cron.log"} {
		content, err := os.ReadFile(filepath.Join("../../testdata/evals/corpus", name))
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString("## " + name + "\n" + describeErrors(i%2 == 0, name, string(content), false) + "\n\n")
	}
	golden.Check(t, filepath.Join("testdata", "logerrors.golden"), b.String(), *update)
}

// TestErrorKinds: lines that differ only in what varies are one kind;
// lines that differ in what happened are two; a quiet level before an
// error word is no error; JSON lines by their level and message.
func TestErrorKinds(t *testing.T) {
	same := [][2]string{
		{"2024-06-12 14:05:31.552 ERROR [pod-7d9f8c6b5-x2kqp] [exec-44] db timeout after 3012ms host=10.0.0.5:3306", "2024-06-13 09:01:02.001 ERROR [pod-5c4d3b2a1-hn4wd] [exec-7] db timeout after 15ms host=10.0.0.6:3306"},
		{"ERROR open /var/data/a1/file.bin: no such file", "ERROR open /var/data/b2/other.bin: no such file"},
		{"FATAL request 3f2c1a9e-8d7b-4c31-9a2e-6f1c2a9e8d7b failed at 0xdeadbeef", "FATAL request 0ab93cde-11f2-4a77-8e2d-1234567890ab failed at 0x1"},
		{`{"level":"error","ts":"2024-06-10T11:40:58.212+0800","msg":"create order failed","order_no":"20240610-32987","error":"Error 1040 (08004): Too many connections"}`,
			`{"level":"error","ts":"2024-06-10T11:41:58.590+0800","msg":"create order failed","order_no":"20240610-32988","error":"Error 1040 (08004): Too many connections","trace_id":"x"}`},
	}
	for _, p := range same {
		s1, k1, _ := severity(p[0])
		s2, k2, _ := severity(p[1])
		if s1 != sevError || s2 != sevError || k1 != k2 {
			t.Errorf("one kind:\n%q (%v)\n%q (%v)", k1, s1, k2, s2)
		}
	}
	for _, p := range [][2]string{
		{"ERROR db timeout", "ERROR disk full"},
		{`{"level":"error","msg":"create order failed","error":"Too many connections"}`, `{"level":"error","msg":"create order failed","error":"context deadline exceeded"}`},
	} {
		_, k1, _ := severity(p[0])
		_, k2, _ := severity(p[1])
		if k1 == k2 {
			t.Errorf("two kinds, one key %q", k1)
		}
	}
	for l, want := range map[string]sev{
		"INFO retry after error":                            sevNone,
		"2024-01-01 DEBUG no failure":                       sevNone,
		"java.lang.OutOfMemoryError: Java heap space":       sevError,
		"Exception in thread \"main\" NullPointerException": sevError,
		"WARN slow query":                                   sevWarn,
		`{"level":"info","msg":"error budget ok"}`:          sevNone,
		`{"level":"warn","msg":"pool exhausted"}`:           sevWarn,
		"the mirror is fine":                                sevNone,
		"Traceback (most recent call last):":                sevError,
	} {
		if got, _, _ := severity(l); got != want {
			t.Errorf("%q: %v, want %v", l, got, want)
		}
	}
	// A stack trace is part of its error; the count is of errors.
	log := "ERROR boom\n\tat a.b(C.java:1)\nCaused by: java.io.IOException: x\n\t... 3 more\nERROR boom\n"
	if got := describeErrors(false, "app.log", log, false); !strings.Contains(got, "Found 2 errors and 0 warnings") || !strings.Contains(got, "2 × ERROR boom") {
		t.Errorf("stack: %q", got)
	}
}

// TestErrorsHostileLog: a huge, binary or one-line log is answered
// without failing, each example line capped.
func TestErrorsHostileLog(t *testing.T) {
	long := "ERROR " + strings.Repeat("x", 100000)
	got := describeErrors(false, "a.log", long+"\n\x00\x01ERROR \xff\xfe\n"+strings.Repeat("ERROR n=1\n", 10000), true)
	if len(got) > 2000 || !strings.Contains(got, "10000 × ERROR n=1") || !strings.Contains(got, "only its beginning") {
		t.Errorf("%d bytes: %.300q", len(got), got)
	}
}

// TestPreviousLogErrorsThroughAgent: "分析之前上传的日志中的错误" after
// a log and then a config were uploaded reads the log, not the config,
// and names its top errors with their counts, through the real agent.
func TestPreviousLogErrorsThroughAgent(t *testing.T) {
	dir := t.TempDir()
	log := "2024-06-10 11:40:58 ERROR db timeout after 3012ms conn=17\n2024-06-10 11:40:59 INFO ok\n" +
		"2024-06-10 11:41:02 ERROR db timeout after 15ms conn=4\n2024-06-10 11:41:09 ERROR disk full on /data\n2024-06-10 11:42:00 WARN slow query 2s\n"
	ups := uploadFiles(t, dir, [2]string{"app.log", log}, [2]string{"config.yaml", "level: error\n"})
	a := newAgent(t, dir)
	for q, want := range map[string]string{
		"分析之前上传的日志中的错误":                               "在 app.log 中找到 3 条错误、1 条警告（按出现次数排列）：\n```\n2 × 2024-06-10 11:40:58 ERROR db timeout after 3012ms conn=17\n1 × 2024-06-10 11:41:09 ERROR disk full on /data\n1 × 2024-06-10 11:42:00 WARN slow query 2s\n```",
		"check the log I uploaded earlier for errors": "Found 3 errors and 1 warning in app.log (most frequent first):\n```\n2 × 2024-06-10 11:40:58 ERROR db timeout after 3012ms conn=17",
	} {
		r, _ := ask(t, a, q, ups)
		if got := r.text.String(); !strings.HasPrefix(got, want) {
			t.Errorf("%q:\n%s\nwant it to start with\n%s", q, got, want)
		}
	}
}

// TestErrorKindsByStatus: errors that differ in their status code are
// different errors; measures still vary (review 16a, item 8).
func TestErrorKindsByStatus(t *testing.T) {
	log := "ERROR upstream returned 502\nERROR status=503\nERROR status=504\nERROR upstream returned 404\nERROR upstream returned 404\nERROR HTTP 500 after 250ms\nERROR HTTP 500 after 300ms\nERROR took 120 ms conn=17\nERROR took 130 ms conn=170\n"
	got := describeErrors(false, "app.log", log, false)
	for _, want := range []string{"Found 9 errors", "1 × ERROR status=503", "2 × ERROR upstream returned 404", "1 × ERROR upstream returned 502", "2 × ERROR HTTP 500 after 250ms", "2 × ERROR took 120 ms conn=17"} {
		if !strings.Contains(got, want) {
			t.Errorf("lacks %q:\n%s", want, got)
		}
	}
}

// TestPythonTracebackOneError: a traceback is one error, its kind and
// example its exception line; after logging.exception's error line it
// is that error's; chained tracebacks are one (review 16a, item 8).
func TestPythonTracebackOneError(t *testing.T) {
	tb := "Traceback (most recent call last):\n  File \"app.py\", line 3, in <module>\n    main()\n  File \"app.py\", line 2, in main\n    {}['k']\n"
	for _, c := range []struct{ log, want string }{
		{tb + "KeyError: 'k'\n", "Found 1 error and 0 warnings in app.log (most frequent first):\n```\n1 × KeyError: 'k'\n```"},
		{tb + "KeyError: 'k'\n" + tb + "KeyError: 'k'\n", "Found 2 errors and 0 warnings in app.log (most frequent first):\n```\n2 × KeyError: 'k'\n```"},
		{"2024-06-10 11:40:58 ERROR order failed\n" + tb + "KeyError: 'k'\n", "Found 1 error and 0 warnings in app.log (most frequent first):\n```\n1 × 2024-06-10 11:40:58 ERROR order failed\n```"},
		{tb + "KeyError: 'k'\n\nDuring handling of the above exception, another exception occurred:\n\n" + tb + "ValueError: bad\n", "Found 1 error and 0 warnings in app.log (most frequent first):\n```\n1 × KeyError: 'k'\n```"},
		{tb, "Found 1 error and 0 warnings in app.log (most frequent first):\n```\n1 × Traceback (most recent call last):\n```"},
	} {
		if got := describeErrors(false, "app.log", c.log, false); got != c.want {
			t.Errorf("%q:\n got %q\nwant %q", c.log, got, c.want)
		}
	}
}
