package builtin

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"opsassist/agent"
	"opsassist/api"
	"opsassist/chat"
	"opsassist/storage/history"
	"opsassist/storage/tokens"
	"opsassist/tools"
	"opsassist/tools/download"
	"opsassist/tools/fileupload"
	"opsassist/tools/search"
	"opsassist/tools/sysmon"
)

type inDir string

func (d inDir) Check(p string) (string, error) {
	if !strings.HasPrefix(p, string(d)+"/") {
		return "", errors.New("outside allowed roots")
	}
	return p, nil
}

type rec struct {
	text   strings.Builder
	status []string
	offers []api.Offer
	// reply answers ask_user questions (nil: nobody answers); asked
	// keeps them.
	reply func(chat.Question) chat.Answered
	asked []chat.Question
}

func (r *rec) AskUser(_ context.Context, q chat.Question) (chat.Answered, error) {
	r.asked = append(r.asked, q)
	if r.reply == nil {
		return chat.Answered{By: chat.AnsweredByTimeout}, nil
	}
	return r.reply(q), nil
}

func (r *rec) Status(typ, content string) error { r.status = append(r.status, typ); return nil }
func (r *rec) Delta(s string) error             { r.text.WriteString(s); return nil }
func (r *rec) Offer(o api.Offer) error          { r.offers = append(r.offers, o); return nil }
func (r *rec) Confirm(context.Context, chat.Confirmation) (chat.Confirmed, error) {
	return chat.Confirmed{By: chat.AnsweredByDisconnect}, nil
}

func newAgent(t *testing.T, dir string) *agent.Agent {
	reg := tools.NewRegistry(tools.Config{})
	mon, err := sysmon.New(sysmon.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mon.Close() })
	dl, err := download.New(download.Config{Paths: inDir(dir), Tokens: tokens.NewStore(0), RDTAddr: "127.0.0.1:9998"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range []tools.Tool{mon, search.New(search.Config{}), dl, fileupload.New(nil, 0)} {
		if err := reg.Register(tool); err != nil {
			t.Fatal(err)
		}
	}
	a, err := agent.New(agent.Config{Planners: map[string]agent.Planner{"builtin": Planner{}}, Tools: reg})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func ask(t *testing.T, a *agent.Agent, input string, ups []history.Upload) (*rec, []history.Message) {
	r := &rec{}
	msgs, err := a.Respond(context.Background(), &chat.Turn{Input: input, Model: "builtin", ClientType: "cli", Uploads: ups, Now: time.Now()}, r)
	if err != nil {
		t.Fatal(err)
	}
	return r, msgs
}

func TestCPUAnswerHasRealNumbers(t *testing.T) {
	a := newAgent(t, t.TempDir())
	r, msgs := ask(t, a, "CPU使用率是多少？", nil)
	if !regexp.MustCompile(`CPU 使用率：\d+\.\d%`).MatchString(r.text.String()) {
		t.Fatalf("answer %q", r.text.String())
	}
	if len(msgs) != 3 || msgs[1].Role != "tool" || msgs[1].Name != "sys_monitor" {
		t.Fatalf("messages %+v", msgs)
	}
	r, _ = ask(t, a, "How is the system doing?", nil)
	for _, want := range []string{"CPU usage:", "Memory usage:", "Disk usage:"} {
		if !strings.Contains(r.text.String(), want) {
			t.Fatalf("answer %q lacks %q", r.text.String(), want)
		}
	}
}

func TestUploadChains(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "config.yaml")
	os.WriteFile(p, []byte("server:\n  port: 8080\ndatabase:\n  host: db.local\n  port: 5432\n"), 0o600)
	ups := []history.Upload{{FileID: "f1", Filename: "config.yaml", FilePath: p, UploadedAt: time.Now(), Size: 50}}
	a := newAgent(t, dir)

	r, _ := ask(t, a, "这个文件里数据库端口是多少？", ups)
	if !strings.Contains(r.text.String(), "database.port = 5432") || strings.Contains(r.text.String(), "8080") {
		t.Fatalf("read answer %q", r.text.String())
	}
	r, _ = ask(t, a, "查看我上传的所有文件", ups)
	if !strings.Contains(r.text.String(), "您已上传 1 个文件") || !strings.Contains(r.text.String(), "config.yaml") {
		t.Fatalf("list answer %q", r.text.String())
	}
	// Download: search (index unavailable) falls back to the upload of that
	// name, then file_download offers it.
	r, msgs := ask(t, a, "下载config.yaml", ups)
	if len(r.offers) != 1 || r.offers[0].Filename != "config.yaml" || r.offers[0].TransportMode != "rdt" {
		t.Fatalf("offers %+v, answer %q", r.offers, r.text.String())
	}
	names := []string{}
	for _, m := range msgs {
		if m.Role == "tool" {
			names = append(names, m.Name)
		}
	}
	if strings.Join(names, ",") != "semantic_search,file_download" || !strings.HasPrefix(r.text.String(), "已准备下载 config.yaml") {
		t.Fatalf("chain %v, answer %q", names, r.text.String())
	}
}

func TestRefusalsAndSmallTalkCallNoTool(t *testing.T) {
	a := newAgent(t, t.TempDir())
	for _, in := range []string{"rm -rf /", "帮我删除日志文件", "你好", "what can you do?", "sudo reboot"} {
		r, msgs := ask(t, a, in, nil)
		if len(msgs) != 1 || len(msgs[0].ToolCalls) != 0 || r.text.Len() == 0 {
			t.Errorf("%q: %d messages, answer %q", in, len(msgs), r.text.String())
		}
	}
	r, _ := ask(t, a, "rm -rf /", nil)
	if !strings.Contains(r.text.String(), "Sorry, I can't do that") {
		t.Fatalf("refusal %q", r.text.String())
	}
}

func TestSearchUnavailableIsExplained(t *testing.T) {
	a := newAgent(t, t.TempDir())
	// Said in the user's language (issue 15); the raw error stays in
	// the tool result for the model, the log and the audit record.
	r, _ := ask(t, a, "如何配置数据库？", nil)
	if got := r.text.String(); !strings.Contains(got, "semantic_search 暂时不可用") || strings.Contains(got, "semantic index unavailable") {
		t.Fatalf("answer %q", got)
	}
	r, _ = ask(t, a, "how do I configure the database?", nil)
	if got := r.text.String(); !strings.Contains(got, "semantic_search is not available yet") {
		t.Fatalf("answer %q", got)
	}
}

func TestDownloadByPathSkipsSearch(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "app.log")
	os.WriteFile(p, []byte("started\n"), 0o600)
	a := newAgent(t, dir)
	r, msgs := ask(t, a, "下载 "+p, nil)
	var names []string
	for _, m := range msgs {
		if m.Role == "tool" {
			names = append(names, m.Name)
		}
	}
	if strings.Join(names, ",") != "file_download" || len(r.offers) != 1 || r.offers[0].Filename != "app.log" {
		t.Fatalf("chain %v, offers %+v, answer %q", names, r.offers, r.text.String())
	}
}
