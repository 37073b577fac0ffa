package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"strings"
	"syscall"
	"testing"
)

// TestFailureCodes: a call that did not succeed carries the code of why
// — who refused it, or its error's class, or the code its tool gave —
// in its Result and in the model's view, beside the raw Error; a
// successful call has none.
func TestFailureCodes(t *testing.T) {
	ask := NewRegistry(Config{Policy: redactPolicy{}})
	if err := ask.Register(anyArgs{}); err != nil {
		t.Fatal(err)
	}
	answer := func(c Confirmed, err error) *Call {
		return &Call{Confirm: func(context.Context, Confirmation) (Confirmed, error) { return c, err }}
	}
	byRole := NewRegistry(Config{Policy: denyPolicy{DecidedByRole, ""}})
	byRule := NewRegistry(Config{Policy: denyPolicy{DecidedByRule, ""}})
	secret := NewRegistry(Config{Policy: denyPolicy{DecidedByDefault, CodeSecretFile}})
	for _, r := range []*Registry{byRole, byRule, secret} {
		if err := r.Register(anyArgs{}); err != nil {
			t.Fatal(err)
		}
	}
	plain := NewRegistry(Config{})
	if err := plain.Register(echo{}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		o    Outcome
		want string
	}{
		{"declined", ask.Execute(context.Background(), answer(Confirmed{By: ByUser}, nil), "mcp__fs__write_file", `{}`), CodeDeclined},
		{"not answered", ask.Execute(context.Background(), answer(Confirmed{By: ByTimeout}, nil), "mcp__fs__write_file", `{}`), CodeNotAnswered},
		{"client left", ask.Execute(context.Background(), answer(Confirmed{By: ByDisconnect}, nil), "mcp__fs__write_file", `{}`), CodeDisconnected},
		{"no client", ask.Execute(context.Background(), &Call{}, "mcp__fs__write_file", `{}`), CodeNoConfirmation},
		{"role", byRole.Execute(context.Background(), &Call{}, "mcp__fs__write_file", `{}`), CodeDeniedByRole},
		{"rule", byRule.Execute(context.Background(), &Call{}, "mcp__fs__write_file", `{}`), CodeDeniedByRule},
		{"secret file", secret.Execute(context.Background(), &Call{}, "mcp__fs__write_file", `{}`), CodeSecretFile},
		{"tool error", plain.Execute(context.Background(), nil, "echo", `{"text":"x","mode":"fail"}`), string(ClassExecution)},
		{"bad arguments", plain.Execute(context.Background(), nil, "echo", `{"nope":1}`), string(ClassParameter)},
		{"unknown tool", plain.Execute(context.Background(), nil, "nope", `{}`), string(ClassValidation)},
		{"ok", plain.Execute(context.Background(), nil, "echo", `{"text":"x"}`), ""},
	} {
		if tc.o.Result.Code != tc.want {
			t.Errorf("%s: code %q, want %q (error %q)", tc.name, tc.o.Result.Code, tc.want, tc.o.Result.Error)
		}
		var view struct{ Code string }
		if err := json.Unmarshal([]byte(tc.o.ForModel), &view); err != nil || view.Code != tc.want {
			t.Errorf("%s: the model's view %s has code %q, want %q", tc.name, tc.o.ForModel, view.Code, tc.want)
		}
		if tc.want != "" && tc.o.Result.Error == "" {
			t.Errorf("%s: the raw error is gone", tc.name)
		}
	}
}

// denyPolicy denies every call, decided by by, with the Verdict's code.
type denyPolicy struct{ by, code string }

func (p denyPolicy) Decide(context.Context, *Call, Spec, json.RawMessage) Verdict {
	return Verdict{Decision: Deny, By: p.by, Code: p.code, Reason: "no"}
}

// TestWithCode: a tool's own code wins over its error's class, and the
// error still matches what it wraps.
func TestWithCode(t *testing.T) {
	base := errors.New("index missing")
	err := WithCode(CodeUnavailable, base)
	if codeOf(err) != CodeUnavailable || !errors.Is(err, base) || WithCode(CodeUnavailable, nil) != nil {
		t.Fatalf("WithCode: %v", err)
	}
}

