package api

import (
	"fmt"
	"regexp"
	"strconv"
)

// The agent's status texts (StatusThinking, StatusGenerating,
// StatusToolResult contents)
// are said in the language of the question, which is right for the
// model and old clients; they are UI, though, so a client shows them in
// its own language (the CLI its locale). This file is their one owner:
// the agent words them with these functions and a client reads them
// back with ParseThinking and ParseToolResult, then words them again.
const (
	thinkingZh     = "正在思考"
	thinkingEn     = "thinking"
	thinkingStepZh = "正在思考（第 %d 步）"
	thinkingStepEn = "thinking (step %d)"
	toolDoneZh     = "%s 完成 (%d ms)"
	toolDoneEn     = "%s done (%d ms)"
	toolFailedZh   = "%s 失败：%s (%d ms)"
	toolFailedEn   = "%s failed: %s (%d ms)"
	generatingZh   = "正在生成回复"
	generatingEn   = "writing the answer"
)

// The patterns ParseThinking and ParseToolResult read the texts above
// with, in either language.
var (
	thinkingRe   = regexp.MustCompile(`^(?:正在思考（第 (\d+) 步）|thinking \(step (\d+)\)|正在思考|thinking)$`)
	toolDoneRe   = regexp.MustCompile(`^(\S+) (?:完成|done) \((\d+) ms\)$`)
	toolFailedRe = regexp.MustCompile(`(?s)^(\S+) (?:失败：|failed: )(.*) \((\d+) ms\)$`)
)

// ThinkingStatus is the thinking status of a turn's step (1, 2, …), or
// without a step when step is 0.
func ThinkingStatus(step int) Text {
	if step <= 0 {
		return Text{Zh: thinkingZh, En: thinkingEn}
	}
	return Text{Zh: fmt.Sprintf(thinkingStepZh, step), En: fmt.Sprintf(thinkingStepEn, step)}
}

// GeneratingStatus is the generating status: the answer's text starts.
func GeneratingStatus() Text { return Text{Zh: generatingZh, En: generatingEn} }

// IsGenerating says whether content is GeneratingStatus's text in either
// language.
func IsGenerating(content string) bool {
	return content == generatingZh || content == generatingEn
}

// ToolDoneStatus is the tool_result status of a call of tool that
// succeeded in ms milliseconds.
func ToolDoneStatus(tool string, ms int64) Text {
	return Text{Zh: fmt.Sprintf(toolDoneZh, tool, ms), En: fmt.Sprintf(toolDoneEn, tool, ms)}
}

// ToolFailedStatus is the tool_result status of a call of tool that
// failed in ms milliseconds, why in each language.
func ToolFailedStatus(tool string, why Text, ms int64) Text {
	return Text{Zh: fmt.Sprintf(toolFailedZh, tool, why.In(true), ms), En: fmt.Sprintf(toolFailedEn, tool, why.In(false), ms)}
}

// ParseThinking reads a thinking status's content written by
// ThinkingStatus in either language: its step (0: none); ok is false for
// any other text.
func ParseThinking(content string) (step int, ok bool) {
	m := thinkingRe.FindStringSubmatch(content)
	if m == nil {
		return 0, false
	}
	for _, d := range m[1:] {
		if d != "" {
			n, err := strconv.Atoi(d)
			return n, err == nil && n > 0
		}
	}
	return 0, true
}

// ToolResultParts is a tool_result status's content as ParseToolResult
// reads it.
type ToolResultParts struct {
	Tool   string
	Failed bool
	// Why is a failure's reason as written, in the language it was
	// written in.
	Why string
	MS  int64
}

// ParseToolResult reads a tool_result status's content written by
// ToolDoneStatus or ToolFailedStatus in either language; ok is false for
// any other text.
func ParseToolResult(content string) (p ToolResultParts, ok bool) {
	if m := toolDoneRe.FindStringSubmatch(content); m != nil {
		ms, err := strconv.ParseInt(m[2], 10, 64)
		return ToolResultParts{Tool: m[1], MS: ms}, err == nil
	}
	if m := toolFailedRe.FindStringSubmatch(content); m != nil {
		ms, err := strconv.ParseInt(m[3], 10, 64)
		return ToolResultParts{Tool: m[1], Failed: true, Why: m[2], MS: ms}, err == nil
	}
	return ToolResultParts{}, false
}
