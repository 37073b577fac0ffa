package embed

import "testing"

func TestNewSelectsEmbedder(t *testing.T) {
	for _, tc := range []struct {
		cfg  Config
		name string
	}{
		{Config{}, "builtin-hash-v1-768"},
		{Config{Kind: KindBuiltin, Dim: 64}, "builtin-hash-v1-64"},
		{Config{Kind: "other", Dim: 32}, "builtin-hash-v1-32"},
		{Config{Kind: KindOpenAI, BaseURL: "http://127.0.0.1:1/v1", Model: "m", Dim: 8, APIKey: "k"}, "openai-m-8"},
	} {
		e, err := New(tc.cfg)
		if err != nil {
			t.Fatalf("%+v: %v", tc.cfg, err)
		}
		if e.Name() != tc.name {
			t.Errorf("%+v: got %s, want %s", tc.cfg, e.Name(), tc.name)
		}
	}
	if _, err := New(Config{Kind: KindOpenAI, Model: "m", Dim: 8}); err == nil {
		t.Error("openai without a base URL accepted")
	}
}
