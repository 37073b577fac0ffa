package pathguard

import (
	"fmt"
	"path/filepath"
	"strings"
)

// DefaultDeny returns the deny patterns used when Config.Deny is nil.
// They are matched case-insensitively against every run of segments of
// the path as written, of the resolved path and of the path the opened
// descriptor has, so "a/.SSH/b", a link to .env and a file inside .aws all
// match. docs/security.md lists them with the reasons.
func DefaultDeny() []string {
	return []string{
		// SSH and GnuPG keys and their directories.
		".ssh",
		".gnupg",
		"id_*",
		"ssh_host_*key*",
		// Private keys and key stores.
		"*.pem",
		"*.key",
		"*.p12",
		"*.pfx",
		"*.jks",
		"*.keystore",
		"*.ppk",
		"*.kdbx",
		".password-store",
		// Environment files.
		".env",
		".env.*",
		"*.env",
		// Credentials of tools and package managers.
		".git/config",
		".git-credentials",
		".netrc",
		"_netrc",
		".pgpass",
		".my.cnf",
		".npmrc",
		".pypirc",
		".vault-token",
		".kube/config",
		".docker/config.json",
		".config/gh",
		".config/containers/auth.json",
		"*kubeconfig*",
		".dockercfg",
		"credentials.toml",
		".terraformrc",
		"terraform.rc",
		"*.tfrc.json",
		".config/rclone/rclone.conf",
		"*.keytab",
		".s3cfg",
		".boto",
		// Cloud credentials.
		".aws",
		".config/gcloud",
		".azure",
		".oci",
		"credentials",
		"credentials.json",
		"*.tfstate",
		"*.tfstate.*",
		// Shell, REPL and database client histories.
		"*_history",
		".histfile",
		".lesshst",
		".viminfo",
		// Browser password stores and cookies (Firefox, Chrome).
		"logins.json",
		"key3.db",
		"key4.db",
		"cookies.sqlite",
		"Login Data",
		// Anything named like a secret.
		"*secret*",
		// System account databases and private system keys.
		"/etc/shadow*",
		"/etc/gshadow*",
		"/etc/passwd",
		"/etc/sudoers",
		"/etc/sudoers.d",
		"/etc/ssl/private",
		"/etc/wireguard",
		"/etc/NetworkManager/system-connections",
		"/etc/mysql/debian.cnf",
		"/etc/credstore*",
		"/etc/kubernetes/admin.conf",
		"/etc/kubernetes/super-admin.conf",
		"/etc/kubernetes/controller-manager.conf",
		"/etc/kubernetes/scheduler.conf",
		"/etc/kubernetes/kubelet.conf",
		"/etc/kubernetes/pki",
		"/etc/rancher/k3s/k3s.yaml",
		// Processes' environments, memory and open files, of the
		// process ("/proc/self", "/proc/thread-self" as written, which
		// resolve to a pid and a task) and of each of its threads.
		"/proc/*/environ",
		"/proc/*/mem",
		"/proc/*/fd",
		"/proc/*/map_files",
		"/proc/*/root",
		"/proc/*/cwd",
		"/proc/*/task/*/environ",
		"/proc/*/task/*/mem",
		"/proc/*/task/*/fd",
		"/proc/*/task/*/map_files",
		"/proc/*/task/*/root",
		"/proc/*/task/*/cwd",
		"/proc/kcore",
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
