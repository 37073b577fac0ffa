// Package search is the semantic_search tool: hybrid (vector + keyword +
// file name) search over system documents and the calling conversation's
// uploads.
package search

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"

	"opsassist/api"
	"opsassist/internal/runecut"
	"opsassist/storage/index"
	"opsassist/tools"
)

// ErrIndexUnavailable is returned when the tool has no index.
var ErrIndexUnavailable = errors.New("semantic index unavailable")

// Searcher runs a query (index.Index).
type Searcher interface {
	Search(ctx context.Context, q index.Query) ([]index.Hit, error)
}

// Waiter waits until a conversation's uploads are indexed
// (indexer.Indexer).
type Waiter interface {
	WaitIdle(ctx context.Context, conversationID string) error
}

// Config configures the tool.
type Config struct {
	// Index answers queries. Without it every call fails with
	// ErrIndexUnavailable.
	Index Searcher
	// Pending, if set, lets a search of uploads wait for uploads still
	// being indexed, so a question asked right after an upload sees it.
	Pending Waiter
	// MaxWait bounds that wait. Default 10s.
	MaxWait time.Duration
	// MinScore is the relevance floor (config search.min_score, see
	// index.Hit.Relevant): hits below it are dropped, and with none left
	// the answer has Status StatusNoRelevant. 0 keeps every hit.
	MinScore float64
}

// Tool is the semantic_search tool.
type Tool struct{ cfg Config }

var _ tools.Tool = (*Tool)(nil)

// New returns the tool.
func New(cfg Config) *Tool {
	if cfg.MaxWait <= 0 {
		cfg.MaxWait = 10 * time.Second
	}
	return &Tool{cfg: cfg}
}

// MaxQueryChars is the longest query the schema accepts, in characters
// (JSON Schema's maxLength counts characters): the index reads the first
// index.MaxQueryBytes bytes of a query (index.Query.Text), so no query
// it reads whole is longer, and a longer one would be cut whatever it
// says. A query of at most this many characters that is longer than
// index.MaxQueryBytes in UTF-8 (over about 340 Chinese characters) is
// still cut there; the schema's description says so.
const MaxQueryChars = index.MaxQueryBytes

// CutQuery is a query as the index reads it: its first
// index.MaxQueryBytes bytes, cut at a character boundary. A planner
// that passes the user's words as the query cuts them with it, so the
// call is never refused for a length the index would not read anyway.
func CutQuery(q string) string { return runecut.Head(q, index.MaxQueryBytes) }

// schema is the tool's parameter schema: the query's maxLength and its
// description follow index.MaxQueryBytes, the one bound.
func schema() string {
	return fmt.Sprintf(`{
  "type": "object",
  "properties": {
    "query": {"type": "string", "minLength": 1, "maxLength": %d, "description": "what to look for, in natural language or a file name; only its first %d bytes of UTF-8 (about %d Chinese characters) are read"},
    "scope": {"type": "string", "enum": ["all", "system", "uploads"], "description": "system = project docs; uploads = this conversation's uploads"},
    "top_k": {"type": "integer", "minimum": 1, "maximum": 20}
  },
  "required": ["query"],
  "additionalProperties": false
}`, MaxQueryChars, index.MaxQueryBytes, index.MaxQueryBytes/3)
}

// Spec describes the tool.
func (t *Tool) Spec() tools.Spec {
	return tools.Spec{
		Name: "semantic_search",
		Description: "通过自然语言检索文件（系统文档与本会话上传的文件），返回文件路径与内容片段。Search documents and uploads by meaning or file name.\n" +
			"- \"如何配置数据库？\" → query=数据库配置说明, scope=system\n" +
			"- \"找一下我上传的日志\" → scope=uploads\n" +
			"- \"下载config.yaml\" → first semantic_search query=config.yaml top_k=1, then file_download with the filepath\n" +
			"关键词：搜索、检索、查找、文档、文件、配置、日志",
		Summary: api.Text{Zh: "通过自然语言检索系统文档和本对话上传的文件，返回文件路径与内容片段。",
			En: "Search the system's documents and this conversation's uploads by meaning or file name."},
		Parameters: json.RawMessage(schema()),
		Risk:       tools.RiskReadOnly,
		Timeout:    20 * time.Second,
	}
}

