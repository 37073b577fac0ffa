package download

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"opsassist/api"
	"opsassist/storage/history"
	"opsassist/storage/tokens"
	"opsassist/tools"
	"opsassist/tools/pathguard"
)

// inDir allows paths under one directory (a stand-in for pathguard).
type inDir string

func (d inDir) Check(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	if !strings.HasPrefix(abs, string(d)+string(filepath.Separator)) {
		return "", errors.New("path outside allowed roots: " + p)
	}
	return abs, nil
}

func (d inDir) Open(p string) (*os.File, string, error) {
	abs, err := d.Check(p)
	if err != nil {
		return nil, "", err
	}
	f, err := os.Open(abs)
	return f, abs, err
}

func setup(t *testing.T) (*Tool, *tokens.Store, string) {
	dir := t.TempDir()
	store := tokens.NewStore(0)
	tool, err := New(Config{Paths: inDir(dir), Tokens: store, RDTAddr: "127.0.0.1:9998", HTTPBase: "http://127.0.0.1:8080",
		Now: func() time.Time { return time.Date(2026, 11, 22, 8, 0, 0, 0, time.UTC) }})
	if err != nil {
		t.Fatal(err)
	}
	return tool, store, dir
}

func TestOfferPerClientType(t *testing.T) {
	tool, store, dir := setup(t)
	p := filepath.Join(dir, "config.yaml")
	data := []byte("database:\n  port: 5432\n")
	os.WriteFile(p, data, 0o600)
	sum := sha256.Sum256(data)
	for _, tc := range []struct{ client, mode, want string }{
		{"cli", "", "rdt"}, {"desktop", "auto", "rdt"}, {"web", "", "http"}, {"", "", "nplt"}, {"cli", "http", "http"},
	} {
		var offered *api.Offer
		call := &tools.Call{ClientType: tc.client, SessionID: "s1", Offer: func(o api.Offer) error { offered = &o; return nil }}
		args, _ := json.Marshal(map[string]string{"file_path": p, "transport_mode": tc.mode})
		out, err := tool.Run(context.Background(), call, args)
		if err != nil {
			t.Fatal(err)
		}
		o := out.(Output)
		if o.TransportMode != tc.want || o.SHA256 != hex.EncodeToString(sum[:]) || o.FileSize != int64(len(data)) || o.Filename != "config.yaml" {
			t.Fatalf("%+v: %+v", tc, o)
		}
		if offered == nil || offered.DownloadToken != o.DownloadToken || offered.TransportMode != tc.want {
			t.Fatalf("%+v: offer %+v", tc, offered)
		}
		if tc.want == "http" && o.DownloadURL != "http://127.0.0.1:8080/api/files/download/"+o.DownloadToken {
			t.Fatal(o.DownloadURL)
		}
		if tc.want == "rdt" && o.RDTAddr != "127.0.0.1:9998" {
			t.Fatal(o.RDTAddr)
		}
		g, err := store.Redeem(tokens.Claim{ID: o.DownloadToken}, time.Date(2026, 11, 22, 8, 5, 0, 0, time.UTC))
		if err == nil {
			g.File.Close()
		}
		tok := g.Token
		if err != nil || tok.Path != p || tok.SHA256 != o.SHA256 || tok.SessionID != "s1" {
			t.Fatal(tok, err)
		}
	}
}

func TestRefusals(t *testing.T) {
	tool, _, dir := setup(t)
	os.Mkdir(filepath.Join(dir, "sub"), 0o700)
	r := tools.NewRegistry(tools.Config{})
	r.Register(tool)
	for args, want := range map[string]string{
		`{"file_path":"/etc/passwd"}`:                           "outside allowed roots",
		`{"file_path":"` + filepath.Join(dir, "missing") + `"}`: "no such file",
		`{"file_path":"` + filepath.Join(dir, "sub") + `"}`:     "not a regular file",
		`{"file_path":""}`:                                      "/file_path",
		`{"file_path":"a","transport_mode":"ftp"}`:              "/transport_mode",
		`{}`: "file_path",
	} {
		o := r.Execute(context.Background(), &tools.Call{}, "file_download", args)
		if o.Result.Success || !strings.Contains(o.Result.Error, want) {
			t.Errorf("%s: %+v", args, o.Result)
		}
	}
}

