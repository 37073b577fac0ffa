package builtin

import (
	"strings"
	"testing"
)

// TestErrorsInConfigFileIgnoreComments: in an uploaded YAML (or other
// configuration file) comment lines and inline " #" comments are not
// error lines; a real error line still is; a log keeps every line.
func TestErrorsInConfigFileIgnoreComments(t *testing.T) {
	config := "# Unknown keys are an error; a typo is reported at start.\n" +
		"log:\n  level: info  # debug, info, warn or error\n" +
		"// error handling below\n; warn: legacy\nlisten: 127.0.0.1:7000\n"
	for _, name := range []string{"opsassist.yaml", "app.YML", "x.toml", "a.ini", "n.conf", "c.cfg", "p.properties", ".env"} {
		got := describeErrors(true, name, config, false)
		if !strings.Contains(got, "没有找到错误或警告") {
			t.Errorf("%s: %q", name, got)
		}
		got = describeErrors(false, name, config, false)
		if !strings.Contains(got, "No errors or warnings found in "+name) {
			t.Errorf("%s en: %q", name, got)
		}
	}
	got := describeErrors(false, "opsassist.yaml", config+"status: error connecting  # see log\n", false)
	if !strings.Contains(got, "1 error and 0 warnings") || !strings.Contains(got, "status: error connecting") || strings.Contains(got, "see log") {
		t.Errorf("real error in config: %q", got)
	}
	if got := describeErrors(false, "app.log", config, false); strings.Contains(got, "No errors") {
		t.Errorf("a log's lines all count: %q", got)
	}
}
