package config

import (
	"testing"

	"opsassist/storage/embed"
)

func TestEmbedConfigMapsSearch(t *testing.T) {
	lookup := func(k string) (string, bool) {
		if k == "EMB_KEY" {
			return "sk-1", true
		}
		return "", false
	}
	s := Search{Embedder: "openai", Dim: 1024, BaseURL: "http://127.0.0.1:1/v1", Model: "m", APIKeyEnv: "EMB_KEY"}
	got := s.EmbedConfig(lookup)
	want := embed.Config{Kind: embed.KindOpenAI, Dim: 1024, BaseURL: s.BaseURL, Model: "m", APIKey: "sk-1"}
	if got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
	// No variable named: no key, and the lookup is not asked.
	s.APIKeyEnv = ""
	if got := s.EmbedConfig(func(string) (string, bool) { t.Fatal("lookup called"); return "", false }); got.APIKey != "" {
		t.Errorf("key %q without api_key_env", got.APIKey)
	}
	if e, err := embed.New(Defaults().Search.EmbedConfig(lookup)); err != nil || e.Name() != "builtin-hash-v1-768" {
		t.Errorf("defaults: %v %v", e, err)
	}
}