// TestUserTextBothLanguages: every code failureCode gives has a text in
// each language — Chinese with no English sentence in it, English with
// no Chinese — naming the tool and not the raw error; an unknown code
// has none.
func TestUserTextBothLanguages(t *testing.T) {
	han := regexp.MustCompile(`\p{Han}`)
	english := regexp.MustCompile(`\b(?:the|did|not|was|failed|could|called|try)\b`)
	codes := []string{CodeDeclined, CodeNotAnswered, CodeCancelled, CodeDisconnected, CodeNoConfirmation, CodeDenied, CodeDeniedByRole, CodeDeniedByRule,
		CodeRateLimited, CodeAuditPaused, CodeLoopStopped, CodeStepLimit, CodeTimeout, CodeUnavailable, CodeArgsInCommand,
		CodeNotRegular, CodeSecretFile, CodeCommandNotAllowed, CodeNotFound, CodeAccessDenied, CodeIsDirectory, CodeExists,
		string(ClassConnection), string(ClassPermission), string(ClassParameter), string(ClassValidation), string(ClassExecution)}
	for _, c := range codes {
		zh, en := UserText(c, "file_download", true), UserText(c, "file_download", false)
		if !han.MatchString(zh) || english.MatchString(zh) {
			t.Errorf("%s: Chinese text %q", c, zh)
		}
		if en == "" || han.MatchString(en) {
			t.Errorf("%s: English text %q", c, en)
		}
		if c != CodeAuditPaused && (!strings.Contains(zh, "file_download") || !strings.Contains(en, "file_download")) {
			t.Errorf("%s: the tool is not named: %q / %q", c, zh, en)
		}
	}
	if UserText("", "x", true) != "" || UserText("no_such_code", "x", false) != "" {
		t.Error("text for an unknown code")
	}
}

// TestUserTextNamesTheSubject: the codes about a file or a command name it
// and the cause ("command_executor 执行失败。" was all a user saw for
// head -c 100 /dev/zero).
func TestUserTextNamesTheSubject(t *testing.T) {
	for _, tc := range []struct {
		code, subject, zh, en string
	}{
		{CodeNotRegular, "/dev/zero", `"/dev/zero"不是普通文件或目录`, `"/dev/zero" is not a regular file or directory`},
		{CodeSecretFile, "/etc/passwd", `"/etc/passwd"可能含有密钥或口令`, `"/etc/passwd" may hold secrets`},
		{CodeCommandNotAllowed, "reboot", `"reboot"不在允许执行的命令之内`, `"reboot" is not a command the assistant runs`},
		{CodeSecretFile, "", "这个文件可能含有密钥或口令", "This file may hold secrets"},
		{CodeNotFound, "/tmp/x/nope.txt", `"/tmp/x/nope.txt"不存在`, `"/tmp/x/nope.txt" does not exist`},
		{CodeNotFound, "", "这个文件不存在", "This file does not exist"},
		{CodeAccessDenied, "/root/a", `系统拒绝了对"/root/a"的访问`, `The system denied access to "/root/a"`},
		{CodeIsDirectory, "/tmp", `"/tmp"是一个目录`, `"/tmp" is a directory`},
		{CodeExists, "/tmp/a", `"/tmp/a"已经存在`, `"/tmp/a" exists already`},
	} {
		zh, en := UserTextAbout(tc.code, "file_download", tc.subject, true), UserTextAbout(tc.code, "file_download", tc.subject, false)
		if !strings.HasPrefix(zh, tc.zh) || !strings.Contains(zh, "file_download") {
			t.Errorf("%s zh: %q", tc.code, zh)
		}
		if !strings.HasPrefix(en, tc.en) || !strings.Contains(en, "file_download") {
			t.Errorf("%s en: %q", tc.code, en)
		}
	}
}

// TestFileErrorCode: the common file failures get their codes wherever
// they are wrapped; others get none.
func TestFileErrorCode(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{fmt.Errorf("x: %w", &fs.PathError{Op: "open", Path: "/a", Err: syscall.ENOENT}), CodeNotFound},
		{&fs.PathError{Op: "open", Path: "/a/b", Err: syscall.ENOTDIR}, CodeNotFound},
		{fmt.Errorf("x: %w", fs.ErrPermission), CodeAccessDenied},
		{&fs.PathError{Op: "read", Path: "/tmp", Err: syscall.EISDIR}, CodeIsDirectory},
		{fs.ErrExist, CodeExists},
		{errors.New("other"), ""},
		{nil, ""},
	} {
		if got := FileErrorCode(tc.err); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.err, got, tc.want)
		}
	}
}
