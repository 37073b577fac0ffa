//go:build !unix

package cli

// redraw has no way to ask liner to redraw here: the REPL prints the
// prompt itself (the typed text is not shown again).
func (l *linerReader) redraw() {}

// redraws reports whether redraw redraws the prompt and the typed text.
func (l *linerReader) redraws() bool { return false }
