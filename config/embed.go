package config

import "opsassist/storage/embed"

// EmbedConfig maps the search section onto the embedder's Config, the
// one mapping the daemon and `opsassist eval-retrieval` share. lookup
// reads the API key variable (os.LookupEnv); it is not asked when no
// variable is named. The caller sets the Logger.
func (s Search) EmbedConfig(lookup func(string) (string, bool)) embed.Config {
	key := ""
	if s.APIKeyEnv != "" {
		key, _ = lookup(s.APIKeyEnv)
	}
	return embed.Config{Kind: s.Embedder, Dim: s.Dim, BaseURL: s.BaseURL, Model: s.Model, APIKey: key}
}
