package embed

import (
	"go.uber.org/zap"

	"opsassist/config"
)

// FromConfig builds the embedder described by s; lookup reads the API
// key variable (os.LookupEnv).
func FromConfig(s config.Search, lookup func(string) (string, bool), log *zap.Logger) (Embedder, error) {
	if s.Embedder != "openai" {
		return NewBuiltin(s.Dim), nil
	}
	if log == nil {
		log = zap.NewNop()
	}
	key := ""
	if s.APIKeyEnv != "" {
		key, _ = lookup(s.APIKeyEnv)
	}
	return NewOpenAI(OpenAIConfig{BaseURL: s.BaseURL, APIKey: key, Model: s.Model, Dim: s.Dim, Logger: log.Named("embed")})
}
