package toolset

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"opsassist/internal/golden"
	"opsassist/tools"
	"opsassist/tools/command"
)

func TestSixTools(t *testing.T) {
	ws := t.TempDir()
	s, err := New(Config{Workspace: ws, Roots: []string{ws}, UploadsDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	want := []string{"sys_monitor", "command_executor", "semantic_search", "file_download", "file_upload", "ask_user"}
	got := s.Registry.Names()
	if len(got) != len(want) {
		t.Fatalf("%v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("%v", got)
		}
	}
	if _, err := command.NewTiers([]string{"/bin/sh"}); err == nil {
		t.Fatal("a path in the whitelist was accepted")
	}
	// The configured tiers reach the tool.
	cmds, err := command.NewTiers([]string{"ls", "uptime"})
	if err != nil {
		t.Fatal(err)
	}
	s2, err := New(Config{Workspace: ws, Roots: []string{ws}, Commands: cmds})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	for _, sp := range s2.Registry.Specs() {
		if sp.Name == "command_executor" && !strings.Contains(sp.Description, "commands): ls, uptime\n") {
			t.Fatalf("command_executor: %q", sp.Description)
		}
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

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// TestSpecsGolden pins the six tool specs as the model sees them: name,
// description and JSON schema, byte for byte, with the default
// configuration. A change to what the model is told shows up as a diff
// of testdata/<tool>.golden; review it and rerun with -update.
func TestSpecsGolden(t *testing.T) {
	ws := t.TempDir()
	s, err := New(Config{Workspace: ws, Roots: []string{ws}, UploadsDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	specs := s.Registry.Specs()
	if len(specs) != 6 {
		t.Fatalf("%d specs", len(specs))
	}
	for _, sp := range specs {
		var params bytes.Buffer
		if err := json.Indent(&params, sp.Parameters, "", "  "); err != nil {
			t.Fatalf("%s: schema is not JSON: %v", sp.Name, err)
		}
		got := fmt.Sprintf("name: %s\ndescription:\n%s\nparameters:\n%s\n", sp.Name, sp.Description, params.Bytes())
		golden.Check(t, filepath.Join("testdata", sp.Name+".golden"), got, *update)
	}
}
