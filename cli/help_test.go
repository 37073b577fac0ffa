package cli

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// TestGlobalHelp: --help, -h and help print the same text on stdout,
// exit 0: every command with its line and the REPL's slash commands.
func TestGlobalHelp(t *testing.T) {
	var first string
	for _, args := range [][]string{{"--help"}, {"-h"}, {"help"}, {"repl", "--help"}} {
		code, stdout, stderr := runCLI(t, "127.0.0.1:1", "", args...)
		if code != ExitOK || stderr != "" {
			t.Fatalf("%q: exit %d, stderr %q", args, code, stderr)
		}
		if first == "" {
			first = stdout
		} else if stdout != first {
			t.Errorf("%q: help differs from --help", args)
		}
	}
	for _, cd := range commands() {
		if !strings.Contains(first, "\n  "+cd.name+" ") {
			t.Errorf("global help does not list %s", cd.name)
		}
	}
	for _, slash := range []string{"/upload", "/switch", "/model", "/quit"} {
		if !strings.Contains(first, slash) {
			t.Errorf("global help does not list %s", slash)
		}
	}
	golden(t, "help", []byte(first))
}

// TestCommandHelp: "CMD --help", "CMD -h" and "help CMD" print CMD's
// own help — usage, flags, examples — on stdout and exit 0.
func TestCommandHelp(t *testing.T) {
	for _, cd := range commands() {
		t.Run(cd.name, func(t *testing.T) {
			code, want, stderr := runCLI(t, "127.0.0.1:1", "", "help", cd.name)
			if code != ExitOK || stderr != "" {
				t.Fatalf("help %s: exit %d, stderr %q", cd.name, code, stderr)
			}
			if !strings.HasPrefix(want, "usage: opsassist") || !strings.Contains(want, "\nexamples:\n  ") {
				t.Errorf("help %s: no usage or examples:\n%s", cd.name, want)
			}
			golden(t, "help_"+cd.name, []byte(want))
			var forms [][]string
			switch cd.name {
			case "help", "version", "repl":
				// help --help is the global help; version takes no flags.
			case "audit":
				forms = [][]string{{"audit", "--help"}, {"audit", "verify", "--help"}, {"audit", "verify", "-h"}}
			default:
				forms = [][]string{{cd.name, "--help"}, {cd.name, "-h"}}
			}
			for _, args := range forms {
				code, got, stderr := runCLI(t, "127.0.0.1:1", "", args...)
				if code != ExitOK || stderr != "" || got != want {
					t.Errorf("%q: exit %d, stderr %q, stdout differs from help %s:\n%s", args, code, stderr, cd.name, got)
				}
			}
		})
	}
}

// TestUsageErrorsOnStderr: a wrong command line prints the problem and
// the command's usage on stderr, nothing on stdout, and exits 2.
func TestUsageErrorsOnStderr(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"ask"}, `run "opsassist ask --help"`},
		{[]string{"ask", "--nope", "hi"}, "usage: opsassist [flags] ask"},
		{[]string{"upload", "--bogus"}, "usage: opsassist [flags] upload"},
		{[]string{"download", "tok"}, "download needs a TOKEN and -o PATH"},
		{[]string{"frobnicate"}, `unknown command "frobnicate"; the commands are: ask, upload`},
		{[]string{"help", "frobnicate"}, `no help for "frobnicate"`},
		{[]string{"completion"}, "completion needs one shell"},
		{[]string{"completion", "tcsh"}, `no completion for shell "tcsh"`},
	} {
		code, stdout, stderr := runCLI(t, "127.0.0.1:1", "", tc.args...)
		if code != ExitUsage || stdout != "" || !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", tc.args, code, stdout, stderr)
		}
	}
}

func TestVersion(t *testing.T) {
	line := regexp.MustCompile(`^opsassist \d+\.\d+\.\d+ \(commit \S+, (go\S+|unknown)\)\n$`)
	for _, args := range [][]string{{"--version"}, {"version"}, {"--server", "x", "--version"}} {
		code, stdout, stderr := runCLI(t, "127.0.0.1:1", "", args...)
		if code != ExitOK || stderr != "" || !line.MatchString(stdout) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, stdout, stderr)
		}
	}
}

