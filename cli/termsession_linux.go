package cli

import (
	"os"
	"strconv"
	"strings"

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

// controllingTTY names this process's controlling terminal by its device
// number (field 7 of /proc/self/stat, tty_nr), which every process of
// the terminal's session shares whatever its process group and its
// standard streams; "" without one.
func controllingTTY() string {
	b, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return ""
	}
	return ttyNr(string(b))
}

// ttyNr returns field 7 (tty_nr) of the text of /proc/PID/stat as
// "dev:N", or "" when it is 0 (no controlling terminal) or unreadable;
// fields are counted after the command name's last ')'.
func ttyNr(stat string) string {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return ""
	}
	f := strings.Fields(stat[i+1:])
	if len(f) < 5 || f[4] == "0" {
		return ""
	}
	return "dev:" + f[4]
}
