package command

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"opsassist/internal/golden"
	"opsassist/tools"
	"opsassist/tools/pathguard"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// fixture is a root directory holding the workspace and a data directory:
//
//	root/workspace/config.yaml, root/workspace/.env
//	root/workspace/etc -> /etc
//	root/data/file.txt
type fixture struct {
	root, ws, data string
	e              *Executor
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{root: filepath.Join(tmp, "root")}
	f.ws = filepath.Join(f.root, "workspace")
	f.data = filepath.Join(f.root, "data")
	if err := os.MkdirAll(f.data, 0o755); err != nil {
		t.Fatal(err)
	}
	v, err := pathguard.New(pathguard.Config{Roots: []string{f.root}})
	if err != nil {
		t.Fatal(err)
	}
	f.e, err = New(Config{Workspace: f.ws, Paths: v})
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(f.ws, "config.yaml"), "port: 8080\nhost: localhost\n")
	write(t, filepath.Join(f.ws, ".env"), "OPENAI_API_KEY=sk-x\n")
	write(t, filepath.Join(f.data, "file.txt"), "hello from data\n")
	if err := os.Symlink("/etc", filepath.Join(f.ws, "etc")); err != nil {
		t.Fatal(err)
	}
	return f
}

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// run calls the tool with the given arguments object.
func (f *fixture) run(t *testing.T, ctx context.Context, cmd string, args []string, timeout int) (Output, error) {
	t.Helper()
	raw, err := json.Marshal(map[string]any{"command": cmd, "args": args, "timeout": timeout})
	if err != nil {
		t.Fatal(err)
	}
	v, err := f.e.Run(ctx, &tools.Call{}, raw)
	if v == nil {
		return Output{}, err
	}
	out, ok := v.(Output)
	if !ok {
		t.Fatalf("Run returned %T, want Output", v)
	}
	return out, err
}

