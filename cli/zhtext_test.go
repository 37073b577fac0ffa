package cli

import (
	"bytes"
	"strings"
	"testing"

	"opsassist/client"
	"opsassist/internal/npltfake"
)

// zhCLI is a CLI in a Chinese locale writing to out.
func zhCLI(out *bytes.Buffer) *CLI {
	return &CLI{Stdout: out, Stderr: out, Getenv: func(k string) string {
		if k == "LANG" {
			return "zh_CN.UTF-8"
		}
		return ""
	}}
}

// TestREPLErrorsInChinese: in a zh locale the REPL's own errors — an
// unknown command, a usage line — are Chinese (walk-through: "错误：
// unknown command /frob; /help lists the commands").
func TestREPLErrorsInChinese(t *testing.T) {
	var out bytes.Buffer
	r := zhCLI(&out).newREPL(cliConfig{}, nil)
	ctx, cancel := testContext(t)
	defer cancel()
	for _, line := range []string{"/frob", "/upload", "/switch", "/download"} {
		r.execute(ctx, line)
	}
	want := "错误：没有命令 /frob；/help 列出所有命令\n错误：用法：/upload 路径\n错误：用法：/switch ID\n错误：用法：/download 令牌 [路径]\n"
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
}

// TestUploadDirectoryInChinese: "opsassist upload DIR" in a zh locale
// says in one Chinese sentence that a directory cannot be uploaded, the
// path once (walk-through: "上传 /tmp: upload /tmp: not a regular file").
func TestUploadDirectoryInChinese(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ lang, want string }{
		{"zh_CN.UTF-8", "opsassist: " + dir + " 不是普通文件（而是目录、设备或管道），不能上传\n"},
		{"en_US.UTF-8", "opsassist: " + dir + " is not a regular file (a directory, a device or a pipe), so it cannot be uploaded\n"},
	} {
		s := npltfake.New(t, func(fc *npltfake.Conn) {
			fc.Handshake()
			fc.ExpectClose()
		})
		code, _, stderr := runCLIEnv(t, map[string]string{EnvServer: s.Addr, "LANG": tc.lang}, "", "upload", "--new", dir)
		if code != ExitError || stderr != tc.want || strings.Count(stderr, dir) != 1 {
			t.Errorf("%s: exit %d\nstderr %q\nwant   %q", tc.lang, code, stderr, tc.want)
		}
	}
}

// TestDownloadDoneLines: "opsassist download" keeps its English stdout
// line for scripts in every locale; in a zh locale the person reads the
// Chinese line on stderr (walk-through: "downloaded big.bin (76.3 MiB)
// over rdt…" in zh).
func TestDownloadDoneLines(t *testing.T) {
	res := client.DownloadResult{Path: "big.bin", Size: 80000000, Transport: "rdt", Duration: "1.2s"}
	for _, tc := range []struct{ lang, stderr string }{
		{"zh_CN.UTF-8", "已下载 big.bin（76.3 MiB），经 rdt，用时 1.2s，sha256 已校验\n"},
		{"en_US.UTF-8", ""},
	} {
		var out, errb bytes.Buffer
		c := &CLI{Stdout: &out, Stderr: &errb, Getenv: func(k string) string {
			if k == "LANG" {
				return tc.lang
			}
			return ""
		}}
		if err := c.downloadDone(res); err != nil {
			t.Fatal(err)
		}
		if want := "downloaded big.bin (76.3 MiB) over rdt in 1.2s, sha256 verified\n"; out.String() != want || errb.String() != tc.stderr {
			t.Errorf("%s: stdout %q, stderr %q; want %q, %q", tc.lang, out.String(), errb.String(), want, tc.stderr)
		}
	}
}
