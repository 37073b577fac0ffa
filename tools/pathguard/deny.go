package pathguard

import (
	"fmt"
	"path/filepath"
	"strings"
)

// DefaultDeny returns the deny patterns used when Config.Deny is nil:
// SSH keys and config, dotenv files, Git remotes with credentials, the
// system account databases, and anything named like a secret, key or
// certificate.
func DefaultDeny() []string {
	return []string{
		".ssh",
		".env",
		".git/config",
		"/etc/shadow",
		"/etc/passwd",
		"*secret*",
		"*.pem",
		"id_*",
		"*.key",
		".env.*",
		"credentials",
		".netrc",
		".git-credentials",
		".pgpass",
		"*.p12",
		"*.pfx",
		"*.kdbx",
	}
}

// pattern is one compiled deny pattern.
type pattern struct {
	// raw is the pattern as configured, for error messages.
	raw string
	// segs are the lower-cased glob segments.
	segs []string
	// anchored patterns start with "/" and match the leading segments of
	// a path; the others match any run of consecutive segments.
	anchored bool
}

// compilePattern parses a deny pattern: a filepath.Match glob without
// slashes matches any one path segment ("*.pem"); one with inner slashes
// matches consecutive segments anywhere (".git/config"); one starting with
// "/" matches the path from the root and so also everything under it
// ("/etc/shadow").
func compilePattern(raw string) (pattern, error) {
	p := strings.ToLower(filepath.Clean(raw))
	if raw == "" || p == "." || p == "/" {
		return pattern{}, fmt.Errorf("pathguard: empty deny pattern %q", raw)
	}
	if _, err := filepath.Match(p, ""); err != nil {
		return pattern{}, fmt.Errorf("pathguard: deny pattern %q: %w", raw, err)
	}
	return pattern{
		raw:      raw,
		segs:     splitSegments(p),
		anchored: filepath.IsAbs(p),
	}, nil
}

// match reports whether the pattern matches segs, the lower-cased
// segments of a clean absolute path.
func (p pattern) match(segs []string) bool {
	n := len(p.segs)
	if p.anchored {
		return len(segs) >= n && matchRun(p.segs, segs[:n])
	}
	for i := 0; i+n <= len(segs); i++ {
		if matchRun(p.segs, segs[i:i+n]) {
			return true
		}
	}
	return false
}

// matchRun matches globs against segments pairwise; both have the same
// length.
func matchRun(globs, segs []string) bool {
	for i, g := range globs {
		if ok, _ := filepath.Match(g, segs[i]); !ok {
			return false
		}
	}
	return true
}

// splitSegments returns the non-empty segments of a clean path.
func splitSegments(p string) []string {
	return strings.FieldsFunc(p, func(r rune) bool { return r == filepath.Separator })
}
