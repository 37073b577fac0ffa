package command

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"opsassist/tools"
)

// TestExitErrorClass: a command's failure is an execution error (never
// retried) whatever its stderr says; one killed at its limit is a
// timeout.
func TestExitErrorClass(t *testing.T) {
	refused := &ExitError{Output: Output{ExitCode: 7, Stderr: "curl: (7) Failed to connect to 127.0.0.1 port 9: Connection refused\n"}}
	if got := tools.Classify(fmt.Errorf("run: %w", refused)); got != tools.ClassExecution {
		t.Fatalf("%q: %q", refused, got)
	}
	if got := tools.Classify(&ExitError{Timeout: time.Second, Err: ErrTimeout}); got != tools.ClassTimeout {
		t.Fatalf("timeout: %q", got)
	}
	if got := tools.Classify(&ExitError{Err: errors.New("signal: killed")}); got != tools.ClassExecution {
		t.Fatalf("signal: %q", got)
	}
}
