//go:build !linux

package cli

// keepTypeAhead is Linux's; elsewhere the terminal keeps its settings.
func keepTypeAhead(int) (restore func()) { return func() {} }
