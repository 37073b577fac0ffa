package audit

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"opsassist/tools"
)

// day0 is the fake clock's start.
var day0 = time.Date(2026, 11, 24, 10, 0, 0, 123456789, time.UTC)

// fakeClock is a clock tests move by hand.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}

// call returns the i-th test record, without a time (the clock's).
func call(i int) tools.CallRecord {
	return tools.CallRecord{
		User: "alice", Role: "operator", Session: "s1", Client: "nplt", ToolCallID: fmt.Sprintf("c%d", i),
		Tool: "run_command", Args: json.RawMessage(fmt.Sprintf(`{"command": "uptime %d"}`, i)),
		Decision: "ask", DecidedBy: "user", Status: "ok", Attempts: 1,
		Duration: 1500 * time.Millisecond, OutputBytes: 42, OutputSHA256: strings.Repeat("ab", 32),
	}
}

// openLog opens a log in a fresh directory on a fake clock.
func openLog(t *testing.T) (*Log, string, *fakeClock) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "audit")
	clk := &fakeClock{t: day0}
	l, err := Open(dir, Options{Now: clk.now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l, dir, clk
}

// record writes n records.
func record(t *testing.T, l *Log, n int) {
	t.Helper()
	for i := range n {
		if err := l.Record(call(i)); err != nil {
			t.Fatal(err)
		}
	}
}

// readLines returns a log file's lines without newlines.
func readLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// writeLines replaces a log file's content.
func writeLines(t *testing.T, path string, lines []string) {
	t.Helper()
	s := strings.Join(lines, "\n")
	if len(lines) > 0 {
		s += "\n"
	}
	if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
}

func mustVerify(t *testing.T, dir string, records int) Report {
	t.Helper()
	rep, err := Verify(dir)
	if err != nil {
		t.Fatalf("Verify: %v", err)
	}
	if rep.Records != records {
		t.Fatalf("Verify: %d records, want %d", rep.Records, records)
	}
	return rep
}

func TestRecordFormat(t *testing.T) {
	l, dir, _ := openLog(t)
	r := call(1)
	r.Rule, r.ErrorClass, r.Error = "rule-1", tools.ClassTimeout, "timed out <after> 1s"
	r.LoopDecidedBy = tools.ByUser
	if err := l.Record(r); err != nil {
		t.Fatal(err)
	}
	r2 := call(2)
	r2.Args, r2.ArgsInvalid = nil, true
	r2.Direct, r2.DecidedBy = true, tools.DecidedByDirect // a direct call: "direct":true after client
	r2.Time = day0.Add(time.Second)
	if err := l.Record(r2); err != nil {
		t.Fatal(err)
	}
	lines := readLines(t, filepath.Join(dir, "2026-11-24.jsonl"))
	sealed := func(body string) string {
		line, _ := seal([]byte(body + "\n"))
		return strings.TrimSuffix(string(line), "\n")
	}
	want0 := `{"seq":1,"time":"2026-11-24T10:00:00.123456789Z","user":"alice","role":"operator","session":"s1","client":"nplt",` +
		`"tool_call_id":"c1","tool":"run_command","args":{"command":"uptime 1"},"decision":"ask","decided_by":"user","rule":"rule-1",` +
		`"loop_decided_by":"user","status":"ok","error_class":"timeout","error":"timed out <after> 1s","attempts":1,"duration_ms":1500,"output_bytes":42,` +
		`"output_sha256":"` + strings.Repeat("ab", 32) + `","prev":"` + zeroHash + `"}`
	hash0 := lineHash([]byte(want0))
	if want0 = sealed(want0); lines[0] != want0 || !strings.HasSuffix(want0, `"prev":"`+zeroHash+`","hash":"`+hash0+`"}`) {
		t.Errorf("record 1:\n got %s\nwant %s", lines[0], want0)
	}
	want1 := `{"seq":2,"time":"2026-11-24T10:00:01.123456789Z","user":"alice","role":"operator","session":"s1","client":"nplt","direct":true,` +
		`"tool_call_id":"c2","tool":"run_command","args_invalid":true,"decision":"ask","decided_by":"direct",` +
		`"status":"ok","attempts":1,"duration_ms":1500,"output_bytes":42,` +
		`"output_sha256":"` + strings.Repeat("ab", 32) + `","prev":"` + hash0 + `"}`
	if want1 = sealed(want1); lines[1] != want1 {
		t.Errorf("record 2:\n got %s\nwant %s", lines[1], want1)
	}
	rep := mustVerify(t, dir, 2)
	if rep.Files != 1 || rep.Head != sealedHash([]byte(lines[1])) {
		t.Errorf("report %+v", rep)
	}
	h, ok, err := readHead(dir)
	if err != nil || !ok || h.Seq != 2 || h.Hash != rep.Head || h.File != "2026-11-24.jsonl" {
		t.Errorf("HEAD %+v %v %v", h, ok, err)
	}
}

func TestRecordBounds(t *testing.T) {
	l, dir, _ := openLog(t)
	big := `{"x":"` + strings.Repeat("y", MaxArgs) + `"}`
	r := call(0)
	r.Args = json.RawMessage(big)
	r.Error = strings.Repeat("é", MaxError) // 2 bytes a rune
	r.Tool = strings.Repeat("t", 10*MaxField)
	if err := l.Record(r); err != nil {
		t.Fatal(err)
	}
	r = call(1)
	r.Args = nil
	if err := l.Record(r); err != nil {
		t.Fatal(err)
	}
	r = call(2)
	r.Args = json.RawMessage(`{not json`)
	if err := l.Record(r); err != nil {
		t.Fatal(err)
	}
	lines := readLines(t, filepath.Join(dir, "2026-11-24.jsonl"))
	var got []callLine
	for _, s := range lines {
		var c callLine
		if err := json.Unmarshal([]byte(s), &c); err != nil {
			t.Fatal(err)
		}
		got = append(got, c)
	}
	var marker struct {
		Truncated bool   `json:"truncated"`
		SHA256    string `json:"sha256"`
	}
	if err := json.Unmarshal(got[0].Args, &marker); err != nil || !marker.Truncated || marker.SHA256 != lineHash([]byte(big)) {
		t.Errorf("big args written as %s", got[0].Args)
	}
	if len(got[0].Error) != MaxError || !strings.HasPrefix(strings.Repeat("é", MaxError), got[0].Error) {
		t.Errorf("error cut to %d bytes", len(got[0].Error))
	}
	if len(got[0].Tool) != MaxField {
		t.Errorf("tool cut to %d bytes", len(got[0].Tool))
	}
	if string(got[1].Args) != "{}" || got[1].ArgsInvalid {
		t.Errorf("no args written as %s, invalid %v", got[1].Args, got[1].ArgsInvalid)
	}
	if got[2].Args != nil || !got[2].ArgsInvalid {
		t.Errorf("invalid args written as %s, invalid %v", got[2].Args, got[2].ArgsInvalid)
	}
	for i, s := range lines {
		if len(s) > 16<<10 {
			t.Errorf("record %d takes %d bytes", i+1, len(s))
		}
	}
	mustVerify(t, dir, 3)
}

func TestFilesPerDayAndPermissions(t *testing.T) {
	l, dir, clk := openLog(t)
	record(t, l, 2)
	clk.set(day0.Add(24 * time.Hour))
	record(t, l, 2)
	// A call that started yesterday but ends after today's records
	// stays in today's file: files never go back.
	r := call(9)
	r.Time = day0
	if err := l.Record(r); err != nil {
		t.Fatal(err)
	}
	if n := len(readLines(t, filepath.Join(dir, "2026-11-24.jsonl"))); n != 2 {
		t.Errorf("first day: %d records", n)
	}
	if n := len(readLines(t, filepath.Join(dir, "2026-11-25.jsonl"))); n != 3 {
		t.Errorf("second day: %d records", n)
	}
	rep := mustVerify(t, dir, 5)
	if rep.Files != 2 {
		t.Errorf("%d files", rep.Files)
	}
	for name, want := range map[string]os.FileMode{"": 0o700, "2026-11-24.jsonl": 0o600, "2026-11-25.jsonl": 0o600, headName: 0o600} {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != want {
			t.Errorf("%q: mode %o, want %o", name, got, want)
		}
	}
	// Reopened, the log continues the chain.
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if err := l.Record(call(0)); !errors.Is(err, ErrClosed) {
		t.Errorf("Record after Close: %v", err)
	}
	l2, err := Open(dir, Options{Now: clk.now})
	if err != nil {
		t.Fatal(err)
	}
	defer l2.Close()
	record(t, l2, 1)
	mustVerify(t, dir, 6)
}

func TestConcurrentRecord(t *testing.T) {
	l, dir, _ := openLog(t)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 25 {
				if err := l.Record(call(g*100 + i)); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	mustVerify(t, dir, 200)
}

func TestOpenEmptyAndMissing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "nothing")
	rep := mustVerify(t, dir, 0)
	if rep.Head != "" || rep.Files != 0 {
		t.Errorf("%+v", rep)
	}
	l, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	mustVerify(t, dir, 0)
}

