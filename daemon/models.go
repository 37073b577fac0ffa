package daemon

import (
	"context"

	"opsassist/agent/llm"
	"opsassist/chat"
	"opsassist/config"
)

// modelInfo returns the chat core's two views of a model, both from its
// provider's configuration (never its key) and one prober: info reports
// the cached reachability and never waits (a stale result starts a
// background probe); check waits for a fresh one, bounded by the
// probe's short timeout, for the chat path's fail-fast check.
func modelInfo(cfg config.Config, p *llm.Prober) (info func(string) chat.ModelInfo, check func(context.Context, string) chat.ModelInfo) {
	providers := map[string]config.Provider{}
	for _, pr := range cfg.AllProviders() {
		if _, dup := providers[pr.Name]; !dup {
			providers[pr.Name] = pr
		}
	}
	describe := func(name string, reach func(string) llm.Reach) chat.ModelInfo {
		pr, ok := providers[name]
		if !ok {
			return chat.ModelInfo{Name: name, Provider: name, Reachable: name == "builtin"}
		}
		r := reach(pr.BaseURL)
		return chat.ModelInfo{Name: name, Provider: pr.Name, Model: pr.Model, BaseURL: pr.BaseURL,
			Reachable: r.Reachable, Reason: r.Reason, CheckedAt: r.CheckedAt}
	}
	info = func(name string) chat.ModelInfo { return describe(name, p.Cached) }
	check = func(ctx context.Context, name string) chat.ModelInfo {
		return describe(name, func(u string) llm.Reach { return p.Check(ctx, u) })
	}
	return info, check
}
