package pathguard

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Config configures a Validator.
type Config struct {
	// Roots are the directories paths must lie inside. Each is resolved
	// like a checked path (symbolic links followed, so a root may itself
	// be a link); a root that does not exist yet is kept as written.
	// At least one is required.
	Roots []string
	// Deny are glob patterns (filepath.Match syntax, matched
	// case-insensitively) that refuse a path even inside a root. A
	// pattern without "/" matches any segment ("*.pem"), one with inner
	// slashes any run of segments (".git/config"), one starting with "/"
	// the path from the root and everything under it ("/etc/shadow").
	// Nil means DefaultDeny(); an empty non-nil slice denies nothing.
	Deny []string
	// BaseDir is the directory relative paths are resolved against.
	// Default: the working directory when New is called.
	BaseDir string
	// AllowHardlinks lets Open and Pin accept a regular file with more
	// than one hard link. Off by default: a hard link planted inside a
	// root can be another name for a file outside it (/etc/shadow on the
	// same file system), and no check on the name can tell.
	AllowHardlinks bool
	// Protected are files and directories refused like a deny pattern,
	// compared exactly (no globs, case kept) against the written, the
	// resolved and the opened path; each is also resolved when New is
	// called, so a protected directory reached through a link is still
	// refused by its real path. The daemon's data directory, config
	// file, TLS key and certificate.
	Protected []string
	// Exempt are directories under a Protected one that stay reachable
	// (the uploads, for downloads that check their owner themselves).
	// They lift Protected only, never a deny pattern. A root strictly
	// under a Protected directory is exempt too (a workspace inside the
	// data directory): the operator named it.
	Exempt []string
}

// Validator checks paths against roots and deny patterns. It is safe for
// concurrent use.
type Validator struct {
	roots          []string
	deny           []pattern
	protected      []string
	exempt         []string
	base           string
	allowHardlinks bool
	// outsideOK accepts paths outside the roots (Approved).
	outsideOK bool
	// afterCheck and afterOpen, if set, run between the steps of open
	// (tests: they swap files at the worst moment).
	afterCheck, afterOpen func()
}

// New returns a Validator for cfg.
func New(cfg Config) (*Validator, error) {
	if len(cfg.Roots) == 0 {
		return nil, errors.New("pathguard: no roots configured")
	}
	v := &Validator{base: cfg.BaseDir, allowHardlinks: cfg.AllowHardlinks}
	if v.base == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("pathguard: base dir: %w", err)
		}
		v.base = wd
	}
	if !filepath.IsAbs(v.base) {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("pathguard: base dir: %w", err)
		}
		v.base = wd + string(filepath.Separator) + v.base
	}
	for _, r := range cfg.Roots {
		if r == "" {
			return nil, errors.New("pathguard: empty root")
		}
		abs, err := v.absolute(r)
		if err != nil {
			return nil, err
		}
		root, err := resolve(abs)
		if err != nil {
			return nil, fmt.Errorf("pathguard: root %q: %w", r, err)
		}
		v.roots = append(v.roots, root)
	}
	deny := cfg.Deny
	if deny == nil {
		deny = DefaultDeny()
	}
	for _, raw := range deny {
		p, err := compilePattern(raw)
		if err != nil {
			return nil, err
		}
		v.deny = append(v.deny, p)
	}
	var err error
	if v.protected, err = v.both(cfg.Protected); err != nil {
		return nil, err
	}
	if v.exempt, err = v.both(cfg.Exempt); err != nil {
		return nil, err
	}
	for _, r := range v.roots {
		if slices.ContainsFunc(v.protected, func(d string) bool { return r != d && under(r, d) }) {
			v.exempt = append(v.exempt, r)
		}
	}
	return v, nil
}

