package mcp

import (
	"testing"

	"opsassist/tools/policy"
)

func newDefaultPolicy(t *testing.T) *policy.Policy {
	p, err := policy.New(policy.Config{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}
