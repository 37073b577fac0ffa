package download

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"opsassist/storage/tokens"
	"opsassist/tools"
	"opsassist/tools/pathguard"
)

// TestApprovedOutsideRoots: a file outside the roots is offered only to
// an approved call; a secret is refused approved or not, named directly
// or through a link inside the roots.
func TestApprovedOutsideRoots(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root, other := filepath.Join(base, "root"), filepath.Join(base, "other")
	for _, d := range []string{root, filepath.Join(other, ".aws")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	plain, key := filepath.Join(other, "hostname"), filepath.Join(other, ".aws", "credentials")
	for _, p := range []string{plain, key} {
		if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(root, "creds")
	if err := os.Symlink(key, link); err != nil {
		t.Fatal(err)
	}
	v, err := pathguard.New(pathguard.Config{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	tool, err := New(Config{Paths: v, Approved: v.Approved(), Tokens: tokens.NewStore(0)})
	if err != nil {
		t.Fatal(err)
	}
	run := func(approved bool, p string) error {
		_, err := tool.Run(context.Background(), &tools.Call{Approved: approved}, json.RawMessage(`{"file_path":"`+p+`"}`))
		return err
	}
	if err := run(false, plain); !errors.Is(err, pathguard.ErrOutsideRoots) {
		t.Fatalf("unapproved: %v, want ErrOutsideRoots", err)
	}
	if err := run(true, plain); err != nil {
		t.Fatalf("approved: %v", err)
	}
	for _, p := range []string{key, link} {
		if err := run(true, p); !errors.Is(err, pathguard.ErrForbidden) {
			t.Fatalf("approved %s: %v, want ErrForbidden", p, err)
		}
	}
	for p, want := range map[string]pathguard.Class{plain: pathguard.Outside, key: pathguard.Secret, link: pathguard.Secret} {
		tg, err := tool.Inspect(json.RawMessage(`{"file_path":"` + p + `"}`))
		if err != nil || len(tg.Paths) != 1 || tg.Paths[0].Class != want {
			t.Fatalf("Inspect(%s) = %+v, %v, want %s", p, tg, err, want)
		}
	}
}
