package daemon

import (
	"opsassist/agent/llm"
	"opsassist/chat"
	"opsassist/config"
)

// modelInfo describes a model for model lists from its provider's
// configuration (never its key) and the prober's cached reachability;
// asking starts a background probe when the cached result is stale, so
// it never waits.
func modelInfo(cfg config.Config, p *llm.Prober) func(string) chat.ModelInfo {
	providers := map[string]config.Provider{}
	for _, pr := range cfg.AllProviders() {
		if _, dup := providers[pr.Name]; !dup {
			providers[pr.Name] = pr
		}
	}
	return func(name string) chat.ModelInfo {
		pr, ok := providers[name]
		if !ok {
			return chat.ModelInfo{Name: name, Provider: name}
		}
		r := p.Cached(pr.BaseURL)
		return chat.ModelInfo{Name: name, Provider: pr.Name, Model: pr.Model, BaseURL: pr.BaseURL,
			Reachable: r.Reachable, Reason: r.Reason, CheckedAt: r.CheckedAt}
	}
}
