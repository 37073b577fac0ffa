package cli

import (
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// terminalSession names this process's session: the session leader's
// pid (getsid(0)) and, from /proc/SID/stat, its start time, which a
// later session reusing the pid does not share. "" if unknown.
func terminalSession() string {
	sid, err := unix.Getsid(0)
	if err != nil {
		return ""
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(sid) + "/stat")
	if err != nil {
		return strconv.Itoa(sid)
	}
	return strconv.Itoa(sid) + "@" + sessionStart(string(b))
}