// TestCompletion: each script is golden, names every command and every
// command's flags, and (where the shell is installed) parses.
func TestCompletion(t *testing.T) {
	for _, sh := range []string{"bash", "zsh", "fish"} {
		t.Run(sh, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, "127.0.0.1:1", "", "completion", sh)
			if code != ExitOK || stderr != "" {
				t.Fatalf("exit %d, stderr %q", code, stderr)
			}
			for _, cd := range commands() {
				if !strings.Contains(stdout, cd.name) {
					t.Errorf("no command %s", cd.name)
				}
				for _, f := range cd.flags {
					if !strings.Contains(stdout, f.name) {
						t.Errorf("no flag %s of %s", f.name, cd.name)
					}
				}
			}
			golden(t, "completion_"+sh, []byte(stdout))
			shell, err := exec.LookPath(sh)
			if err != nil {
				t.Logf("%s not installed: syntax not checked", sh)
				return
			}
			check := exec.Command(shell, "-n")
			if sh == "fish" {
				check = exec.Command(shell, "--no-execute")
			}
			check.Stdin = strings.NewReader(stdout)
			if out, err := check.CombinedOutput(); err != nil {
				t.Errorf("%s -n: %v\n%s", sh, err, out)
			}
		})
	}
}

// TestUsageErrorsInChinese: in a zh locale a usage error speaks Chinese.
func TestUsageErrorsInChinese(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		args []string
		want string
	}{
		{map[string]string{"LANG": "zh_CN.UTF-8"}, []string{"ask"}, "ask 需要一个问题"},
		{map[string]string{"LC_ALL": "zh_TW.UTF-8", "LANG": "en_US.UTF-8"}, []string{"frobnicate"}, `没有命令 "frobnicate"`},
		{map[string]string{"LC_ALL": "C", "LANG": "zh_CN.UTF-8"}, []string{"frobnicate"}, `unknown command "frobnicate"`},
		{map[string]string{"LANG": "zh_CN.UTF-8"}, []string{"upload", "--bogus"}, `运行 "opsassist upload --help" 查看参数和示例`},
	} {
		code, stdout, stderr := runCLIEnv(t, tc.env, "", tc.args...)
		if code != ExitUsage || stdout != "" || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v %q: exit %d, stderr %q", tc.env, tc.args, code, stderr)
		}
	}
}

// TestHelpChinese: in a Chinese locale the global help and each
// command's help come with Chinese headings, summaries, descriptions,
// flag texts and example comments (command and flag names unchanged), on
// stdout, exit 0; every command and flag has its Chinese text.
func TestHelpChinese(t *testing.T) {
	env := map[string]string{EnvServer: "127.0.0.1:1", "LANG": "zh_CN.UTF-8"}
	code, stdout, stderr := runCLIEnv(t, env, "", "--help")
	if code != ExitOK || stderr != "" || !strings.HasPrefix(stdout, "用法：opsassist") {
		t.Fatalf("--help: exit %d, stderr %q, stdout %q", code, stderr, stdout)
	}
	golden(t, "help_zh", []byte(stdout))
	for _, cd := range commands() {
		if cd.summaryZh == "" || cd.aboutZh == "" {
			t.Errorf("%s has no Chinese summary or description", cd.name)
		}
		for _, f := range append(cd.flags, append(globalFlags(), versionFlag())...) {
			if f.zh == "" {
				t.Errorf("%s: flag %s has no Chinese text", cd.name, f.name)
			}
		}
		code, stdout, stderr := runCLIEnv(t, env, "", "help", cd.name)
		if code != ExitOK || stderr != "" || !strings.Contains(stdout, "\n示例：\n  ") || !strings.Contains(stdout, strings.SplitN(cd.aboutZh, "\n", 2)[0]) {
			t.Fatalf("help %s: exit %d, stderr %q, stdout %q", cd.name, code, stderr, stdout)
		}
		golden(t, "help_"+cd.name+"_zh", []byte(stdout))
	}
}

// TestREPLHelpChineseSameCommands: the REPL's help in Chinese lists the
// same commands, in the same order and with the same arguments, as the
// English one that Tab completion reads.
func TestREPLHelpChineseSameCommands(t *testing.T) {
	en, zh := strings.Split(replHelp, "\n"), strings.Split(replHelpZh, "\n")
	if len(en) != len(zh) {
		t.Fatalf("%d lines in English, %d in Chinese", len(en), len(zh))
	}
	command := func(line string) string { return strings.SplitN(strings.TrimSpace(line), "  ", 2)[0] }
	for i := 1; i < len(en); i++ {
		if a, b := command(en[i]), command(zh[i]); a != b || a == "" && en[i] != "" {
			t.Errorf("line %d: %q in English, %q in Chinese", i, a, b)
		}
	}
}
