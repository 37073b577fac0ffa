package daemon

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"opsassist/api"
	"opsassist/tools/audit"
)

// TestDaemonToolsEndpoints: a whole daemon's GET /api/tools lists its
// built-in tools, and POST /api/tools/sys_monitor runs it through the
// registry, its audit record marked direct.
func TestDaemonToolsEndpoints(t *testing.T) {
	data := t.TempDir()
	a := startApp(t, data)
	defer stop(t, a)
	base := "http://" + a.HTTPAddr().String()
	res, err := http.Get(base + "/api/tools")
	if err != nil {
		t.Fatal(err)
	}
	var cat api.Catalog
	err = json.NewDecoder(res.Body).Decode(&cat)
	res.Body.Close()
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET /api/tools: %d %v", res.StatusCode, err)
	}
	found := false
	for _, ti := range cat.Tools {
		if ti.Source != api.SourceBuiltin || !ti.Available || ti.Risk == "" || len(ti.Parameters) == 0 {
			t.Errorf("tool %+v", ti)
		}
		found = found || ti.Name == "sys_monitor"
	}
	if !found || cat.Servers == nil {
		t.Fatalf("catalog %+v", cat)
	}
	res, err = http.Post(base+"/api/tools/sys_monitor", "application/json", strings.NewReader(`{"arguments":{"metric":"cpu"}}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	var r struct {
		Success bool
		Output  json.RawMessage
	}
	if json.Unmarshal(body, &r) != nil || res.StatusCode != http.StatusOK || !r.Success || len(r.Output) == 0 {
		t.Fatalf("POST /api/tools/sys_monitor: %d %s", res.StatusCode, body)
	}
	files, _ := filepath.Glob(filepath.Join(data, audit.DirName, "*.jsonl"))
	if len(files) == 0 {
		t.Fatal("no audit file")
	}
	b, err := os.ReadFile(files[len(files)-1])
	if err != nil || !strings.Contains(string(b), `"tool":"sys_monitor"`) || !strings.Contains(string(b), `"direct":true`) {
		t.Fatalf("audit %s %v", b, err)
	}
}
