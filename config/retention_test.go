package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRetentionKeys: retention loads from YAML (days or a duration) and
// from the environment; bad and negative values are refused, naming the
// key.
func TestRetentionKeys(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "c.yaml")
	os.WriteFile(f, []byte("retention:\n  drop_empty: true\n  max_conversations: 50\n  max_age: 30d\n"), 0o600)
	c, err := load(t, []string{"--config", f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r := c.Retention; !r.DropEmpty || r.MaxConversations != 50 || time.Duration(r.MaxAge) != 30*24*time.Hour {
		t.Fatalf("%+v", r)
	}
	c, err = load(t, nil, map[string]string{"OPSASSIST_RETENTION_MAX_AGE": "12h"})
	if err != nil || time.Duration(c.Retention.MaxAge) != 12*time.Hour {
		t.Fatalf("env: %v %v", c.Retention.MaxAge, err)
	}
	for _, tc := range []struct {
		yaml, want string
	}{
		{"retention:\n  max_age: 30 days\n", "bad age"},
		{"retention:\n  max_age: -1d\n", "bad age"},
		{"retention:\n  max_age: -5h\n", "retention.max_age"},
		{"retention:\n  max_conversations: -1\n", "retention.max_conversations"},
	} {
		os.WriteFile(f, []byte(tc.yaml), 0o600)
		if _, err := load(t, []string{"--config", f}, nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v", tc.yaml, err)
		}
	}
	if b, _ := Age(30 * 24 * time.Hour).MarshalText(); string(b) != "30d" {
		t.Fatal(string(b))
	}
}
