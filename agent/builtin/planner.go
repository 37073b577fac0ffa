package builtin

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"maps"
	"strings"

	"opsassist/agent"
	"opsassist/storage/history"
	"opsassist/tools/askuser"
	"opsassist/tools/command"
	"opsassist/tools/search"
)

// DefaultMaxInput is the longest chat text the planner reads, in bytes.
const DefaultMaxInput = 16 << 10

// Config configures the offline planner.
type Config struct {
	// MaxInput is the longest chat text, in bytes, the planner reads. A
	// longer message is answered, in the user's language, with a request
	// to shorten it or upload it as a file, and no tool runs: cutting a
	// command line short could run a different command. Default
	// DefaultMaxInput (16 KiB).
	MaxInput int
	// Commands are the command tiers, the same value command_executor
	// was built with: the planner turns requests for whitelisted
	// commands into calls ("执行 uptime" once uptime is whitelisted),
	// refuses the others, and lists the whitelist when it refuses.
	// Default: the zero command.Tiers, the default whitelist.
	Commands command.Tiers
}

// Planner is the offline planner. The zero value is ready to use, with
// the default Config.
type Planner struct {
	cfg  Config
	cmds *commands // nil: defaultCommands
}

var _ agent.Planner = Planner{}

// New returns a Planner.
func New(cfg Config) Planner { return Planner{cfg: cfg, cmds: newCommands(cfg.Commands)} }

// commands is the planner's view of its command tiers.
func (p Planner) commands() *commands {
	if p.cmds == nil {
		return defaultCommands
	}
	return p.cmds
}

// maxInput is Config.MaxInput or its default.
func (p Planner) maxInput() int {
	if p.cfg.MaxInput > 0 {
		return p.cfg.MaxInput
	}
	return DefaultMaxInput
}