// faultyFile fails writes and syncs on demand.
type faultyFile struct {
	file
	failWrite, failSync, failTruncate bool
}

var errDiskFull = errors.New("no space left on device")

func (f *faultyFile) Write(b []byte) (int, error) {
	if f.failWrite {
		n, _ := f.file.Write(b[:len(b)/2])
		return n, errDiskFull
	}
	return f.file.Write(b)
}

func (f *faultyFile) Sync() error {
	if f.failSync {
		return errDiskFull
	}
	return f.file.Sync()
}

func (f *faultyFile) Truncate(n int64) error {
	if f.failTruncate {
		return errDiskFull
	}
	return f.file.Truncate(n)
}

func TestRecordAfterFailedWrite(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  func(f *faultyFile, on bool)
	}{
		{"write", func(f *faultyFile, on bool) { f.failWrite = on }},
		{"write and truncate", func(f *faultyFile, on bool) { f.failWrite, f.failTruncate = on, on }},
		{"sync", func(f *faultyFile, on bool) { f.failSync = on }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, dir, _ := openLog(t)
			var ff *faultyFile
			l.openFile = func(name string, flag int, perm os.FileMode) (file, error) {
				f, err := openOSFile(name, flag, perm)
				if err != nil {
					return nil, err
				}
				ff = &faultyFile{file: f}
				return ff, nil
			}
			record(t, l, 2)
			tc.set(ff, true)
			if err := l.Record(call(2)); !errors.Is(err, errDiskFull) {
				t.Fatalf("Record on a full disk: %v", err)
			}
			tc.set(ff, false)
			record(t, l, 2)
			mustVerify(t, dir, 4)
			lines := readLines(t, filepath.Join(dir, "2026-11-24.jsonl"))
			if len(lines) != 4 {
				t.Errorf("%d lines after the failure, want 4", len(lines))
			}
		})
	}
}