// both returns each of paths made absolute and clean, and also resolved
// when that differs.
func (v *Validator) both(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		if p == "" {
			continue
		}
		abs, err := v.absolute(p)
		if err != nil {
			return nil, err
		}
		abs = filepath.Clean(abs)
		if abs == string(filepath.Separator) {
			return nil, fmt.Errorf("pathguard: protected path %q is the whole file system", p)
		}
		out = append(out, abs)
		if r, err := resolve(abs); err == nil && r != abs {
			out = append(out, r)
		}
	}
	return out, nil
}

// Check resolves path and returns the resolved absolute path if it lies
// inside a root and matches no deny pattern. A relative path is resolved
// against the base directory. The error is an *Error of kind
// ErrOutsideRoots, ErrForbidden or ErrInvalid naming path as given.
//
// The answer is only true when it is given: to read the file, use Open or
// Pin, which check the file they open.
func (v *Validator) Check(path string) (string, error) {
	abs, err := v.absolute(path)
	if err != nil {
		return "", err
	}
	// Approved (and so in Classify), the path as written is checked
	// first, so a denied path that cannot be resolved (/proc/1/root/…
	// without the rights) is still named as denied, never asked about.
	if pat, ok := v.denied(filepath.Clean(abs)); ok && v.outsideOK {
		e := refuse(ErrForbidden, path, nil)
		e.Pattern = pat
		return "", e
	}
	resolved, err := resolve(abs)
	if err != nil {
		return "", refuse(ErrInvalid, path, unwrapPathError(err))
	}
	// Both forms are checked: the resolved path so a link cannot lead to
	// a denied file, the written one so a link named like a key is
	// refused whatever it points to.
	if err := v.allowed(path, filepath.Clean(abs), resolved); err != nil {
		return "", err
	}
	return resolved, nil
}

// allowed checks that the physical path resolved lies inside a root and
// that neither it nor the other forms of the path match a deny pattern.
func (v *Validator) allowed(path, written, resolved string) error {
	if !v.outsideOK && !v.inside(resolved) {
		return refuse(ErrOutsideRoots, path, nil)
	}
	for _, p := range []string{written, resolved} {
		if pat, ok := v.denied(p); ok {
			e := refuse(ErrForbidden, path, nil)
			e.Pattern = pat
			return e
		}
	}
	return nil
}

// absolute prefixes a relative path with the base directory. It does not
// clean the result: ".." must be applied to resolved components.
func (v *Validator) absolute(path string) (string, error) {
	if path == "" {
		return "", refuse(ErrInvalid, path, errors.New("empty path"))
	}
	if strings.IndexByte(path, 0) >= 0 {
		return "", refuse(ErrInvalid, path, errors.New("contains a NUL byte"))
	}
	if filepath.IsAbs(path) {
		return path, nil
	}
	return v.base + string(filepath.Separator) + path, nil
}

// inside reports whether the resolved path p is a root or lies below one.
func (v *Validator) inside(p string) bool {
	for _, r := range v.roots {
		if p == r || r == string(filepath.Separator) ||
			strings.HasPrefix(p, r) && p[len(r)] == filepath.Separator {
			return true
		}
	}
	return false
}

// denied returns the first deny pattern matching the clean absolute path
// p, if any.
func (v *Validator) denied(p string) (string, bool) {
	segs := splitSegments(strings.ToLower(p))
	for _, pat := range v.deny {
		if pat.match(segs) {
			return pat.raw, true
		}
	}
	if under(p, "/dev") && p != "/dev/null" && p != "/dev/zero" && p != "/dev/urandom" {
		return "/dev", true
	}
	for _, d := range v.protected {
		if under(p, d) && !slices.ContainsFunc(v.exempt, func(e string) bool { return under(p, e) }) {
			return d, true
		}
	}
	return "", false
}

// under reports whether the clean path p is dir or lies under it.
func under(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, dir) && len(p) > len(dir) && p[len(dir)] == filepath.Separator
}

// unwrapPathError drops the *fs.PathError around an errno, since the
// caller names the path already.
func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
