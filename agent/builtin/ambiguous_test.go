package builtin

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"opsassist/agent"
	"opsassist/api"
	"opsassist/chat"
	"opsassist/storage/history"
	"opsassist/storage/tokens"
	"opsassist/tools"
	"opsassist/tools/askuser"
	"opsassist/tools/download"
	"opsassist/tools/fileupload"
	"opsassist/tools/search"
)

// askingAgent is newAgent with ask_user registered.
func askingAgent(t *testing.T, dir string) *agent.Agent {
	reg := tools.NewRegistry(tools.Config{})
	dl, err := download.New(download.Config{Paths: inDir(dir), Tokens: tokens.NewStore(0), RDTAddr: "127.0.0.1:9998"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range []tools.Tool{search.New(search.Config{}), dl, fileupload.New(nil, 0), askuser.Tool{}} {
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

func threeUploads(t *testing.T, dir string) []history.Upload {
	var ups []history.Upload
	for i, name := range []string{"app.yaml", "notes.md", "db.yaml"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(name+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		ups = append(ups, history.Upload{FileID: "f" + name, Filename: name, FilePath: p, Size: int64(len(name) + 1), UploadedAt: time.Now().Add(time.Duration(i) * time.Minute)})
	}
	return ups
}

func TestAmbiguousDownloadAsksAndDownloadsTheChoice(t *testing.T) {
	dir := t.TempDir()
	ups := threeUploads(t, dir)
	a := askingAgent(t, dir)
	r := &rec{reply: func(q chat.Question) chat.Answered {
		return chat.Answered{Answer: "fapp.yaml", Option: "fapp.yaml", By: chat.AnsweredByUser}
	}}
	msgs, err := a.Respond(context.Background(), &chat.Turn{Input: "下载配置文件", Model: "builtin", ClientType: "cli", Uploads: ups, Now: time.Now()}, r)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.asked) != 1 {
		t.Fatalf("asked %+v", r.asked)
	}
	q := r.asked[0]
	if q.Kind != api.QuestionChoice || len(q.Options) != 2 || q.Options[0].ID != "fdb.yaml" || !q.Options[0].Recommended || q.Options[1].ID != "fapp.yaml" {
		t.Fatalf("question %+v (the config files, newest first and recommended; notes.md left out)", q)
	}
	if len(r.offers) != 1 || r.offers[0].Filename != "app.yaml" {
		t.Fatalf("offers %+v, want app.yaml, the chosen one", r.offers)
	}
	if msgs[1].Name != askuser.Name || msgs[3].Name != "file_download" {
		t.Fatalf("messages %+v", msgs)
	}
	if !strings.Contains(r.text.String(), "app.yaml") {
		t.Fatalf("answer %q", r.text.String())
	}
}

func TestAmbiguousDownloadNoAnswerDownloadsNothing(t *testing.T) {
	dir := t.TempDir()
	a := askingAgent(t, dir)
	r := &rec{} // nobody answers: a timeout without default
	if _, err := a.Respond(context.Background(), &chat.Turn{Input: "download the config file", Model: "builtin", ClientType: "cli", Uploads: threeUploads(t, dir), Now: time.Now()}, r); err != nil {
		t.Fatal(err)
	}
	if len(r.asked) != 1 || len(r.offers) != 0 || !strings.Contains(r.text.String(), "nothing was downloaded") {
		t.Fatalf("asked %d, offers %+v, answer %q", len(r.asked), r.offers, r.text.String())
	}
}

func TestUnambiguousDownloadDoesNotAsk(t *testing.T) {
	dir := t.TempDir()
	ups := threeUploads(t, dir)
	a := askingAgent(t, dir)
	for _, in := range []string{"下载 db.yaml", "下载这个文件"} {
		r := &rec{}
		if _, err := a.Respond(context.Background(), &chat.Turn{Input: in, Model: "builtin", ClientType: "cli", Uploads: ups, Now: time.Now()}, r); err != nil {
			t.Fatal(err)
		}
		if len(r.asked) != 0 || len(r.offers) != 1 || r.offers[0].Filename != "db.yaml" {
			t.Fatalf("%s: asked %+v, offers %+v, answer %q", in, r.asked, r.offers, r.text.String())
		}
	}
	// One matching config file: no question either.
	r := &rec{}
	if _, err := a.Respond(context.Background(), &chat.Turn{Input: "下载配置文件", Model: "builtin", ClientType: "cli", Uploads: ups[:1], Now: time.Now()}, r); err != nil {
		t.Fatal(err)
	}
	if len(r.asked) != 0 {
		t.Fatalf("asked %+v with one config upload", r.asked)
	}
}

func TestAmbiguousDownloadCannotAsk(t *testing.T) {
	dir := t.TempDir()
	a := askingAgent(t, dir)
	r := &rec{reply: func(chat.Question) chat.Answered { return chat.Answered{} }}
	// A Responder whose AskUser fails: the tool reports it and the
	// answer names the files to choose from.
	fr := &failingAsk{rec: r}
	if _, err := a.Respond(context.Background(), &chat.Turn{Input: "下载配置文件", Model: "builtin", ClientType: "cli", Uploads: threeUploads(t, dir), Now: time.Now()}, fr); err != nil {
		t.Fatal(err)
	}
	if got := r.text.String(); !strings.Contains(got, "db.yaml, app.yaml") || len(r.offers) != 0 {
		t.Fatalf("answer %q, offers %+v", got, r.offers)
	}
}

type failingAsk struct{ *rec }

func (f *failingAsk) AskUser(context.Context, chat.Question) (chat.Answered, error) {
	return chat.Answered{}, chat.ErrCannotAsk
}