// Output is the tool's result, as the contract specifies.
type Output struct {
	Total   int      `json:"total"`
	Results []Result `json:"results"`
	// Status is StatusLoading while the index is still loading after a
	// start; Message then says so in Chinese and English.
	Status  string `json:"status,omitempty"`
	Message string `json:"message,omitempty"`
}

// StatusLoading marks an answer given while the index loads.
const StatusLoading = "loading"

// StatusNoRelevant marks an answer whose hits all fell below the
// relevance floor: the index had files, none close enough to the query.
const StatusNoRelevant = "no_relevant"

// noRelevantMessage tells the model and the user nothing matched well
// enough, and how to search differently.
const noRelevantMessage = "没有找到足够相关的内容。可以换个说法、用文档里会出现的关键词或文件名再搜索，或指定范围（系统文档/上传的文件）。 Nothing relevant enough was found; try other words, keywords likely to appear in the document, a file name, or another scope (system documents or uploads)."

// loadingMessage tells the model and the user that nothing could be
// searched yet.
const loadingMessage = "搜索索引正在加载（服务刚启动），暂时无法检索，请稍后再试。 The search index is still loading after a restart; nothing can be searched yet, try again shortly."

// Result is one file found.
type Result struct {
	Filename string `json:"filename"`
	Filepath string `json:"filepath"`
	// Similarity is the score that admitted the hit: the cosine
	// similarity of the query and its file's closest passage
	// (index.Hit.FloorSimilarity), which the relevance floor judges —
	// never under MinScore but for a file the query names. Chunk may be
	// another passage, the closest that carries the query's words
	// (index evidence); its own similarity may be far lower, and it
	// alone decides Strong.
	Similarity float64 `json:"similarity"`
	Chunk      string  `json:"chunk"`
	Position   string  `json:"position"`
	// Strong marks a hit to present as relevant; the others are only
	// possibly related (index.Hit.Strong).
	Strong bool `json:"strong,omitempty"`
}

// relevanceLookahead is how many files past top_k the tool asks the
// index for when a relevance floor is set: relevance is judged before
// the cut, so that when the best-ranked files share no content word with
// the query a lower-ranked one that does is still shown. It bounds the
// extra work to top_k + relevanceLookahead files checked.
const relevanceLookahead = 12

// maxChunk is the longest chunk excerpt returned, in characters.
const maxChunk = 200

// Run searches.
func (t *Tool) Run(ctx context.Context, call *tools.Call, raw json.RawMessage) (any, error) {
	if t.cfg.Index == nil {
		return nil, tools.WithCode(tools.CodeUnavailable, ErrIndexUnavailable)
	}
	var a struct {
		Query string `json:"query"`
		Scope string `json:"scope"`
		TopK  int    `json:"top_k"`
	}
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, err
	}
	if a.Scope == "" {
		a.Scope = index.QueryAll
	}
	if a.TopK <= 0 {
		a.TopK = 3
	}
	if t.cfg.Pending != nil && a.Scope != index.QuerySystem && call.SessionID != "" {
		wctx, cancel := context.WithTimeout(ctx, t.cfg.MaxWait)
		err := t.cfg.Pending.WaitIdle(wctx, call.SessionID)
		cancel()
		if err != nil && ctx.Err() != nil {
			return nil, ctx.Err()
		} // else search what is indexed so far
	}
	want := a.TopK
	if t.cfg.MinScore > 0 {
		want += relevanceLookahead
	}
	hits, err := t.cfg.Index.Search(ctx, index.Query{Text: a.Query, Scope: a.Scope, ConversationID: call.SessionID, TopK: want})
	if errors.Is(err, index.ErrLoading) {
		return Output{Results: []Result{}, Status: StatusLoading, Message: loadingMessage}, nil
	}
	if err != nil {
		return nil, err
	}
	out := Output{Results: make([]Result, 0, len(hits))}
	for _, h := range hits {
		if !h.Relevant(t.cfg.MinScore) {
			continue
		}
		if len(out.Results) == a.TopK {
			break
		}
		out.Results = append(out.Results, Result{
			Filename: h.File.Name, Filepath: h.File.Path, Position: h.Position,
			Similarity: math.Round(float64(max(h.FloorSimilarity(), 0))*1000) / 1000,
			Chunk:      Snippet(h.Chunk, maxChunk),
			Strong:     h.Strong(),
		})
	}
	out.Total = len(out.Results)
	if len(hits) > 0 && out.Total == 0 {
		out.Status, out.Message = StatusNoRelevant, noRelevantMessage
	}
	return out, nil
}
