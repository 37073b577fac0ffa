package cli

import (
	"context"
	"os"
	"testing"
)

// envTestCLI, set to 1, makes the test binary run as the opsassist
// program (its arguments after the program name), so the shell
// completion scripts can be run against it.
const envTestCLI = "OPSASSIST_TEST_AS_CLI"

func TestMain(m *testing.M) {
	if os.Getenv(envTestCLI) == "1" {
		c := &CLI{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv}
		os.Exit(c.Run(context.Background(), os.Args[1:]))
	}
	os.Exit(m.Run())
}