// Plan decides the next step from the user's message and the tool results
// of this turn so far. It is deterministic.
func (p Planner) Plan(ctx context.Context, req *agent.PlanRequest, delta func(string) error) (*agent.Step, error) {
	input := req.Turn.Input
	zh := agent.IsChinese(input)
	if len(input) > p.maxInput() {
		return p.stream(ctx, &agent.Step{Content: tooLong(zh, len(input), p.maxInput())}, delta)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	in := p.Classify(input, len(req.Turn.Uploads) > 0)
	if in.Tool == "" && in.Kind != "refuse" && in.Kind != "assistant" {
		if f, ok := p.followUp(input, req.Messages, len(req.Turn.Uploads) > 0); ok {
			in = f // "那 redis 的端口呢？" after a question about an upload
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err // the client left while the message was classified
	}
	results := turnResults(req.Messages)
	canCall := len(req.Tools) > 0

	st := agent.Step{Refusal: in.Kind == "refuse"}
	switch {
	case len(results) == 0 && canAsk(req.Tools) && len(ambiguousDownload(in, input, req.Turn.Uploads)) > 1:
		st.ToolCalls = []history.ToolCall{newCall(1, askuser.Name, whichFile(zh, ambiguousDownload(in, input, req.Turn.Uploads)))}
	case len(results) == 0 && in.Tool != "" && canCall:
		st.ToolCalls = []history.ToolCall{newCall(1, in.Tool, in.Args)}
	case len(results) > 0 && canCall:
		if next, ok := chainNext(in, results, req.Turn.Uploads); ok {
			st.ToolCalls = []history.ToolCall{newCall(len(results)+1, next.name, next.args)}
			break
		}
		st.Content = answer(zh, in, results, p.commands().tiers)
	default:
		st.Content = answer(zh, in, results, p.commands().tiers)
	}
	return p.stream(ctx, &st, delta)
}

// MarksRefusals reports that the planner marks its refusals
// (agent.Step.Refusal), for the eval's refusal count.
func (Planner) MarksRefusals() bool { return true }

// stream sends st's text to delta in small chunks, stopping when the
// turn is cancelled, and returns st.
func (Planner) stream(ctx context.Context, st *agent.Step, delta func(string) error) (*agent.Step, error) {
	if st.Content != "" {
		for _, chunk := range agent.Chunks(st.Content, 24) {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if err := delta(chunk); err != nil {
				return nil, err
			}
		}
	}
	return st, nil
}

// tooLong is the answer to a message longer than the planner reads.
func tooLong(zh bool, n, limit int) string {
	kb := func(b int) int { return (b + 1023) / 1024 }
	if zh {
		return fmt.Sprintf("这条消息有 %d KB，超过了离线助手能读的 %d KB，所以我没有处理它，也没有运行任何命令。请缩短消息；长文本可以作为文件上传，再问我关于它的问题。", kb(n), kb(limit))
	}
	return fmt.Sprintf("This message is %d KB, more than the %d KB the offline assistant reads, so I did not act on it or run anything. Please shorten it; long text can be uploaded as a file and asked about.", kb(n), kb(limit))
}

// result is one tool message of this turn, decoded.
type result struct {
	tool    string
	args    map[string]any
	Success bool            `json:"success"`
	Output  json.RawMessage `json:"output"`
	Error   string          `json:"error"`
	// code is the Result's failure code (tools.UserText says it).
	code string
	cut  bool
}

// turnResults returns the tool results after the last user message, with
// the arguments of the calls that produced them.
func turnResults(msgs []history.Message) []result {
	start := 0
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "user" {
			start = i + 1
			break
		}
	}
	args := map[string]map[string]any{}
	var out []result
	for _, m := range msgs[start:] {
		for _, tc := range m.ToolCalls {
			var a map[string]any
			json.Unmarshal([]byte(tc.Arguments), &a)
			args[tc.ID] = a
		}
		if m.Role != "tool" {
			continue
		}
		r := result{tool: m.Name, args: args[m.ToolCallID]}
		// The offline planner reads the whole result: Content is what a
		// model is given, cut to its budget (head and tail of the JSON
		// text, which no longer parses) when the result was long.
		content := m.Content
		if m.Full != "" {
			content = m.Full
		}
		var raw struct {
			Success         bool            `json:"success"`
			Output          json.RawMessage `json:"output"`
			Error           string          `json:"error"`
			OutputTruncated bool            `json:"output_truncated"`
			Code            string          `json:"code"`
		}
		if err := json.Unmarshal([]byte(content), &raw); err != nil {
			r.Error = "unreadable tool result"
		} else {
			r.Success, r.Output, r.Error, r.cut, r.code = raw.Success, raw.Output, raw.Error, raw.OutputTruncated, raw.Code
		}
		out = append(out, r)
	}
	return out
}

type nextCall struct {
	name string
	args map[string]any
}

// chainNext continues the contract's chains: a download searches, then
// prepares the top hit; "this file" downloads the newest upload; a
// question about "this file" lists, then reads it; a comparison lists,
// then reads the two files (compareNext).
func chainNext(in Intent, results []result, uploads []history.Upload) (nextCall, bool) {
	if next, ok := compareNext(in, results); ok {
		return next, true
	}
	last := results[len(results)-1]
	if in.Kind != "download" {
		return nextCall{}, false
	}
	for _, r := range results {
		if r.tool == "file_download" {
			return nextCall{}, false // done
		}
	}
	switch last.tool {
	case askuser.Name:
		if u, ok := chosenFile(last, uploads); ok {
			return nextCall{"file_download", map[string]any{"file_path": u.FilePath}}, true
		}
	case "semantic_search":
		// A file asked for by name must be that file, not merely the
		// closest document.
		if p, name := topHit(last); p != "" && (!looksLikeFileName(in.Query) || strings.EqualFold(name, in.Query)) {
			return nextCall{"file_download", map[string]any{"file_path": p}}, true
		}
		// No index, or no hit: a file of that name among the uploads will do.
		for i := len(uploads) - 1; i >= 0; i-- {
			if strings.EqualFold(uploads[i].Filename, in.Query) {
				return nextCall{"file_download", map[string]any{"file_path": uploads[i].FilePath}}, true
			}
		}
	case "file_upload":
		var out struct {
			Files []struct {
				FilePath string `json:"file_path"`
			} `json:"files"`
		}
		if last.Success && json.Unmarshal(last.Output, &out) == nil && len(out.Files) > 0 {
			return nextCall{"file_download", map[string]any{"file_path": out.Files[len(out.Files)-1].FilePath}}, true
		}
	}
	return nextCall{}, false
}

// topHit returns the path and name of a search's first result.
func topHit(r result) (path, name string) {
	if !r.Success {
		return "", ""
	}
	var out struct {
		Results []struct {
			Filename string `json:"filename"`
			Filepath string `json:"filepath"`
		} `json:"results"`
	}
	if json.Unmarshal(r.Output, &out) != nil || len(out.Results) == 0 {
		return "", ""
	}
	return out.Results[0].Filepath, out.Results[0].Filename
}

// looksLikeFileName reports whether q is a single name with an extension,
// such as config.yaml.
func looksLikeFileName(q string) bool {
	q = strings.TrimSpace(q)
	i := strings.LastIndexByte(q, '.')
	return i > 0 && i < len(q)-1 && !strings.ContainsAny(q, " \t/")
}

// newCall is the n-th call of a step. Its id is unique across turns and
// conversations ("builtin_<n>_<random>"), as a model's are: the audit
// log and the transports name a call by it.
func newCall(n int, name string, args map[string]any) history.ToolCall {
	if q, ok := args["query"].(string); ok && name == "semantic_search" && search.CutQuery(q) != q {
		// The user's words as the query: only what the index reads, so
		// the schema's maxLength never refuses a long question.
		args = maps.Clone(args)
		args["query"] = search.CutQuery(q)
	}
	b, _ := json.Marshal(args)
	return history.ToolCall{ID: fmt.Sprintf("builtin_%d_%s", n, rand.Text()[:12]), Name: name, Arguments: string(b)}
}
