package web

import (
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"opsassist/api"
	"opsassist/internal/testkit"
	"opsassist/storage/tokens"
)

// TestDownloadRefusesSwappedFile issues a token bound to a file's inode,
// then puts a link to another file of the same size, or that file itself,
// at the path: neither is served.
func TestDownloadRefusesSwappedFile(t *testing.T) {
	e := newEnv(t, testkit.Scripted{})
	for name, swap := range map[string]func(path, other string) error{
		"link": func(path, other string) error {
			os.Remove(path)
			return os.Symlink(other, path)
		},
		"other file": func(path, other string) error { return os.Rename(other, path) },
	} {
		dir := t.TempDir()
		path, other := filepath.Join(dir, "report.txt"), filepath.Join(dir, "private.txt")
		os.WriteFile(path, []byte("public"), 0o600)
		os.WriteFile(other, []byte("SECRET"), 0o600)
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		dev, ino := tokens.FileID(st)
		tok, err := e.tokens.Issue(tokens.Token{Path: path, Filename: "report.txt", Size: 6, Dev: dev, Ino: ino}, e.clock.Now())
		if err != nil {
			t.Fatal(err)
		}
		if err := swap(path, other); err != nil {
			t.Fatal(err)
		}
		res, body := e.do(t, "GET", "/api/files/download/"+tok.ID, nil)
		if res.StatusCode != http.StatusGone {
			t.Errorf("%s: %d %q, want 410", name, res.StatusCode, body)
			continue
		}
		wantError(t, res, body, http.StatusGone, api.CodeFileChanged)
	}
}
