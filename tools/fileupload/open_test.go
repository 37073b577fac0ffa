package fileupload

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"opsassist/storage/history"
	"opsassist/tools"
)

// TestReadRefusesReplacedUpload replaces an upload's file on disk the
// ways someone with write access to the uploads directory could: the
// tool reads none of them.
func TestReadRefusesReplacedUpload(t *testing.T) {
	for name, replace := range map[string]func(p, secret string) error{
		"symbolic link": func(p, secret string) error {
			os.Remove(p)
			return os.Symlink(secret, p)
		},
		"hard link": func(p, secret string) error {
			os.Remove(p)
			return os.Link(secret, p)
		},
		"directory": func(p, _ string) error {
			os.Remove(p)
			return os.Mkdir(p, 0o700)
		},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			p, secret := filepath.Join(dir, "config.yaml"), filepath.Join(dir, "private.txt")
			os.WriteFile(p, []byte("port: 5432"), 0o600)
			os.WriteFile(secret, []byte("PRIVATE!!!"), 0o600) // the same size as the upload
			ups := []history.Upload{{FileID: "f", Filename: "config.yaml", FilePath: p, Size: 10}}
			tool := New(nil, 0)
			out, err := tool.Run(context.Background(), &tools.Call{Uploads: ups}, json.RawMessage(`{"action":"read"}`))
			if err != nil || out.(ReadOutput).Content != "port: 5432" {
				t.Fatalf("before: %v, %v", out, err)
			}
			if err := replace(p, secret); err != nil {
				t.Fatal(err)
			}
			out, err = tool.Run(context.Background(), &tools.Call{Uploads: ups}, json.RawMessage(`{"action":"read"}`))
			if !errors.Is(err, ErrReplaced) {
				t.Fatalf("after: %v, %v; want ErrReplaced", out, err)
			}
			if strings.Contains(err.Error(), "PRIVATE") {
				t.Fatalf("error shows the content: %v", err)
			}
		})
	}
}