func TestOtherConversationsUploadsRefused(t *testing.T) {
	dir := t.TempDir()
	ups := filepath.Join(dir, "uploads")
	os.MkdirAll(filepath.Join(ups, "a"), 0o700)
	os.MkdirAll(filepath.Join(ups, "b"), 0o700)
	mine, theirs := filepath.Join(ups, "a", "mine.txt"), filepath.Join(ups, "b", "theirs.txt")
	os.WriteFile(mine, []byte("1"), 0o600)
	os.WriteFile(theirs, []byte("2"), 0o600)
	tool, err := New(Config{Paths: inDir(dir), Tokens: tokens.NewStore(0), UploadsDir: ups})
	if err != nil {
		t.Fatal(err)
	}
	call := &tools.Call{Uploads: []history.Upload{{FileID: "a", Filename: "mine.txt", FilePath: mine}}}
	if _, err := tool.Run(context.Background(), call, json.RawMessage(`{"file_path":"`+mine+`"}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := tool.Run(context.Background(), call, json.RawMessage(`{"file_path":"`+theirs+`"}`)); !errors.Is(err, ErrOtherConversation) {
		t.Fatalf("other conversation's upload: %v", err)
	}
}

// swapped is a PathChecker whose Open returns another file than the one
// its path names, as if the name had been swapped right after the open.
type swapped struct {
	inDir
	opened string
}

func (s swapped) Open(p string) (*os.File, string, error) {
	_, abs, err := s.inDir.Open(p)
	if err != nil {
		return nil, "", err
	}
	f, err := os.Open(s.opened)
	return f, abs, err
}

// TestHashesTheOpenedFile: the size, hash and identity in the token are
// those of the file the checker opened, never of a second open by name.
func TestHashesTheOpenedFile(t *testing.T) {
	dir := t.TempDir()
	named, opened := filepath.Join(dir, "named.txt"), filepath.Join(dir, "opened.txt")
	os.WriteFile(named, []byte("what the name leads to now"), 0o600)
	os.WriteFile(opened, []byte("checked"), 0o600)
	store := tokens.NewStore(0)
	tool, err := New(Config{Paths: swapped{inDir(dir), opened}, Tokens: store})
	if err != nil {
		t.Fatal(err)
	}
	out, err := tool.Run(context.Background(), &tools.Call{}, json.RawMessage(`{"file_path":"`+named+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte("checked"))
	o := out.(Output)
	if o.SHA256 != hex.EncodeToString(sum[:]) || o.FileSize != 7 {
		t.Fatalf("%+v: hashed another file than the one opened", o)
	}
	// The servers refuse the name: it is another file now.
	g, err := store.Redeem(tokens.Claim{ID: o.DownloadToken}, time.Now())
	if !errors.Is(err, tokens.ErrFileChanged) {
		t.Fatalf("redeeming a swapped name: %v", err)
	}
	tok := g.Token
	st, _ := os.Stat(opened)
	if dev, ino := tokens.FileID(st); tok.Ino != ino || tok.Dev != dev || ino == 0 {
		t.Fatalf("token %+v, %v: not bound to the opened file's inode", tok, err)
	}
}

// TestPathguardRefusals runs the tool on the real validator: a hard link
// to a file outside the roots, a link out and a FIFO are refused.
func TestPathguardRefusals(t *testing.T) {
	tmp := t.TempDir()
	root, outside := filepath.Join(tmp, "root"), filepath.Join(tmp, "outside.txt")
	os.Mkdir(root, 0o700)
	os.WriteFile(outside, []byte("private"), 0o600)
	os.Link(outside, filepath.Join(root, "planted.txt"))
	os.Symlink(outside, filepath.Join(root, "link.txt"))
	syscall.Mkfifo(filepath.Join(root, "fifo"), 0o600)
	os.WriteFile(filepath.Join(root, "ok.txt"), []byte("ok"), 0o600)
	v, err := pathguard.New(pathguard.Config{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	tool, err := New(Config{Paths: v, Tokens: tokens.NewStore(0)})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]error{
		"planted.txt": pathguard.ErrHardLink,
		"link.txt":    pathguard.ErrOutsideRoots,
		"fifo":        pathguard.ErrNotRegular,
		"ok.txt":      nil,
	} {
		_, err := tool.Run(context.Background(), &tools.Call{}, json.RawMessage(`{"file_path":"`+filepath.Join(root, name)+`"}`))
		if !errors.Is(err, want) || (want == nil) != (err == nil) {
			t.Errorf("%s: %v, want %v", name, err, want)
		}
	}
}

// checkOnly is a PathChecker without Open.
type checkOnly string

func (d checkOnly) Check(p string) (string, error) { return inDir(d).Check(p) }

// TestCheckOnlyPathsRefuseALink: without Open, the checked path is opened
// without following a link at its last component.
func TestCheckOnlyPathsRefuseALink(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a"), 0o600)
	os.Symlink(filepath.Join(dir, "a.txt"), filepath.Join(dir, "link.txt"))
	tool, err := New(Config{Paths: checkOnly(dir), Tokens: tokens.NewStore(0)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tool.Run(context.Background(), &tools.Call{}, json.RawMessage(`{"file_path":"`+filepath.Join(dir, "a.txt")+`"}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := tool.Run(context.Background(), &tools.Call{}, json.RawMessage(`{"file_path":"`+filepath.Join(dir, "link.txt")+`"}`)); !errors.Is(err, syscall.ELOOP) {
		t.Fatalf("link: %v, want ELOOP", err)
	}
}