// tamper returns the audit dir of a log with records spread over two
// days (3 on the first, 3 on the second), for a test to damage.
func tamper(t *testing.T) string {
	t.Helper()
	l, dir, clk := openLog(t)
	record(t, l, 3)
	clk.set(day0.Add(24 * time.Hour))
	record(t, l, 3)
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	mustVerify(t, dir, 6)
	return dir
}

const (
	file1 = "2026-11-24.jsonl"
	file2 = "2026-11-25.jsonl"
)

func TestVerifyDetects(t *testing.T) {
	for _, tc := range []struct {
		name   string
		damage func(t *testing.T, dir string)
		want   BrokenError // Reason: a substring
	}{
		{"one byte of a middle record", func(t *testing.T, dir string) {
			p := filepath.Join(dir, file1)
			lines := readLines(t, p)
			lines[1] = strings.Replace(lines[1], "uptime 1", "uptime 7", 1)
			writeLines(t, p, lines)
		}, BrokenError{File: file1, Line: 2, Seq: 2, Reason: "this record was changed"}},
		{"a middle record changed and its hash recomputed", func(t *testing.T, dir string) {
			p := filepath.Join(dir, file1)
			lines := readLines(t, p)
			lines[1] = reseal(strings.Replace(lines[1], "uptime 1", "uptime 7", 1))
			writeLines(t, p, lines)
		}, BrokenError{File: file1, Line: 3, Seq: 3, Reason: "hash of record 2 (2026-11-24.jsonl:2)"}},
		{"one byte of the last record", func(t *testing.T, dir string) {
			p := filepath.Join(dir, file2)
			lines := readLines(t, p)
			lines[2] = strings.Replace(lines[2], `"alice"`, `"alicf"`, 1)
			writeLines(t, p, lines)
		}, BrokenError{File: file2, Line: 3, Seq: 6, Reason: "this record was changed"}},
		{"the last record changed and its hash recomputed", func(t *testing.T, dir string) {
			p := filepath.Join(dir, file2)
			lines := readLines(t, p)
			lines[2] = reseal(strings.Replace(lines[2], `"alice"`, `"alicf"`, 1))
			writeLines(t, p, lines)
		}, BrokenError{File: file2, Line: 3, Seq: 6, Reason: "differs from HEAD"}},
		{"a middle record deleted", func(t *testing.T, dir string) {
			p := filepath.Join(dir, file1)
			lines := readLines(t, p)
			writeLines(t, p, append(lines[:1:1], lines[2:]...))
		}, BrokenError{File: file1, Line: 2, Seq: 3, Reason: "record 2 is missing (deleted)"}},
		{"the last record deleted", func(t *testing.T, dir string) {
			p := filepath.Join(dir, file2)
			writeLines(t, p, readLines(t, p)[:2])
		}, BrokenError{File: file2, Line: 3, Seq: 6, Reason: "ends at record 5 but HEAD names record 6"}},
		{"a whole middle file deleted", func(t *testing.T, dir string) {
			// Three days; the middle one goes.
			l, err := Open(dir, Options{Now: func() time.Time { return day0.Add(48 * time.Hour) }})
			if err != nil {
				t.Fatal(err)
			}
			record(t, l, 1)
			l.Close()
			os.Remove(filepath.Join(dir, file2))
		}, BrokenError{File: "2026-11-26.jsonl", Line: 1, Seq: 7, Reason: "records 4 to 6 are missing"}},
		{"the first file deleted", func(t *testing.T, dir string) {
			os.Remove(filepath.Join(dir, file1))
		}, BrokenError{File: file2, Line: 1, Seq: 4, Reason: "records 1 to 3 are missing"}},
		{"two records swapped", func(t *testing.T, dir string) {
			p := filepath.Join(dir, file1)
			lines := readLines(t, p)
			lines[0], lines[1] = lines[1], lines[0]
			writeLines(t, p, lines)
		}, BrokenError{File: file1, Line: 1, Seq: 2, Reason: "seq is 2, expected 1"}},
		{"a record duplicated", func(t *testing.T, dir string) {
			p := filepath.Join(dir, file1)
			lines := readLines(t, p)
			writeLines(t, p, append(lines[:2:2], lines[1:]...))
		}, BrokenError{File: file1, Line: 3, Seq: 2, Reason: "seq is 2, expected 3"}},
		{"a line that is not JSON", func(t *testing.T, dir string) {
			p := filepath.Join(dir, file1)
			lines := readLines(t, p)
			lines[1] = "garbage"
			writeLines(t, p, lines)
		}, BrokenError{File: file1, Line: 2, Seq: 2, Reason: "not a JSON record"}},
		{"an empty line", func(t *testing.T, dir string) {
			p := filepath.Join(dir, file1)
			lines := readLines(t, p)
			writeLines(t, p, append(lines[:1:1], append([]string{""}, lines[1:]...)...))
		}, BrokenError{File: file1, Line: 2, Seq: 2, Reason: "not a JSON record"}},
		{"an overlong line", func(t *testing.T, dir string) {
			p := filepath.Join(dir, file1)
			lines := readLines(t, p)
			lines[1] = strings.Repeat("x", 3*MaxLine)
			writeLines(t, p, lines)
		}, BrokenError{File: file1, Line: 2, Seq: 2, Reason: "line longer than"}},
		{"a torn last line", func(t *testing.T, dir string) {
			f, err := os.OpenFile(filepath.Join(dir, file2), os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString(`{"seq":7,"ti`)
			f.Close()
		}, BrokenError{File: file2, Line: 4, Seq: 7, Reason: "incomplete last line"}},
		{"a torn line in an earlier file", func(t *testing.T, dir string) {
			p := filepath.Join(dir, file1)
			lines := readLines(t, p)
			if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")), 0o600); err != nil {
				t.Fatal(err)
			}
		}, BrokenError{File: file1, Line: 3, Seq: 3, Reason: "not the last"}},
		{"a forged first record", func(t *testing.T, dir string) {
			p := filepath.Join(dir, file1)
			lines := readLines(t, p)
			lines[0] = reseal(strings.Replace(lines[0], zeroHash, strings.Repeat("1", 64), 1))
			writeLines(t, p, lines)
		}, BrokenError{File: file1, Line: 1, Seq: 1, Reason: "not 64 zeros"}},
		{"the prev of a middle record changed", func(t *testing.T, dir string) {
			p := filepath.Join(dir, file1)
			lines := readLines(t, p)
			lines[1] = strings.Replace(lines[1], `"prev":"`, `"prev":"0`, 1)
			writeLines(t, p, lines)
		}, BrokenError{File: file1, Line: 2, Seq: 2, Reason: "this record was changed"}},
		{"all records deleted, HEAD kept", func(t *testing.T, dir string) {
			os.Remove(filepath.Join(dir, file1))
			os.Remove(filepath.Join(dir, file2))
		}, BrokenError{File: headName, Line: 1, Seq: 1, Reason: "ends at record 0 but HEAD names record 6"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := tamper(t)
			tc.damage(t, dir)
			_, err := Verify(dir)
			var be *BrokenError
			if !errors.As(err, &be) {
				t.Fatalf("Verify: %v, want a BrokenError", err)
			}
			if be.File != tc.want.File || be.Line != tc.want.Line || be.Seq != tc.want.Seq || !strings.Contains(be.Reason, tc.want.Reason) {
				t.Errorf("Verify: %v\nwant %s:%d (record %d): …%s…", be, tc.want.File, tc.want.Line, tc.want.Seq, tc.want.Reason)
			}
		})
	}
}

