package buildinfo

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestFromBuildInfo(t *testing.T) {
	vcs := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	for _, tc := range []struct {
		name string
		bi   *debug.BuildInfo
		want string
	}{
		{"nil", nil, "opsassist 0.1.0 (commit unknown, unknown)"},
		{"no vcs", &debug.BuildInfo{GoVersion: "go1.26.8"}, "opsassist 0.1.0 (commit unknown, go1.26.8)"},
		{"clean", &debug.BuildInfo{GoVersion: "go1.26.8", Settings: vcs("vcs.revision", "abc123", "vcs.modified", "false")}, "opsassist 0.1.0 (commit abc123, go1.26.8)"},
		{"dirty", &debug.BuildInfo{GoVersion: "go1.26.8", Settings: vcs("vcs.modified", "true", "vcs.revision", "abc123")}, "opsassist 0.1.0 (commit abc123+dirty, go1.26.8)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := FromBuildInfo(tc.bi).Line("opsassist"); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestRead(t *testing.T) {
	in := Read()
	if in.Version != Version || in.Commit == "" || !strings.HasPrefix(in.GoVersion, "go") {
		t.Errorf("Read() = %+v", in)
	}
}
