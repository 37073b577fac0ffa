package embed

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"
	"go.uber.org/zap"

	"opsassist/internal/oaretry"
)

// OpenAIConfig configures an OpenAI-compatible embeddings client
// (text-embedding-v3, embedding-3, nomic-embed-text through Ollama…).
type OpenAIConfig struct {
	// BaseURL is the API base, e.g. http://127.0.0.1:11434/v1. Required.
	BaseURL string
	// APIKey authenticates; never logged. Empty for keyless servers.
	APIKey string
	// Model is the embedding model id. Required.
	Model string
	// Dim is the vector dimension the model returns. Required: the index
	// records it and never mixes dimensions.
	Dim int
	// SendDimensions asks the server for Dim dimensions (for models with
	// adjustable output size). Default false.
	SendDimensions bool
	// BatchSize is the number of texts per request. Default 32.
	BatchSize int
	// Timeout bounds one request. Default 60s.
	Timeout time.Duration
	// MaxRetries bounds retries of a failed request. Default 4.
	MaxRetries int
	// Backoff is the retry schedule. Default 500ms doubling to 20s.
	Backoff oaretry.Backoff
	// Transport is the HTTP transport. Default http.DefaultTransport.
	Transport http.RoundTripper
	// Sleep waits between retries. Default: a timer honouring ctx.
	Sleep func(ctx context.Context, d time.Duration) error
	// Logger receives logs. Default: discard.
	Logger *zap.Logger
}

// OpenAI embeds through an OpenAI-compatible /embeddings endpoint.
type OpenAI struct {
	cfg    OpenAIConfig
	retry  oaretry.Policy
	client *openai.Client
	name   string
}

var _ Embedder = (*OpenAI)(nil)

// ErrBadResponse means the server answered with the wrong number or size
// of vectors.
var ErrBadResponse = errors.New("embed: unexpected embeddings response")

// NewOpenAI returns an embedder for cfg.
func NewOpenAI(cfg OpenAIConfig) (*OpenAI, error) {
	if cfg.BaseURL == "" || cfg.Model == "" || cfg.Dim <= 0 {
		return nil, errors.New("embed: BaseURL, Model and Dim are required")
	}
	if cfg.BatchSize <= 0 {
		cfg.BatchSize = 32
	}
	retry := oaretry.Policy{Timeout: cfg.Timeout, MaxRetries: cfg.MaxRetries, Backoff: cfg.Backoff, Sleep: cfg.Sleep, Logger: cfg.Logger}.WithDefaults()
	return &OpenAI{cfg: cfg, retry: retry, client: oaretry.NewClient(cfg.BaseURL, cfg.APIKey, cfg.Transport),
		name: fmt.Sprintf("openai-%s-%d", cfg.Model, cfg.Dim)}, nil
}

// Dim returns the configured dimension.
func (e *OpenAI) Dim() int { return e.cfg.Dim }

// Name returns "openai-<model>-<dim>".
func (e *OpenAI) Name() string { return e.name }

// Embed embeds texts in batches, retrying 429, 5xx and connection
// failures. Empty texts are sent as a single space (some servers reject
// empty input).
func (e *OpenAI) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += e.cfg.BatchSize {
		batch := texts[start:min(start+e.cfg.BatchSize, len(texts))]
		vecs, err := e.batch(ctx, batch)
		if err != nil {
			return nil, err
		}
		out = append(out, vecs...)
	}
	return out, nil
}

// batch embeds one request's worth of texts.
func (e *OpenAI) batch(ctx context.Context, texts []string) ([][]float32, error) {
	input := make([]string, len(texts))
	for i, t := range texts {
		if strings.TrimSpace(t) == "" {
			t = " "
		}
		input[i] = t
	}
	req := openai.EmbeddingRequestStrings{Input: input, Model: openai.EmbeddingModel(e.cfg.Model), EncodingFormat: openai.EmbeddingEncodingFormatFloat}
	if e.cfg.SendDimensions {
		req.Dimensions = e.cfg.Dim
	}
	var resp openai.EmbeddingResponse
	release, err := e.retry.Do(ctx, func(rctx context.Context) error {
		var err error
		resp, err = e.client.CreateEmbeddings(rctx, req)
		return err
	})
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		return nil, fmt.Errorf("embed: %s: %w", e.cfg.Model, err)
	}
	release()
	return e.vectors(resp, len(texts))
}

// vectors orders a response's vectors by index and checks their count
// and dimension.
func (e *OpenAI) vectors(resp openai.EmbeddingResponse, n int) ([][]float32, error) {
	if len(resp.Data) != n {
		return nil, fmt.Errorf("%w: %d vectors for %d texts", ErrBadResponse, len(resp.Data), n)
	}
	out := make([][]float32, n)
	for _, d := range resp.Data {
		if d.Index < 0 || d.Index >= n || out[d.Index] != nil {
			return nil, fmt.Errorf("%w: index %d", ErrBadResponse, d.Index)
		}
		if len(d.Embedding) != e.cfg.Dim {
			return nil, fmt.Errorf("%w: dimension %d, configured %d", ErrBadResponse, len(d.Embedding), e.cfg.Dim)
		}
		for _, v := range d.Embedding {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return nil, fmt.Errorf("%w: non-finite value in vector %d", ErrBadResponse, d.Index)
			}
		}
		out[d.Index] = d.Embedding
	}
	return out, nil
}
