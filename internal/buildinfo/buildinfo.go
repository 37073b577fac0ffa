// Package buildinfo owns the opsassist version and describes the running
// binary: version, VCS commit and Go version. Both the server
// (opsassistd, through daemon) and the command-line client read it, so
// the version string is written once.
package buildinfo

import (
	"fmt"
	"runtime/debug"
)

// Version is the opsassist release version, reported by --version and
// to clients in the server's HELLO reply.
const Version = "0.1.0"

// Info describes a binary.
type Info struct {
	// Version is the release version (Version).
	Version string
	// Commit is the VCS revision the binary was built from, with
	// "+dirty" when the work tree had changes, or "unknown" when it was
	// built without VCS information (go run, go test, a tarball).
	Commit string
	// GoVersion is the Go toolchain that built the binary.
	GoVersion string
}

// Read describes the running binary from runtime/debug.ReadBuildInfo.
func Read() Info {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		bi = nil
	}
	return FromBuildInfo(bi)
}

// FromBuildInfo describes the binary bi reports; bi may be nil.
func FromBuildInfo(bi *debug.BuildInfo) Info {
	in := Info{Version: Version, Commit: "unknown", GoVersion: "unknown"}
	if bi == nil {
		return in
	}
	if bi.GoVersion != "" {
		in.GoVersion = bi.GoVersion
	}
	var rev string
	dirty := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev != "" {
		in.Commit = rev
		if dirty {
			in.Commit += "+dirty"
		}
	}
	return in
}

// Line is the one-line --version output for program, for example
// "opsassist 0.1.0 (commit 1a2b3c4, go1.26.8)".
func (in Info) Line(program string) string {
	return fmt.Sprintf("%s %s (commit %s, %s)", program, in.Version, in.Commit, in.GoVersion)
}