func TestLsWorkspace(t *testing.T) {
	f := newFixture(t)
	out, err := f.run(t, t.Context(), "ls", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if out.Command != "ls" || out.ExitCode != 0 || !strings.Contains(out.Stdout, "config.yaml") || out.Stderr != "" {
		t.Fatalf("got %+v", out)
	}
	out, err = f.run(t, t.Context(), "ls", []string{"-la", f.data}, 0)
	if err != nil || !strings.Contains(out.Stdout, "file.txt") || out.Command != "ls -la "+f.data {
		t.Fatalf("ls -la data: %+v, %v", out, err)
	}
}

func TestCatAllowedFile(t *testing.T) {
	f := newFixture(t)
	for _, p := range []string{filepath.Join(f.data, "file.txt"), "../data/file.txt", "./../data/./file.txt"} {
		out, err := f.run(t, t.Context(), "cat", []string{p}, 0)
		if err != nil || out.Stdout != "hello from data\n" {
			t.Errorf("cat %s: %+v, %v", p, out, err)
		}
	}
}

func TestGrepPatternIsNotAPath(t *testing.T) {
	f := newFixture(t)
	out, err := f.run(t, t.Context(), "grep", []string{"-n", "port", "config.yaml"}, 0)
	if err != nil || out.Stdout != "1:port: 8080\n" {
		t.Fatalf("grep -n port config.yaml: %+v, %v", out, err)
	}
	// Patterns that look like paths are patterns all the same.
	for _, args := range [][]string{{"/etc/passwd", "config.yaml"}, {"-e", "/etc/passwd", "config.yaml"}, {"--regexp=../x", "config.yaml"}} {
		out, err := f.run(t, t.Context(), "grep", args, 0)
		var ee *ExitError
		if !errors.As(err, &ee) || out.ExitCode != 1 {
			t.Errorf("grep %q: %+v, %v; want no match (exit 1)", args, out, err)
		}
	}
}

func TestRefusedPaths(t *testing.T) {
	f := newFixture(t)
	tests := []struct {
		cmd  string
		args []string
		want error
	}{
		{"cat", []string{"/etc/shadow"}, pathguard.ErrOutsideRoots},
		{"cat", []string{"../../etc/passwd"}, pathguard.ErrOutsideRoots},
		{"cat", []string{"../../../../../../../../etc/passwd"}, pathguard.ErrOutsideRoots},
		{"cat", []string{"etc/passwd"}, pathguard.ErrOutsideRoots},
		{"cat", []string{"config.yaml", "/etc/hostname"}, pathguard.ErrOutsideRoots},
		{"cat", []string{"--", "/etc/hostname"}, pathguard.ErrOutsideRoots},
		{"cat", []string{".env"}, pathguard.ErrForbidden},
		{"cat", []string{"id_rsa"}, pathguard.ErrForbidden},
		{"head", []string{"-n", "1", "/etc/passwd"}, pathguard.ErrOutsideRoots},
		{"tail", []string{"-n1", "~/../../../etc/passwd"}, pathguard.ErrOutsideRoots},
		{"ls", []string{"/"}, pathguard.ErrOutsideRoots},
		{"ls", []string{"-la", ".."}, nil},
		{"ls", []string{"../.."}, pathguard.ErrOutsideRoots},
		{"df", []string{"/etc"}, pathguard.ErrOutsideRoots},
		{"grep", []string{"port", "/etc/passwd"}, pathguard.ErrOutsideRoots},
		{"grep", []string{"-f", "/etc/passwd", "config.yaml"}, pathguard.ErrOutsideRoots},
		{"grep", []string{"-f/etc/passwd", "config.yaml"}, pathguard.ErrOutsideRoots},
		{"grep", []string{"-nf", "/etc/passwd", "config.yaml"}, pathguard.ErrOutsideRoots},
		{"grep", []string{"--file=/etc/passwd", "config.yaml"}, pathguard.ErrOutsideRoots},
		{"grep", []string{"--fil", "/etc/passwd", "config.yaml"}, pathguard.ErrOutsideRoots},
		{"grep", []string{"--exclude-from=../../etc/shadow", "x", "config.yaml"}, pathguard.ErrOutsideRoots},
		{"grep", []string{"-e", "x", "/etc/passwd"}, pathguard.ErrOutsideRoots},
		{"pwd", []string{"--weird=/etc/passwd"}, pathguard.ErrOutsideRoots},
		{"whoami", []string{"/etc/passwd"}, pathguard.ErrOutsideRoots},
	}
	for _, tt := range tests {
		_, err := f.run(t, t.Context(), tt.cmd, tt.args, 0)
		if tt.want == nil {
			if err != nil {
				t.Errorf("%s %q: %v", tt.cmd, tt.args, err)
			}
			continue
		}
		if !errors.Is(err, tt.want) {
			t.Errorf("%s %q: error %v, want %v", tt.cmd, tt.args, err, tt.want)
		}
	}
}

func TestUnsafeArguments(t *testing.T) {
	f := newFixture(t)
	for _, a := range []string{"a;ls", "a&", "a|b", ">x", "<x", "`id`", "$HOME", "$(id)", "(x)", "a\nb", "a\rb", "a\x00b"} {
		_, err := f.run(t, t.Context(), "ls", []string{a}, 0)
		if !errors.Is(err, ErrUnsafeArgument) {
			t.Errorf("ls %q: %v, want ErrUnsafeArgument", a, err)
		}
	}
}

func TestNotWhitelisted(t *testing.T) {
	f := newFixture(t)
	for _, c := range []string{"rm", "sh", "bash", "env", "/bin/ls", "./ls", "ls ", "LS", ""} {
		_, err := f.run(t, t.Context(), c, nil, 0)
		if !errors.Is(err, ErrNotAllowed) {
			t.Errorf("%q: %v, want ErrNotAllowed", c, err)
		}
	}
	if _, err := NewTiers([]string{"/bin/ls"}); err == nil {
		t.Error("NewTiers accepted a whitelist entry with a slash")
	}
}

func TestDeniedOptions(t *testing.T) {
	f := newFixture(t)
	for _, tt := range []struct {
		cmd  string
		args []string
	}{
		{"tail", []string{"-f", "config.yaml"}},
		{"tail", []string{"-nf", "config.yaml"}}, // -n takes "f", an invalid count: refused all the same
		{"tail", []string{"-qf", "config.yaml"}},
		{"tail", []string{"-F", "config.yaml"}},
		{"tail", []string{"--follow", "config.yaml"}},
		{"tail", []string{"--fol=name", "config.yaml"}},
		{"tail", []string{"config.yaml", "-f"}},
		{"grep", []string{"-r", "port", "."}},
		{"grep", []string{"-rn", "port", "."}},
		{"grep", []string{"-R", "port", "."}},
		{"grep", []string{"--recursive", "port", "."}},
		{"grep", []string{"--rec", "port", "."}},
		{"grep", []string{"--dereference-recursive", "port", "."}},
		{"grep", []string{"-d", "recurse", "port", "."}},
		{"grep", []string{"--directories=recurse", "port", "."}},
		{"ls", []string{"-L"}},
		{"ls", []string{"-lRL"}},
		{"ls", []string{"--dereference"}},
		{"ps", []string{"e"}},
		{"ps", []string{"auxe"}},
		{"ps", []string{"aux", "eww"}},
	} {
		_, err := f.run(t, t.Context(), tt.cmd, tt.args, 0)
		if !errors.Is(err, ErrOptionDenied) {
			t.Errorf("%s %q: %v, want ErrOptionDenied", tt.cmd, tt.args, err)
		}
	}
	// "ps aux" and "ps -ef" show full command lines: they run once
	// approved (TestPSFullArgsApproved, TestPSEfRuns).
	for _, args := range [][]string{{"auxc"}, {"-e"}, {"-e", "-o", "pid,user,comm"}, {"axo", "pid,user"}, {"--sort", "-pcpu", "-e"}} {
		out, err := f.run(t, t.Context(), "ps", args, 0)
		if err != nil || !strings.Contains(out.Stdout, "PID") {
			t.Errorf("ps %q: %+v, %v", args, out, err)
		}
	}
}

func TestNonZeroExit(t *testing.T) {
	f := newFixture(t)
	out, err := f.run(t, t.Context(), "cat", []string{"../data"}, 0)
	var ee *ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("error %v, want *ExitError", err)
	}
	if out.ExitCode != 1 || ee.Output != out {
		t.Errorf("output %+v, error output %+v", out, ee.Output)
	}
	if want := "exit status 1: cat: ../data: Is a directory"; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
}

