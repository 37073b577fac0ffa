// Package search is the semantic_search tool's front: its contract (name,
// description, parameters) and, until the index lands with the storage
// issue, a clear "index unavailable" answer.
package search

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"opsassist/tools"
)

// ErrIndexUnavailable is returned while no index is configured.
var ErrIndexUnavailable = errors.New("semantic index unavailable: document and upload search is not part of this build yet")

// Tool is the semantic_search tool.
//
// Placeholder: the vector index arrives with the storage issue; until
// then every call returns ErrIndexUnavailable, as the agent issue
// specifies.
type Tool struct{}

var _ tools.Tool = Tool{}

const schema = `{
  "type": "object",
  "properties": {
    "query": {"type": "string", "minLength": 1, "description": "what to look for, in natural language or a file name"},
    "scope": {"type": "string", "enum": ["all", "system", "uploads"], "description": "system = project docs; uploads = this conversation's uploads"},
    "top_k": {"type": "integer", "minimum": 1, "maximum": 20}
  },
  "required": ["query"],
  "additionalProperties": false
}`

// Spec describes the tool.
func (Tool) Spec() tools.Spec {
	return tools.Spec{
		Name: "semantic_search",
		Description: "通过自然语言检索文件（系统文档与本会话上传的文件），返回文件路径与内容片段。Search documents and uploads by meaning or file name.\n" +
			"- \"如何配置数据库？\" → query=数据库配置说明, scope=system\n" +
			"- \"找一下我上传的日志\" → scope=uploads\n" +
			"- \"下载config.yaml\" → first semantic_search query=config.yaml top_k=1, then file_download with the filepath\n" +
			"关键词：搜索、检索、查找、文档、文件、配置、日志",
		Parameters: json.RawMessage(schema),
		Risk:       tools.RiskReadOnly,
		Timeout:    20 * time.Second,
	}
}

// Run reports that the index is unavailable.
func (Tool) Run(context.Context, *tools.Call, json.RawMessage) (any, error) {
	return nil, ErrIndexUnavailable
}
