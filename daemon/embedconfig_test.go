package daemon

import (
	"testing"

	"opsassist/config"
	"opsassist/storage/embed"
)

func TestEmbedConfigMapsSearch(t *testing.T) {
	lookup := func(k string) (string, bool) {
		if k == "EMB_KEY" {
			return "sk-1", true
		}
		return "", false
	}
	s := config.Search{Embedder: "openai", Dim: 1024, BaseURL: "http://127.0.0.1:1/v1", Model: "m", APIKeyEnv: "EMB_KEY"}
	got := embedConfig(s, lookup, nil)
	want := embed.Config{Kind: embed.KindOpenAI, Dim: 1024, BaseURL: s.BaseURL, Model: "m", APIKey: "sk-1"}
	if got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
	// No variable named: no key, and the lookup is not asked.
	s.APIKeyEnv = ""
	if got := embedConfig(s, func(string) (string, bool) { t.Fatal("lookup called"); return "", false }, nil); got.APIKey != "" {
		t.Errorf("key %q without api_key_env", got.APIKey)
	}
	if e, err := embed.New(embedConfig(config.Defaults().Search, lookup, nil)); err != nil || e.Name() != "builtin-hash-v1-768" {
		t.Errorf("defaults: %v %v", e, err)
	}
}
