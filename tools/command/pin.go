package command

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"opsassist/tools/pathguard"
)

// maxPinned bounds the file arguments of one command, each of which holds
// a descriptor while it runs.
const maxPinned = 64

// firstChildFD is the descriptor number of a child's first extra file.
const firstChildFD = 3

// pinned is a command line whose file arguments have been replaced by
// descriptors opened on the checked files.
type pinned struct {
	// argv is what the child runs: argv[0] is the command name, and each
	// pinned file argument reads /proc/self/fd/N.
	argv []string
	// shown is the command line as asked for, for Output.Command.
	shown []string
	// files are the child's descriptors 3, 4, …
	files []*os.File
	// names maps the descriptor paths in argv back to the arguments as
	// written, for the command's output (headers, error messages).
	names *strings.Replacer
}

// pin opens every argument the command reads as a file through
// Paths.Pin and replaces it by the descriptor's /proc/self/fd path, so the
// command opens the file that was checked and not whatever the name leads
// to a moment later (a link swapped in). A file that does not exist is
// refused: a name that does not exist yet could be created as a link
// before the command opens it.
//
// Arguments only checked (argMaybeFile: values of unknown options,
// every argument of a command without a table) are passed as they are;
// ps has no file arguments, and runs with c.run, its arguments as check
// rewrote them.
func (e *Executor) pin(name string, args []string, c checked) (*pinned, error) {
	p := &pinned{
		argv:  append([]string{name}, c.run...),
		shown: append([]string{name}, args...),
	}
	var pairs []string
	for _, it := range c.items {
		if it.kind != argFile || it.arg == "" || it.arg == "-" {
			continue
		}
		if len(p.files) == maxPinned {
			p.close()
			return nil, &refusal{msg: fmt.Sprintf("%s may read at most %d files at once; name fewer files", name, maxPinned), err: ErrTooManyFiles}
		}
		f, _, err := c.paths.Pin(e.absolute(it.arg))
		if err != nil {
			p.close()
			return nil, asWritten(err, it.arg)
		}
		fdPath := pathguard.FDPath(firstChildFD + len(p.files))
		p.files = append(p.files, f)
		p.argv[it.idx+1] = it.prefix + fdPath
		pairs = append(pairs, fdPath, it.arg)
	}
	if len(p.files) > 0 && c.deref != "" {
		// /proc/self/fd/N is a link: the command must follow it.
		p.argv = slices.Insert(p.argv, 1, c.deref)
	}
	// Higher descriptors first, so that /proc/self/fd/31 is not taken for
	// /proc/self/fd/3 followed by "1".
	for i, j := 0, len(pairs)-2; i < j; i, j = i+2, j-2 {
		pairs[i], pairs[i+1], pairs[j], pairs[j+1] = pairs[j], pairs[j+1], pairs[i], pairs[i+1]
	}
	p.names = strings.NewReplacer(pairs...)
	return p, nil
}

// close closes the parent's copies of the descriptors.
func (p *pinned) close() {
	for _, f := range p.files {
		f.Close()
	}
	p.files = nil
}
