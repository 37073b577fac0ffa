package chat

import "testing"

// TestWithoutPaths: a skip reason loses the directories of the paths it
// names, keeping their base names.
func TestWithoutPaths(t *testing.T) {
	for in, want := range map[string]string{
		"open /srv/data/uploads/x/a.pdf: bad": "open a.pdf: bad",
		`read "C:\data\up\b.txt" failed`:      `read "b.txt" failed`,
		"too large: 5 bytes, limit 3":         "too large: 5 bytes, limit 3",
		"/etc/":                               "etc",
	} {
		if got := withoutPaths(in); got != want {
			t.Errorf("withoutPaths(%q) = %q, want %q", in, got, want)
		}
	}
}
