package daemon

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"opsassist/agent/llm"
	"opsassist/config"
)

// TestModelInfoFromProviderAndProbe: a model's details come from its
// provider's configuration and the prober's cached result.
func TestModelInfoFromProviderAndProbe(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusOK) }))
	defer srv.Close()
	cfg := config.Config{Providers: []config.Provider{{Name: "local", BaseURL: srv.URL + "/v1", Model: "qwen", APIKeyEnv: "SECRET_ENV"}}}
	p := llm.NewProber(llm.ProberConfig{})
	info, check := modelInfo(cfg, p)
	if mi := info("local"); mi.Reachable || !mi.CheckedAt.IsZero() {
		t.Fatalf("before any probe: %+v", mi)
	}
	p.Check(context.Background(), srv.URL+"/v1")
	mi := info("local")
	if !mi.Reachable || mi.Model != "qwen" || mi.BaseURL != srv.URL+"/v1" || mi.Provider != "local" {
		t.Fatalf("%+v", mi)
	}
	if mi := check(context.Background(), "local"); !mi.Reachable {
		t.Fatalf("check: %+v", mi)
	}
	if mi := info("builtin"); mi.Provider != "builtin" {
		t.Fatalf("%+v", mi)
	}
}
