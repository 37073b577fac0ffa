package daemon

import (
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"

	"go.uber.org/zap/zaptest"

	"opsassist/api"
	"opsassist/config"
)

// TestUnsetVariableMakesOneServerUnavailable: a ${VAR} unset in one
// enabled server does not stop the daemon: /api/health and /api/tools
// show that server unavailable, naming the variable; the other server
// is started.
func TestUnsetVariableMakesOneServerUnavailable(t *testing.T) {
	const unset = "OPSASSIST_TEST_NEVER_SET_TOKEN"
	if _, ok := os.LookupEnv(unset); ok {
		t.Skipf("%s is set", unset)
	}
	cfg := testConfig(t.TempDir())
	cfg.Search.DocRoots = nil
	cfg.MCPServers = map[string]config.MCPServer{
		"broken": {URL: "http://127.0.0.1:1/mcp", Headers: map[string]string{"Authorization": "Bearer ${" + unset + "}"}},
		"other":  {URL: "http://127.0.0.1:1/mcp"},
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	a, err := New(cfg, zaptest.NewLogger(t))
	if err != nil {
		t.Fatalf("New with an unset variable: %v", err)
	}
	a.Start()
	defer stop(t, a)
	base := "http://" + a.HTTPAddr().String()
	want := "unavailable (0 tools, 0 restarts): mcp_servers.broken.headers.Authorization: environment variable " + unset + " is not set"

	var h struct {
		Components map[string]string `json:"components"`
	}
	getJSON(t, base+"/api/health", &h)
	if got := h.Components["mcp:broken"]; got != want {
		t.Fatalf("mcp:broken = %q, want %q", got, want)
	}
	if h.Components["mcp:other"] == "" {
		t.Fatalf("components %v", h.Components)
	}
	var cat api.Catalog
	getJSON(t, base+"/api/tools", &cat)
	found := false
	for _, s := range cat.Servers {
		if s.Name == "broken" {
			found = s.State == "unavailable" && strings.Contains(s.Reason, "environment variable "+unset+" is not set")
		}
	}
	if !found {
		t.Fatalf("servers %+v", cat.Servers)
	}
}

func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if err := json.NewDecoder(res.Body).Decode(v); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %v", url, res.StatusCode, err)
	}
}
