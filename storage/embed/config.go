package embed

import (
	"go.uber.org/zap"
)

// Embedder kinds a Config selects.
const (
	// KindBuiltin is the offline Builtin embedder.
	KindBuiltin = "builtin"
	// KindOpenAI is an OpenAI-compatible embeddings API (OpenAI).
	KindOpenAI = "openai"
)

// Config selects and configures an embedder. The daemon maps the
// configuration file's search section onto it.
type Config struct {
	// Kind is KindBuiltin or KindOpenAI; any other value, the empty
	// string included, selects KindBuiltin. Default builtin.
	Kind string
	// Dim is the vector dimension: DefaultDim for builtin when <= 0;
	// required for openai (the model's output size).
	Dim int
	// BaseURL is the embeddings API base for openai, e.g.
	// http://127.0.0.1:11434/v1.
	BaseURL string
	// Model is the embedding model id for openai.
	Model string
	// APIKey authenticates to the embeddings API; never logged. Empty for
	// keyless servers.
	APIKey string
	// Logger receives the openai embedder's logs, named "embed". Default:
	// discard.
	Logger *zap.Logger
}

// New builds the embedder cfg describes.
func New(cfg Config) (Embedder, error) {
	if cfg.Kind != KindOpenAI {
		return NewBuiltin(cfg.Dim), nil
	}
	log := cfg.Logger
	if log == nil {
		log = zap.NewNop()
	}
	return NewOpenAI(OpenAIConfig{BaseURL: cfg.BaseURL, APIKey: cfg.APIKey, Model: cfg.Model, Dim: cfg.Dim, Logger: log.Named("embed")})
}
