package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"opsassist/cli"
	"opsassist/client"
)

// TestCLIAgainstDaemon drives the real CLI client against the real daemon:
// ask (text and --json), upload, then a restart that keeps the
// conversation.
func TestCLIAgainstDaemon(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	a := startApp(t, data)
	addr := a.NPLTAddr().String()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	var out, errOut bytes.Buffer
	prog := &cli.CLI{Stdout: &out, Stderr: &errOut}
	if code := prog.Run(ctx, []string{"--server", addr, "ask", "磁盘还剩多少空间？"}); code != 0 {
		t.Fatalf("ask exit %d: %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), "磁盘使用率：") {
		t.Fatalf("ask stdout %q", out.String())
	}
	out.Reset()
	if code := prog.Run(ctx, []string{"--server", addr, "ask", "CPU使用率是多少？"}); code != 0 {
		t.Fatalf("ask exit %d: %s", code, errOut.String())
	}
	if !regexp.MustCompile(`CPU 使用率：\d+\.\d%`).MatchString(out.String()) {
		t.Fatalf("CPU answer without a real percentage: %q", out.String())
	}

	out.Reset()
	if code := prog.Run(ctx, []string{"--server", addr, "ask", "--json", "hello"}); code != 0 {
		t.Fatalf("ask --json exit %d: %s", code, errOut.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	var first, last struct {
		Type string `json:"type"`
	}
	json.Unmarshal([]byte(lines[0]), &first)
	json.Unmarshal([]byte(lines[len(lines)-1]), &last)
	if first.Type != "stream_start" || last.Type != "end" {
		t.Fatalf("json events %q", out.String())
	}

	file := filepath.Join(t.TempDir(), "config.yaml")
	os.WriteFile(file, []byte("database:\n  port: 5432\n"), 0o600)
	out.Reset()
	if code := prog.Run(ctx, []string{"--server", addr, "upload", file}); code != 0 {
		t.Fatalf("upload exit %d: %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), "config.yaml") {
		t.Fatalf("upload stdout %q", out.String())
	}

	// A server error makes ask exit non-zero.
	if code := prog.Run(ctx, []string{"--server", addr, "upload", filepath.Join(t.TempDir(), "missing")}); code == 0 {
		t.Fatal("upload of a missing file exited 0")
	}
	stop(t, a)
	if code := prog.Run(ctx, []string{"--server", addr, "ask", "anyone?"}); code == 0 {
		t.Fatal("ask against a stopped server exited 0")
	}

	// After a restart the conversations are listed.
	a2 := startApp(t, data)
	defer stop(t, a2)
	conn, err := client.Dial(ctx, a2.NPLTAddr().String(), client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	res, err := conn.Sessions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var list struct {
		Sessions []struct {
			Title   string `json:"title"`
			Uploads int    `json:"uploads"`
		} `json:"sessions"`
	}
	if err := res.Decode(&list); err != nil {
		t.Fatal(err)
	}
	titles := ""
	uploads := 0
	for _, s := range list.Sessions {
		titles += s.Title + "|"
		uploads += s.Uploads
	}
	if !strings.Contains(titles, "磁盘还剩多少空间？") || !strings.Contains(titles, "hello") || uploads != 1 {
		t.Fatalf("after restart: %+v", list.Sessions)
	}
}

// TestContractChainsOverNPLT runs the tool contract's chains end to end
// with the built-in planner: upload, "analyse this report", "list my
// uploads", "download report.txt" (an offer arrives), "system resources".
func TestContractChainsOverNPLT(t *testing.T) {
	t.Parallel()
	a := startApp(t, t.TempDir())
	defer stop(t, a)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := client.Dial(ctx, a.NPLTAddr().String(), client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	file := filepath.Join(t.TempDir(), "report.txt")
	os.WriteFile(file, []byte("季度报告\n关键结论：磁盘告警 3 次，数据库延迟下降 20%\n"), 0o600)
	if _, err := conn.Upload(ctx, file, nil); err != nil {
		t.Fatal(err)
	}
	chat := func(q string) (string, []client.Event) { return chatOnce(ctx, t, conn, q) }
	if got, _ := chat("分析一下这个报告的关键内容"); !strings.Contains(got, "数据库延迟下降 20%") {
		t.Fatalf("analyse: %q", got)
	}
	if got, _ := chat("查看我上传的所有文件"); !strings.Contains(got, "report.txt") {
		t.Fatalf("list: %q", got)
	}
	got, evs := chat("下载report.txt")
	offered := false
	for _, e := range evs {
		offered = offered || e.Type == client.EventDownloadOffer && e.Offer.Filename == "report.txt" && e.Offer.DownloadToken != ""
	}
	if !offered || !strings.Contains(got, "已准备下载 report.txt") {
		t.Fatalf("download: offered %v, %q", offered, got)
	}
	if got, _ := chat("系统资源使用情况如何？"); !strings.Contains(got, "内存使用率") {
		t.Fatalf("resources: %q", got)
	}
	if got, _ := chat("如何配置数据库？"); !strings.Contains(got, "database.md") {
		t.Fatalf("docs: %q", got)
	}
}

// TestUploadedConfigAnsweredAndDownloaded is the storage issue's
// end-to-end check: upload a YAML config, hear that it is indexed, ask
// for the database port in it, and download it by name.
func TestUploadedConfigAnsweredAndDownloaded(t *testing.T) {
	t.Parallel()
	a := startApp(t, t.TempDir())
	defer stop(t, a)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	notices := make(chan client.Event, 4)
	conn, err := client.Dial(ctx, a.NPLTAddr().String(), client.Options{OnUnsolicited: func(e client.Event) { notices <- e }})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	file := filepath.Join(t.TempDir(), "config.yaml")
	os.WriteFile(file, []byte("server:\n  listen: 0.0.0.0:8443\ndatabase:\n  host: db-primary.internal\n  port: 15432\n  user: app\nredis:\n  port: 6380\n"), 0o600)
	if _, err := conn.Upload(ctx, file, nil); err != nil {
		t.Fatal(err)
	}
	select {
	case e := <-notices:
		if e.Type != client.EventIndexed || !e.Indexed.Indexed || e.Indexed.Filename != "config.yaml" {
			t.Fatalf("notice: %+v", e)
		}
	case <-ctx.Done():
		t.Fatal("no UPLOAD_INDEXED notice")
	}
	chat := func(q string) (string, []client.Event) { return chatOnce(ctx, t, conn, q) }
	if got, _ := chat("这个配置文件里数据库端口是多少？"); !strings.Contains(got, "15432") {
		t.Fatalf("port: %q", got)
	}
	got, evs := chat("下载 config.yaml")
	var offer *client.Event
	for i := range evs {
		if evs[i].Type == client.EventDownloadOffer {
			offer = &evs[i]
		}
	}
	st, _ := os.Stat(file)
	if offer == nil || offer.Offer.Filename != "config.yaml" || offer.Offer.FileSize != st.Size() {
		t.Fatalf("download: %+v, %q", offer, got)
	}
	// The index holds the upload in its conversation's scope.
	if fs := a.Index().Files("uploads", conn.SessionID()); len(fs) != 1 || fs[0].Name != "config.yaml" {
		t.Fatalf("indexed uploads: %+v", fs)
	}
}

// TestReadmeErrorsExample is the README's own example through a real
// session: `printf 'ERROR db timeout\nINFO ok\nERROR db timeout\nWARN
// slow\n' | opsassist ask "有什么错误？"` uploads stdin.txt, then asks; the
// answer was "我没能理解这个请求", it is now the error lines grouped and
// counted, in the question's language.
func TestReadmeErrorsExample(t *testing.T) {
	t.Parallel()
	a := startApp(t, t.TempDir())
	defer stop(t, a)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, tc := range []struct{ q, want, also string }{
		{"有什么错误？", "在 stdin.txt 中找到 2 条错误、1 条警告", "2 × ERROR db timeout\n1 × WARN slow"},
		{"any errors in this log?", "Found 2 errors and 1 warning in stdin.txt", "2 × ERROR db timeout\n1 × WARN slow"},
		{"分析一下日志里的错误", "在 stdin.txt 中找到 2 条错误", "2 × ERROR db timeout"},
	} {
		conn, err := client.Dial(ctx, a.NPLTAddr().String(), client.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := conn.UploadData(ctx, "stdin.txt", []byte("ERROR db timeout\nINFO ok\nERROR db timeout\nWARN slow\n"), nil); err != nil {
			t.Fatal(err)
		}
		got, _ := chatOnce(ctx, t, conn, tc.q)
		conn.Close()
		if !strings.Contains(got, tc.want) || !strings.Contains(got, tc.also) || strings.Contains(got, "没能理解") {
			t.Errorf("%q: %q", tc.q, got)
		}
	}
}
