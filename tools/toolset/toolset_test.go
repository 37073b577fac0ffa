package toolset

import (
	"testing"
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