func TestVerifyHead(t *testing.T) {
	t.Run("behind the log", func(t *testing.T) {
		l, dir, _ := openLog(t)
		record(t, l, 2)
		old, err := os.ReadFile(filepath.Join(dir, headName))
		if err != nil {
			t.Fatal(err)
		}
		record(t, l, 1)
		l.Close()
		// A crash between the record and HEAD's rewrite.
		if err := os.WriteFile(filepath.Join(dir, headName), old, 0o600); err != nil {
			t.Fatal(err)
		}
		mustVerify(t, dir, 3)
		l2, err := Open(dir, Options{})
		if err != nil {
			t.Fatalf("Open with HEAD one behind: %v", err)
		}
		l2.Close()
	})
	t.Run("malformed", func(t *testing.T) {
		for _, body := range []string{"", "{", `{"seq":1,"hash":"xyz"}`, strings.Repeat(" ", 2*maxHead)} {
			dir := tamper(t)
			if err := os.WriteFile(filepath.Join(dir, headName), []byte(body), 0o600); err != nil {
				t.Fatal(err)
			}
			var be *BrokenError
			if _, err := Verify(dir); !errors.As(err, &be) || be.File != headName {
				t.Errorf("HEAD %.20q: Verify: %v", body, err)
			}
			if _, err := Open(dir, Options{}); !errors.As(err, &be) {
				t.Errorf("HEAD %.20q: Open: %v", body, err)
			}
		}
	})
	t.Run("missing", func(t *testing.T) {
		dir := tamper(t)
		os.Remove(filepath.Join(dir, headName))
		mustVerify(t, dir, 6)
	})
}

