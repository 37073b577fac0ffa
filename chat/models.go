package chat

import (
	"context"
	"fmt"
	"time"

	"opsassist/api"
)

// ModelInfo describes one selectable model for model lists: where it
// runs (never a secret) and whether its endpoint answered the last
// reachability probe.
type ModelInfo struct {
	Name      string    `json:"name"`
	Provider  string    `json:"provider"`
	Model     string    `json:"model,omitempty"`
	BaseURL   string    `json:"base_url,omitempty"`
	Reachable bool      `json:"reachable"`
	Reason    string    `json:"reason,omitempty"`
	CheckedAt time.Time `json:"checked_at,omitzero"`
}

// ModelDetails describes every selectable model, in Models order. It
// never waits for a probe: Config.ModelInfo reports cached results.
func (s *Service) ModelDetails() []ModelInfo {
	out := make([]ModelInfo, 0, len(s.cfg.Models))
	for _, name := range s.cfg.Models {
		var mi ModelInfo
		if s.cfg.ModelInfo != nil {
			mi = s.cfg.ModelInfo(name)
		}
		mi.Name = name
		if mi.Provider == "" {
			mi.Provider = name
		}
		if name == "builtin" {
			mi.Reachable, mi.Reason = true, "" // the offline planner is always there
		}
		out = append(out, mi)
	}
	return out
}

// modelUnreachable is the user's view of a turn refused because its
// model's endpoint did not answer the reachability probe. Its text is
// client-neutral ("e.g. builtin"): each client adds how to switch
// there (the CLI's /model builtin or --model builtin, the page's
// picker).
type modelUnreachable struct {
	zh           bool
	name, reason string
}

func (e modelUnreachable) Error() string {
	if e.zh {
		return fmt.Sprintf("模型 %s 当前不可达（%s）。请换一个模型，例如 builtin。", e.name, ProbeReasonText(true, e.reason))
	}
	return fmt.Sprintf("model %s is unreachable (%s). Choose another model, e.g. builtin.", e.name, ProbeReasonText(false, e.reason))
}

// modelError checks the turn's model before the agent runs: a model
// whose endpoint the probe found unreachable fails at once, in the
// user's language, instead of after the agent's retries. builtin is
// never checked.
func (se *Session) modelError(ctx context.Context, input, model string) *Error {
	if se.svc.cfg.CheckModel == nil || model == "builtin" {
		return nil
	}
	mi := se.svc.cfg.CheckModel(ctx, model)
	if mi.Reachable {
		return nil
	}
	return &Error{Code: api.CodeAgentError, Err: modelUnreachable{zh: IsChinese(input), name: model, reason: mi.Reason}}
}
