package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"
	"go.uber.org/zap"

	"opsassist/agent"
	"opsassist/internal/oaretry"
	"opsassist/storage/history"
	"opsassist/tools/command"
)

// Config configures a Planner.
type Config struct {
	// BaseURL is the API base, e.g. https://open.bigmodel.cn/api/paas/v4.
	BaseURL string
	// Model is the model id.
	Model string
	// APIKey authenticates; never logged.
	APIKey string
	// Timeout bounds one request (not the stream as a whole once tokens
	// flow). Default 60s.
	Timeout time.Duration
	// MaxRetries bounds retries of a failed request. Default 4.
	MaxRetries int
	// Backoff is the retry schedule. Default 500ms doubling to 20s.
	Backoff oaretry.Backoff
	// TextProtocol makes the planner describe tools in the prompt and read
	// TOOL:/ARGS: lines, for models without native tool calling.
	TextProtocol bool
	// Commands are the command tiers, the same value command_executor was
	// built with; the system prompt lists the whitelisted commands.
	// Default: the zero command.Tiers, the default whitelist.
	Commands command.Tiers
	// Transport is the HTTP transport. Default http.DefaultTransport.
	Transport http.RoundTripper
	// Sleep waits between retries. Default: a timer honouring ctx.
	Sleep func(ctx context.Context, d time.Duration) error
	// Logger receives logs. Default: discard.
	Logger *zap.Logger
}

// Planner plans with an OpenAI-compatible model.
type Planner struct {
	cfg    Config
	retry  oaretry.Policy
	client *openai.Client
}

var _ agent.Planner = (*Planner)(nil)

// New returns a Planner.
func New(cfg Config) *Planner {
	retry := oaretry.Policy{Timeout: cfg.Timeout, MaxRetries: cfg.MaxRetries, Backoff: cfg.Backoff, Sleep: cfg.Sleep, Logger: cfg.Logger}.WithDefaults()
	cfg.Timeout, cfg.MaxRetries, cfg.Backoff, cfg.Sleep, cfg.Logger = retry.Timeout, retry.MaxRetries, retry.Backoff, retry.Sleep, retry.Logger
	return &Planner{cfg: cfg, retry: retry, client: oaretry.NewClient(cfg.BaseURL, cfg.APIKey, cfg.Transport)}
}

// Plan asks the model for the next step, streaming its text.
func (p *Planner) Plan(ctx context.Context, req *agent.PlanRequest, delta func(string) error) (*agent.Step, error) {
	creq := openai.ChatCompletionRequest{Model: p.cfg.Model, Messages: p.messages(req), Stream: true}
	if !p.cfg.TextProtocol {
		for _, s := range req.Tools {
			creq.Tools = append(creq.Tools, openai.Tool{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{
				Name: s.Name, Description: s.Description, Parameters: s.Parameters}})
		}
	}
	stream, done, err := p.open(ctx, creq)
	if err != nil {
		return nil, err
	}
	defer done()
	st, err := p.read(stream, delta)
	if err != nil {
		return nil, err
	}
	if p.cfg.TextProtocol {
		parseTextProtocol(st)
	}
	return st, nil
}

// open starts the stream, retrying what is worth retrying: a failure
// before the first token has cost the user nothing.
// The returned func closes the stream and releases its context.
func (p *Planner) open(ctx context.Context, creq openai.ChatCompletionRequest) (*openai.ChatCompletionStream, func(), error) {
	var stream *openai.ChatCompletionStream
	release, err := p.retry.Do(ctx, func(rctx context.Context) error {
		var err error
		stream, err = p.client.CreateChatCompletionStream(rctx, creq)
		return err
	})
	if err != nil {
		if ctx.Err() != nil {
			return nil, nil, err
		}
		return nil, nil, fmt.Errorf("llm: %s: %w", p.cfg.Model, err)
	}
	return stream, func() { stream.Close(); release() }, nil
}

// read consumes the stream: text to delta, tool calls assembled by index.
func (p *Planner) read(stream *openai.ChatCompletionStream, delta func(string) error) (*agent.Step, error) {
	var content strings.Builder
	type partial struct {
		id, name string
		args     strings.Builder
	}
	var calls []*partial
	byIndex := map[int]*partial{}
	gate := textGate{enabled: p.cfg.TextProtocol}
	for {
		resp, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("llm: reading stream: %w", err)
		}
		for _, ch := range resp.Choices {
			if d := ch.Delta.Content; d != "" {
				content.WriteString(d)
				if out := gate.feed(d); out != "" {
					if err := delta(out); err != nil {
						return nil, err
					}
				}
			}
			for _, tc := range ch.Delta.ToolCalls {
				i := len(calls)
				if tc.Index != nil {
					i = *tc.Index
				}
				pc := byIndex[i]
				if pc == nil {
					pc = &partial{}
					byIndex[i] = pc
					calls = append(calls, pc)
				}
				if tc.ID != "" {
					pc.id = tc.ID
				}
				if tc.Function.Name != "" {
					pc.name = tc.Function.Name
				}
				pc.args.WriteString(tc.Function.Arguments)
			}
		}
	}
	if out := gate.flush(); out != "" {
		if err := delta(out); err != nil {
			return nil, err
		}
	}
	st := &agent.Step{Content: content.String()}
	for n, pc := range calls {
		id := pc.id
		if id == "" {
			id = fmt.Sprintf("call_%d", n+1)
		}
		st.ToolCalls = append(st.ToolCalls, history.ToolCall{ID: id, Name: pc.name, Arguments: pc.args.String()})
	}
	return st, nil
}

// cancelledNote ends a cancelled answer (history.Message.Cancelled) in
// the model's context.
const cancelledNote = "[cancelled by the user before the answer was complete]"

// messages converts the conversation, with the system prompt first.
func (p *Planner) messages(req *agent.PlanRequest) []openai.ChatCompletionMessage {
	out := []openai.ChatCompletionMessage{{Role: openai.ChatMessageRoleSystem, Content: systemPrompt(req, p.cfg.Commands, p.cfg.TextProtocol)}}
	for _, m := range req.Messages {
		switch m.Role {
		case "tool":
			if p.cfg.TextProtocol {
				out = append(out, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: "TOOL RESULT " + m.Name + ": " + m.Content})
				continue
			}
			out = append(out, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleTool, ToolCallID: m.ToolCallID, Name: m.Name, Content: m.Content})
		case "assistant":
			am := openai.ChatCompletionMessage{Role: openai.ChatMessageRoleAssistant, Content: m.Content}
			if m.Cancelled { // the user stopped it: say so, and never send an empty answer
				am.Content = strings.TrimSpace(am.Content + "\n" + cancelledNote)
			}
			for _, tc := range m.ToolCalls {
				if p.cfg.TextProtocol {
					am.Content += "\nTOOL: " + tc.Name + "\nARGS: " + tc.Arguments
					continue
				}
				am.ToolCalls = append(am.ToolCalls, openai.ToolCall{ID: tc.ID, Type: openai.ToolTypeFunction,
					Function: openai.FunctionCall{Name: tc.Name, Arguments: tc.Arguments}})
			}
			out = append(out, am)
		case "user", "system":
			out = append(out, openai.ChatCompletionMessage{Role: m.Role, Content: m.Content})
		}
	}
	return out
}
