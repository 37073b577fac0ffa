package fileupload

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"opsassist/storage/history"
	"opsassist/tools"
)

var now = time.Date(2026, 11, 22, 12, 0, 0, 0, time.Local)

// uploads makes files a.log (yesterday), config.yaml (1 h ago),
// config_old.yaml (2 min ago), in that order.
func uploads(t *testing.T) []history.Upload {
	dir := t.TempDir()
	mk := func(id, name, content string, at time.Time) history.Upload {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return history.Upload{FileID: id, Filename: name, FilePath: p, UploadedAt: at, Size: int64(len(content))}
	}
	return []history.Upload{
		mk("f1", "app.log", "ERROR db timeout\n", now.Add(-24*time.Hour)),
		mk("f2", "config.yaml", "database:\n  port: 5432\n", now.Add(-time.Hour)),
		mk("f3", "config_old.yaml", "database:\n  port: 3306\n", now.Add(-2*time.Minute)),
	}
}

func run(t *testing.T, ups []history.Upload, args string) (any, error) {
	tool := New(func() time.Time { return now }, 0)
	return tool.Run(context.Background(), &tools.Call{Uploads: ups}, json.RawMessage(args))
}

func names(t *testing.T, out any) string {
	var got []string
	for _, f := range out.(ListOutput).Files {
		got = append(got, f.Filename)
	}
	return strings.Join(got, ",")
}

func TestReferenceSemantics(t *testing.T) {
	ups := uploads(t)
	tests := []struct{ args, want string }{
		{`{}`, "app.log,config.yaml,config_old.yaml"},
		{`{"action":"list","reference":"all"}`, "app.log,config.yaml,config_old.yaml"},
		{`{"reference":"this"}`, "config_old.yaml"},
		{`{"reference":"these"}`, "config.yaml,config_old.yaml"},
		{`{"reference":"these","count":3}`, "app.log,config.yaml,config_old.yaml"},
		{`{"reference":"these","count":9}`, "app.log,config.yaml,config_old.yaml"},
		{`{"reference":"previous"}`, "app.log,config.yaml"},
		{`{"reference":"previous","file_type":"log"}`, "app.log"},
		{`{"reference":"all","file_type":"YAML"}`, "config.yaml,config_old.yaml"},
		{`{"reference":"all","time_range":"recent"}`, "config_old.yaml"},
		{`{"reference":"all","time_range":"today"}`, "config.yaml,config_old.yaml"},
		{`{"reference":"all","count":1}`, "app.log"},
		{`{"reference":"all","file_type":"pdf"}`, ""},
	}
	for _, tt := range tests {
		out, err := run(t, ups, tt.args)
		if err != nil {
			t.Fatalf("%s: %v", tt.args, err)
		}
		if got := names(t, out); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.args, got, tt.want)
		}
	}
	if out, _ := run(t, nil, `{"reference":"this"}`); out.(ListOutput).Total != 0 {
		t.Fatal("files from nowhere")
	}
}

func TestGetAndRead(t *testing.T) {
	ups := uploads(t)
	out, err := run(t, ups, `{"action":"get","file_id":"f2"}`)
	if err != nil || out.(File).Filename != "config.yaml" || out.(File).UploadedAt == "" {
		t.Fatal(out, err)
	}
	if _, err := run(t, ups, `{"action":"get","file_id":"zzz"}`); !errors.Is(err, ErrNotFound) {
		t.Fatal(err)
	}
	out, err = run(t, ups, `{"action":"read","reference":"this"}`)
	if err != nil || !strings.Contains(out.(ReadOutput).Content, "3306") {
		t.Fatal(out, err)
	}
	out, err = run(t, ups, `{"action":"read","file_id":"f2"}`)
	if err != nil || !strings.Contains(out.(ReadOutput).Content, "5432") || out.(ReadOutput).Truncated {
		t.Fatal(out, err)
	}
	out, err = run(t, ups, `{"action":"read","reference":"previous","file_type":"log"}`)
	if err != nil || !strings.Contains(out.(ReadOutput).Content, "ERROR") {
		t.Fatal(out, err)
	}
	if _, err := run(t, nil, `{"action":"read"}`); !errors.Is(err, ErrNoUploads) {
		t.Fatal(err)
	} else if c, ok := errors.AsType[tools.Coded](err); !ok || c.FailureCode() != tools.CodeNoUploads {
		t.Fatalf("no uploads carries no code %q: %v", tools.CodeNoUploads, err) // the user read "file_upload 执行失败。"
	}
}

func TestReadRefusesBinaryAndCapsText(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "x.bin")
	os.WriteFile(bin, []byte{0x7f, 'E', 'L', 'F', 0, 1, 2}, 0o600)
	big := filepath.Join(dir, "big.txt")
	os.WriteFile(big, []byte(strings.Repeat("日志", 1000)), 0o600)
	ups := []history.Upload{{FileID: "b", Filename: "x.bin", FilePath: bin}, {FileID: "t", Filename: "big.txt", FilePath: big}}
	tool := New(nil, 1001) // cuts a 3-byte rune in half
	if _, err := tool.Run(context.Background(), &tools.Call{Uploads: ups}, json.RawMessage(`{"action":"read","file_id":"b"}`)); !errors.Is(err, ErrBinary) {
		t.Fatal(err)
	}
	out, err := tool.Run(context.Background(), &tools.Call{Uploads: ups}, json.RawMessage(`{"action":"read","file_id":"t"}`))
	if err != nil {
		t.Fatal(err)
	}
	r := out.(ReadOutput)
	if !r.Truncated || len(r.Content) != 999 || !strings.HasSuffix(r.Content, "日") {
		t.Fatalf("%d bytes, truncated %v", len(r.Content), r.Truncated)
	}
}

// TestThroughRegistry checks the schema rejects what the tool does not
// support, and the tool's errors reach the model.
func TestThroughRegistry(t *testing.T) {
	r := tools.NewRegistry(tools.Config{})
	if err := r.Register(New(nil, 0)); err != nil {
		t.Fatal(err)
	}
	for args, want := range map[string]string{
		`{"action":"delete"}`:            "/action",
		`{"reference":"that"}`:           "/reference",
		`{"count":0}`:                    "/count",
		`{"action":"get","file_id":"x"}`: "no upload with that file_id",
	} {
		o := r.Execute(context.Background(), &tools.Call{}, "file_upload", args)
		if o.Result.Success || !strings.Contains(o.Result.Error, want) {
			t.Errorf("%s: %+v", args, o.Result)
		}
	}
}
