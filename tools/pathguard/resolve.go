package pathguard

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// maxLinks bounds the symbolic links followed while resolving one path,
// like the kernel's limit on nested links.
const maxLinks = 255

// errLinkLoop reports too many symbolic links.
var errLinkLoop = errors.New("too many levels of symbolic links")

// resolve returns the physical path that the absolute path p names. It
// walks p one component at a time, as the kernel does: a symbolic link is
// replaced by its target, and ".." goes to the parent of what has been
// resolved so far, not of what was written. Unlike filepath.EvalSymlinks
// it does not fail on a missing file: from the first component that does
// not exist, the rest is appended as written (".." then removes a missing
// component again). A dangling link is followed to its missing target.
func resolve(p string) (string, error) {
	dest := string(filepath.Separator)
	missing := 0 // trailing components of dest that do not exist
	links := 0
	rest := p
	for rest != "" {
		var comp string
		comp, rest, _ = strings.Cut(rest, string(filepath.Separator))
		switch comp {
		case "", ".":
			continue
		case "..":
			if missing > 0 {
				missing--
			}
			dest = filepath.Dir(dest)
			continue
		}
		next := filepath.Join(dest, comp)
		if missing > 0 {
			dest = next
			missing++
			continue
		}
		fi, err := os.Lstat(next)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			dest = next
			missing = 1
			continue
		case err != nil:
			return "", err
		case fi.Mode()&fs.ModeSymlink == 0:
			dest = next
			continue
		}
		links++
		if links > maxLinks {
			return "", &fs.PathError{Op: "resolve", Path: p, Err: errLinkLoop}
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", err
		}
		if filepath.IsAbs(target) {
			dest = string(filepath.Separator)
		}
		rest = target + string(filepath.Separator) + rest
	}
	return dest, nil
}