func TestOpenRepairsTornLine(t *testing.T) {
	for _, torn := range []string{`{"seq":7,"time":"2026`, "x"} {
		dir := tamper(t)
		p := filepath.Join(dir, file2)
		f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(torn)
		f.Close()
		l, err := Open(dir, Options{Now: func() time.Time { return day0.Add(24 * time.Hour) }})
		if err != nil {
			t.Fatal(err)
		}
		record(t, l, 1)
		l.Close()
		mustVerify(t, dir, 8)
		lines := readLines(t, p)
		var rec recoveredLine
		if err := json.Unmarshal([]byte(lines[3]), &rec); err != nil {
			t.Fatal(err)
		}
		if rec.Seq != 7 || rec.Event != EventRecovered || rec.TruncatedBytes != int64(len(torn)) || rec.Prev != sealedHash([]byte(lines[2])) {
			t.Errorf("repair record %s", lines[3])
		}
		if !strings.HasPrefix(lines[3], `{"seq":7,"time":"2026-11-25T10:00:00.123456789Z","event":"recovered","truncated_bytes":`) {
			t.Errorf("repair record fields: %s", lines[3])
		}
	}
}

func TestOpenRepairsTornFirstLineOfAFile(t *testing.T) {
	l, dir, _ := openLog(t)
	record(t, l, 2)
	l.Close()
	// The crash hit the first record of the next day's file.
	if err := os.WriteFile(filepath.Join(dir, file2), []byte(`{"seq":3`), 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := Open(dir, Options{Now: func() time.Time { return day0 }})
	if err != nil {
		t.Fatal(err)
	}
	record(t, l, 1)
	l.Close()
	mustVerify(t, dir, 4)
	if n := len(readLines(t, filepath.Join(dir, file2))); n != 2 {
		t.Errorf("%d records in the later file, want the repair and the next record", n)
	}
}

func TestOpenRefusesBrokenTail(t *testing.T) {
	for _, tc := range []struct {
		name   string
		damage func(t *testing.T, dir string)
	}{
		{"last record deleted", func(t *testing.T, dir string) {
			p := filepath.Join(dir, file2)
			writeLines(t, p, readLines(t, p)[:2])
		}},
		{"last record edited", func(t *testing.T, dir string) {
			p := filepath.Join(dir, file2)
			lines := readLines(t, p)
			lines[2] = strings.Replace(lines[2], "alice", "bob", 1)
			writeLines(t, p, lines)
		}},
		{"record before the last edited", func(t *testing.T, dir string) {
			p := filepath.Join(dir, file2)
			lines := readLines(t, p)
			lines[1] = strings.Replace(lines[1], "alice", "bob", 1)
			writeLines(t, p, lines)
		}},
		{"last file's first record unlinked", func(t *testing.T, dir string) {
			p := filepath.Join(dir, file1)
			lines := readLines(t, p)
			writeLines(t, p, lines[:2])
			os.Remove(filepath.Join(dir, headName))
			os.Remove(filepath.Join(dir, file2))
			writeLines(t, filepath.Join(dir, file2), []string{lines[2][:len(lines[2])-3] + `0"}`})
		}},
		{"last line overlong", func(t *testing.T, dir string) {
			p := filepath.Join(dir, file2)
			lines := readLines(t, p)
			writeLines(t, p, append(lines, strings.Repeat("x", 3*MaxLine)))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := tamper(t)
			tc.damage(t, dir)
			_, err := Open(dir, Options{})
			var be *BrokenError
			if !errors.As(err, &be) {
				t.Fatalf("Open: %v, want a BrokenError", err)
			}
		})
	}
}

func TestQuery(t *testing.T) {
	l, dir, clk := openLog(t)
	for i := range 6 {
		r := call(i)
		if i%2 == 1 {
			r.User, r.Tool = "bob", "read_file"
		}
		r.Time = day0.Add(time.Duration(i) * time.Hour)
		if err := l.Record(r); err != nil {
			t.Fatal(err)
		}
	}
	clk.set(day0.Add(24 * time.Hour))
	record(t, l, 2) // alice, next day
	ids := func(got []json.RawMessage) string {
		var s []string
		for _, g := range got {
			var c callLine
			if err := json.Unmarshal(g, &c); err != nil {
				t.Fatal(err)
			}
			s = append(s, fmt.Sprintf("%d", c.Seq))
		}
		return strings.Join(s, ",")
	}
	for _, tc := range []struct {
		since      time.Time
		user, tool string
		limit      int
		want       string
	}{
		{time.Time{}, "", "", 0, "1,2,3,4,5,6,7,8"},
		{time.Time{}, "", "", 3, "6,7,8"},
		{day0.Add(2 * time.Hour), "", "", 0, "3,4,5,6,7,8"},
		{day0.Add(2 * time.Hour), "bob", "", 0, "4,6"},
		{time.Time{}, "", "read_file", 2, "4,6"},
		{time.Time{}, "alice", "run_command", 10, "1,3,5,7,8"},
		{time.Time{}, "ALICE", "run_command", 10, "1,3,5,7,8"}, // user names are one whatever their case
		{day0.Add(24 * time.Hour), "", "", 0, "7,8"},
		{day0.Add(48 * time.Hour), "", "", 0, ""},
		{time.Time{}, "carol", "", 0, ""},
	} {
		got, err := l.Query(t.Context(), tc.since, tc.user, tc.tool, tc.limit)
		if err != nil {
			t.Fatal(err)
		}
		if ids(got) != tc.want {
			t.Errorf("Query(%v, %q, %q, %d) = %s, want %s", tc.since, tc.user, tc.tool, tc.limit, ids(got), tc.want)
		}
	}
	// Files before since's day are not read: a record planted there is
	// not found, though its time matches.
	planted := `{"seq":99,"time":"2026-11-26T00:00:00Z","user":"mallory","tool":"x","prev":""}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, "2026-11-01.jsonl"), []byte(planted), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := l.Query(t.Context(), day0, "mallory", "", 0); err != nil || len(got) != 0 {
		t.Errorf("Query read a file before since's day: %d records, %v", len(got), err)
	}
	if got, _ := l.Query(t.Context(), time.Time{}, "mallory", "", 0); len(got) != 1 {
		t.Errorf("Query from the beginning: %d mallory records, want 1", len(got))
	}
	// Lines Query cannot read are skipped.
	f, err := os.OpenFile(filepath.Join(dir, file2), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("garbage\n" + strings.Repeat("y", 2*MaxLine) + "\n{\"seq\":10,\"user\":\"alice\"")
	f.Close()
	got, err := l.Query(t.Context(), day0.Add(24*time.Hour), "", "", 0)
	if err != nil || ids(got) != "7,8" {
		t.Errorf("Query over damaged lines: %s, %v", ids(got), err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := l.Query(ctx, time.Time{}, "", "", 0); !errors.Is(err, context.Canceled) {
		t.Errorf("Query with a cancelled context: %v", err)
	}
}

func TestQueryLimitCap(t *testing.T) {
	l, _, _ := openLog(t)
	record(t, l, 3)
	got, err := l.Query(t.Context(), time.Time{}, "", "", MaxQueryLimit*10)
	if err != nil || len(got) != 3 {
		t.Fatalf("%d, %v", len(got), err)
	}
	if !bytes.HasPrefix(got[0], []byte(`{"seq":1,`)) {
		t.Errorf("first record %s", got[0])
	}
}

func TestQueryWhileRecording(t *testing.T) {
	l, _, _ := openLog(t)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 100 {
			if err := l.Record(call(i)); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	last := 0
	for running := true; running; {
		select {
		case <-done:
			running = false
		default:
		}
		got, err := l.Query(t.Context(), time.Time{}, "", "", MaxQueryLimit)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) < last {
			t.Fatalf("Query saw %d records after %d", len(got), last)
		}
		for i, g := range got {
			if !bytes.HasPrefix(g, []byte(fmt.Sprintf(`{"seq":%d,`, i+1))) {
				t.Fatalf("record %d: %.40s", i+1, g)
			}
		}
		last = len(got)
	}
	if got, _ := l.Query(t.Context(), time.Time{}, "", "", MaxQueryLimit); len(got) != 100 {
		t.Errorf("%d records at the end", len(got))
	}
}

func TestRecordKeptWhenHeadFails(t *testing.T) {
	l, dir, _ := openLog(t)
	record(t, l, 2)
	// HEAD's temporary file cannot be created: the record is kept, HEAD
	// stays behind (which Verify and Open accept), and Record says so,
	// so that tool calls pause.
	if err := os.Mkdir(filepath.Join(dir, headTemp), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := l.Record(call(2)); !errors.Is(err, ErrHeadNotWritten) || !strings.Contains(err.Error(), "record 3 kept") {
		t.Fatalf("Record with HEAD unwritable: %v, want ErrHeadNotWritten naming record 3", err)
	}
	h, _, err := readHead(dir)
	if err != nil || h.Seq != 2 {
		t.Fatalf("HEAD %+v, %v; want record 2", h, err)
	}
	mustVerify(t, dir, 3)
	if err := os.Remove(filepath.Join(dir, headTemp)); err != nil {
		t.Fatal(err)
	}
	record(t, l, 1)
	if h, _, _ := readHead(dir); h.Seq != 4 {
		t.Errorf("HEAD at record %d after it could be written again, want 4", h.Seq)
	}
	mustVerify(t, dir, 4)
}

func TestRecordFailsWhenLogRemoved(t *testing.T) {
	for _, tc := range []struct {
		name   string
		damage func(t *testing.T, dir string)
		want   string // in the error
	}{
		{"directory removed", func(t *testing.T, dir string) {
			if err := os.RemoveAll(dir); err != nil {
				t.Fatal(err)
			}
		}, "the directory"},
		{"directory removed and made again", func(t *testing.T, dir string) {
			if err := os.RemoveAll(dir); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(dir, 0o700); err != nil {
				t.Fatal(err)
			}
		}, "the directory"},
		{"file removed", func(t *testing.T, dir string) {
			if err := os.Remove(filepath.Join(dir, file1)); err != nil {
				t.Fatal(err)
			}
		}, file1},
		{"file replaced", func(t *testing.T, dir string) {
			p := filepath.Join(dir, file1)
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p+".new", b, 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(p+".new", p); err != nil {
				t.Fatal(err)
			}
		}, file1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, dir, _ := openLog(t)
			record(t, l, 2)
			tc.damage(t, dir)
			before := snapshot(t, dir)
			for i := range 3 {
				err := l.Record(call(2 + i))
				if !errors.Is(err, ErrRemoved) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "removed or replaced") {
					t.Fatalf("Record %d after the log was removed: %v, want ErrRemoved naming %s", i, err, tc.want)
				}
			}
			// Check says so before a call runs; Query does not answer
			// with an empty list.
			if err := l.Check(); !errors.Is(err, ErrRemoved) {
				t.Errorf("Check: %v, want ErrRemoved", err)
			}
			if _, err := l.Query(t.Context(), time.Time{}, "", "", 0); !errors.Is(err, ErrRemoved) {
				t.Errorf("Query: %v, want ErrRemoved", err)
			}
			// Nothing was written: no new chain, no HEAD.
			if after := snapshot(t, dir); !maps.Equal(before, after) {
				t.Errorf("Record wrote to the removed log's place: %v", slices.Collect(maps.Keys(after)))
			}
		})
	}
}

// reseal replaces a sealed line's hash with the hash of its content, as
// a forger who knows the format would.
func reseal(line string) string {
	body := line[:len(line)-sealLen] + "}"
	sealed, _ := seal([]byte(body + "\n"))
	return strings.TrimSuffix(string(sealed), "\n")
}

func TestOpenRefusesCutRecordWithoutTouchingIt(t *testing.T) {
	// A few bytes cut from the last record while HEAD still names it:
	// not a crash (the record was fsynced before HEAD), so Open refuses
	// and leaves the evidence as it found it.
	for _, cut := range []int{1, 5, 40} {
		dir := tamper(t)
		p := filepath.Join(dir, file2)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b[:len(b)-cut], 0o600); err != nil {
			t.Fatal(err)
		}
		before := snapshot(t, dir)
		const want = "2026-11-25.jsonl:3 (record 6): incomplete last line, but HEAD names record 6: a record written whole was cut short"
		if _, err := Verify(dir); !errors.As(err, new(*BrokenError)) || !strings.Contains(err.Error(), want) {
			t.Errorf("cut %d: Verify: %v", cut, err)
		}
		// The daemon's refusal says what verify says.
		_, err = Open(dir, Options{})
		var be *BrokenError
		if !errors.As(err, &be) || !strings.Contains(err.Error(), want) {
			t.Fatalf("cut %d: Open: %v, want %q", cut, err, want)
		}
		if after := snapshot(t, dir); !maps.Equal(before, after) {
			t.Errorf("cut %d: Open changed the log it refused", cut)
		}
	}
}

// snapshot returns every file's content in dir by name (none when dir
// does not exist).
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]string{}
	}
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		m[e.Name()] = string(b)
	}
	return m
}

func TestOpenReports(t *testing.T) {
	dir := tamper(t)
	h, _, err := readHead(dir)
	if err != nil {
		t.Fatal(err)
	}
	core, logs := observer.New(zapcore.InfoLevel)
	l, err := Open(dir, Options{Logger: zap.New(core)})
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	opened := logs.FilterMessage("audit log opened").All()
	if len(opened) != 1 {
		t.Fatalf("Open logged %v, want one \"audit log opened\"", logs.All())
	}
	f := opened[0].ContextMap()
	if f["dir"] != dir || f["last_seq"] != int64(6) || f["head_seq"] != int64(6) || f["head_hash"] != h.Hash || f["last_hash"] != h.Hash {
		t.Errorf("audit log opened %v, want dir, record 6 and HEAD's hash %s", f, h.Hash)
	}
	if n := logs.FilterLevelExact(zapcore.WarnLevel).Len(); n != 0 {
		t.Errorf("%d warnings for a sound log", n)
	}

	// Records without HEAD (a crash before the first HEAD, or HEAD
	// removed): opened, with a warning.
	if err := os.Remove(filepath.Join(dir, headName)); err != nil {
		t.Fatal(err)
	}
	core, logs = observer.New(zapcore.InfoLevel)
	l, err = Open(dir, Options{Logger: zap.New(core)})
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	warn := logs.FilterLevelExact(zapcore.WarnLevel).FilterMessageSnippet("no HEAD").All()
	if len(warn) != 1 || warn[0].ContextMap()["dir"] != dir || warn[0].ContextMap()["last_seq"] != int64(6) {
		t.Errorf("no HEAD warning: %v", logs.All())
	}
}
