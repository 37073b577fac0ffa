package chat

import "time"

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
