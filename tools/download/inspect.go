package download

import (
	"encoding/json"
	"fmt"

	"opsassist/tools/pathguard"
	"opsassist/tools/policy"
)

var _ policy.Inspector = (*Tool)(nil)

// classifier is a PathChecker that classifies paths for the policy
// (pathguard.Validator).
type classifier interface {
	Classify(path string) (pathguard.Class, string)
}

// Inspect tells the permission policy where the requested file lies,
// as Config.Paths classifies it.
func (t *Tool) Inspect(raw json.RawMessage) (policy.Target, error) {
	var a struct {
		FilePath string `json:"file_path"`
	}
	if err := json.Unmarshal(raw, &a); err != nil {
		return policy.Target{}, fmt.Errorf("download: bad arguments: %w", err)
	}
	c, ok := t.cfg.Paths.(classifier)
	if !ok {
		return policy.Target{}, fmt.Errorf("download: %T cannot classify paths", t.cfg.Paths)
	}
	class, resolved := c.Classify(a.FilePath)
	return policy.Target{Paths: []policy.Path{{Arg: a.FilePath, Resolved: resolved, Class: class}}}, nil
}
