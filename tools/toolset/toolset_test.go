package toolset

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"opsassist/tools"
)

func TestFiveTools(t *testing.T) {
	ws := t.TempDir()
	s, err := New(Config{Workspace: ws, Roots: []string{ws}, UploadsDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	want := []string{"sys_monitor", "command_executor", "semantic_search", "file_download", "file_upload"}
	got := s.Registry.Names()
	if len(got) != len(want) {
		t.Fatalf("%v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("%v", got)
		}
	}
	if _, err := New(Config{Workspace: ws, Roots: []string{ws}, Commands: []string{"/bin/sh"}}); err == nil {
		t.Fatal("a path in the whitelist was accepted")
	}
}

// TestAllowHardlinksReachesTheTools plants a hard link in the workspace:
// command_executor and file_download refuse it unless AllowHardlinks.
func TestAllowHardlinksReachesTheTools(t *testing.T) {
	tmp := t.TempDir()
	ws := filepath.Join(tmp, "ws")
	os.Mkdir(ws, 0o700)
	os.WriteFile(filepath.Join(tmp, "outside.txt"), []byte("outside"), 0o600)
	if err := os.Link(filepath.Join(tmp, "outside.txt"), filepath.Join(ws, "planted.txt")); err != nil {
		t.Fatal(err)
	}
	for _, allow := range []bool{false, true} {
		s, err := New(Config{Workspace: ws, Roots: []string{ws}, AllowHardlinks: allow})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		for tool, args := range map[string]string{
			"command_executor": `{"command":"cat","args":["planted.txt"]}`,
			"file_download":    `{"file_path":"planted.txt"}`,
		} {
			res := s.Registry.Execute(t.Context(), &tools.Call{}, tool, args).Result
			if res.Success != allow || !allow && !strings.Contains(res.Error, "hard links") {
				t.Errorf("%s with AllowHardlinks %v: %+v", tool, allow, res)
			}
		}
	}
}