// TestTimeoutKillsGroup runs cat on a file and then on a FIFO nobody
// writes: cat prints the file and blocks opening the FIFO until the
// timeout kills its process group.
func TestTimeoutKillsGroup(t *testing.T) {
	f := newFixture(t)
	fifo := filepath.Join(f.data, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	var pid atomic.Int64
	f.e.onStart = func(p int) { pid.Store(int64(p)) }
	start := time.Now()
	out, err := f.run(t, t.Context(), "cat", []string{"../data/file.txt", fifo}, 1)
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %v", d)
	}
	var ee *ExitError
	if !errors.As(err, &ee) || !errors.Is(err, ErrTimeout) || err.Error() != "timed out after 1s" || ee.Timeout != time.Second {
		t.Fatalf("error %v, want a 1s timeout", err)
	}
	if out.ExitCode != -1 || out.Stdout != "hello from data\n" {
		t.Errorf("output %+v, want partial stdout and exit code -1", out)
	}
	if err := syscall.Kill(-int(pid.Load()), 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("process group %d still exists: %v", pid.Load(), err)
	}
}

func TestCancelKills(t *testing.T) {
	f := newFixture(t)
	fifo := filepath.Join(f.data, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	f.e.onStart = func(int) { cancel() }
	_, err := f.run(t, ctx, "cat", []string{fifo}, 60)
	var ee *ExitError
	if !errors.As(err, &ee) || !errors.Is(err, context.Canceled) || errors.Is(err, ErrTimeout) {
		t.Fatalf("error %v, want cancellation", err)
	}
}

func TestOutputCapped(t *testing.T) {
	f := newFixture(t)
	big := strings.Repeat("0123456789abcdef", 3<<20/16)
	write(t, filepath.Join(f.data, "big.txt"), big)
	out, err := f.run(t, t.Context(), "cat", []string{"../data/big.txt"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := big[:DefaultMaxOutput] + "\n…[truncated 2097152 bytes]"
	if out.Stdout != want {
		t.Fatalf("stdout is %d bytes ending %q", len(out.Stdout), out.Stdout[max(0, len(out.Stdout)-40):])
	}
}

func TestChildEnv(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-secret")
	t.Setenv("PATH", "/tmp/evil:"+os.Getenv("PATH"))
	f := newFixture(t)
	want := []string{"PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C.UTF-8", "LC_ALL=C.UTF-8", "HOME=" + f.ws}
	var killed atomic.Bool
	cmd := f.e.newCmd(t.Context(), "/usr/bin/ls", []string{"ls"}, &killed)
	for name, env := range map[string][]string{"childEnv": childEnv(f.ws), "Cmd.Env": cmd.Env} {
		if strings.Join(env, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s = %q, want %q", name, env, want)
		}
		for _, kv := range env {
			if strings.Contains(kv, "OPENAI") || strings.Contains(kv, "sk-secret") || strings.Contains(kv, "evil") {
				t.Errorf("%s leaks %q", name, kv)
			}
		}
	}
	if cmd.Dir != f.ws || cmd.SysProcAttr == nil || !cmd.SysProcAttr.Setpgid {
		t.Errorf("Cmd dir %q, SysProcAttr %+v", cmd.Dir, cmd.SysProcAttr)
	}
	// The executable is found in the safe PATH, not the server's.
	if p, err := lookPath("ls"); err != nil || !strings.HasPrefix(p, "/usr/") && !strings.HasPrefix(p, "/bin/") {
		t.Errorf("lookPath(ls) = %q, %v", p, err)
	}
}

func TestOutputJSON(t *testing.T) {
	b, err := json.Marshal(Output{Command: "ls -la /x", Stdout: "a"})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"command":"ls -la /x","exit_code":0,"stdout":"a","stderr":""}`; string(b) != want {
		t.Errorf("got %s, want %s", b, want)
	}
	if got := commandLine([]string{"grep", "a b", ""}); got != `grep "a b" ""` {
		t.Errorf("commandLine = %s", got)
	}
}

func TestNewDefaults(t *testing.T) {
	t.Chdir(t.TempDir())
	v, err := pathguard.New(pathguard.Config{Roots: []string{"."}})
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(Config{Paths: v})
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat("workspace"); err != nil || !fi.IsDir() {
		t.Fatalf("workspace not created: %v", err)
	}
	if e.cfg.MaxOutput != 1<<20 || e.cfg.DefaultTimeout != 30*time.Second || e.cfg.MaxTimeout != 120*time.Second || len(e.cfg.Commands.Names()) != 10 {
		t.Errorf("defaults: %+v", e.cfg)
	}
	if e.timeout(0) != 30*time.Second || e.timeout(500) != 120*time.Second || e.timeout(5) != 5*time.Second {
		t.Error("timeout clamping")
	}
	if _, err := New(Config{}); err == nil {
		t.Error("New without Paths succeeded")
	}
}

func TestSpecGolden(t *testing.T) {
	f := newFixture(t)
	spec := f.e.Spec()
	var params any
	if err := json.Unmarshal(spec.Parameters, &params); err != nil {
		t.Fatalf("schema is not JSON: %v", err)
	}
	got, err := json.MarshalIndent(map[string]any{
		"name": spec.Name, "description": spec.Description, "parameters": params,
		"risk": spec.Risk, "timeout": spec.Timeout.String(),
	}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "spec.golden"), string(got)+"\n", *update)
}

// TestThroughRegistry registers the tool and checks that a failed command
// reaches the model with both its output and its error.
func TestThroughRegistry(t *testing.T) {
	f := newFixture(t)
	r := tools.NewRegistry(tools.Config{})
	if err := r.Register(f.e); err != nil {
		t.Fatal(err)
	}
	res := r.Execute(t.Context(), &tools.Call{}, "command_executor", `{"command":"cat","args":["../data"]}`).Result
	var out Output
	if err := json.Unmarshal(res.Output, &out); err != nil || res.Success || out.ExitCode != 1 ||
		!strings.HasPrefix(res.Error, "exit status 1: cat: ../data: Is a directory") {
		t.Errorf("result %+v (output %s)", res, res.Output)
	}
	for _, args := range []string{`{"command":"ls","extra":1}`, `{"command":"ls","timeout":0}`, `{"command":"ls","timeout":121}`, `{"args":["-l"]}`} {
		if res := r.Execute(t.Context(), &tools.Call{}, "command_executor", args).Result; res.Success || !strings.Contains(res.Error, "invalid arguments") {
			t.Errorf("%s: %+v", args, res)
		}
	}
	res = r.Execute(t.Context(), &tools.Call{}, "command_executor", `{"command":"ls","args":["-la"],"timeout":5}`).Result
	if !res.Success || !strings.Contains(string(res.Output), `"command":"ls -la"`) {
		t.Errorf("ls -la: %+v", res)
	}
}

// TestConcurrencyIsBounded: with every slot taken, a call waits and gives
// up when its context ends, naming the limit.
func TestConcurrencyIsBounded(t *testing.T) {
	f := newFixture(t)
	for range cap(f.e.slots) {
		f.e.slots <- struct{}{}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := f.e.Run(ctx, &tools.Call{}, json.RawMessage(`{"command":"pwd"}`)); err == nil || !strings.Contains(err.Error(), "4 commands already running") {
		t.Fatalf("err %v", err)
	}
	<-f.e.slots
	if _, err := f.e.Run(context.Background(), &tools.Call{}, json.RawMessage(`{"command":"pwd"}`)); err != nil {
		t.Fatal(err)
	}
}

// TestArgsFieldIsBounded: a refused command with hostile arguments logs
// a line of bounded size, not the whole message.
func TestArgsFieldIsBounded(t *testing.T) {
	args := append([]string{strings.Repeat("长", 20000)}, strings.Split(strings.Repeat("-la ", 5000), " ")...)
	f := argsField(args)
	b, err := json.Marshal(f.Interface)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > 4096 || !strings.Contains(string(b), "more") || !strings.Contains(string(b), "bytes)") {
		t.Fatalf("%d bytes logged: %.300s", len(b), b)
	}
	if b, _ := json.Marshal(argsField([]string{"-la", "docs"}).Interface); string(b) != `["-la","docs"]` {
		t.Fatalf("short arguments changed: %s", b)
	}
}

// TestLogsHoldNoSecrets: the daemon's log of a refused and of a failed
// command redacts secrets in the arguments and in the error (stderr
// quoting them), as the audit log does.
func TestLogsHoldNoSecrets(t *testing.T) {
	f := newFixture(t)
	core, logs := observer.New(zapcore.DebugLevel)
	f.e.log = zap.New(core)
	const secret = "hunter2xyz"
	for _, args := range []string{
		`{"command":"grep --password=` + secret + ` x config.yaml"}`, // runs, fails: grep quotes the option
		`{"command":"rm --password=` + secret + `"}`,                 // refused
		`{"command":"ls ghp_1234567890abcdefghijklmnopqrstuvwxyz12"}`,
	} {
		f.e.Run(context.Background(), &tools.Call{}, json.RawMessage(args))
	}
	if logs.Len() == 0 {
		t.Fatal("nothing logged")
	}
	for _, e := range logs.All() {
		b, _ := json.Marshal(e.ContextMap())
		if strings.Contains(string(b), secret) || strings.Contains(string(b), "ghp_1234567890") {
			t.Errorf("%s logged a secret: %s", e.Message, b)
		}
	}
}
