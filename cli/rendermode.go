package cli

import "errors"

// Environment variables of Markdown rendering.
const (
	// EnvRender is the --render flag's default: auto, always or never.
	EnvRender = "OPSASSIST_RENDER"
	// EnvNoColor, set to any non-empty value, turns colour off
	// (https://no-color.org); rendered Markdown keeps its layout.
	EnvNoColor = "NO_COLOR"
)

// Render modes of --render.
const (
	renderAuto   = "auto"   // render when stdout is a terminal
	renderAlways = "always" // render even into a pipe or file
	renderNever  = "never"  // print the Markdown source unchanged
)

// renderFlag is the --render flag's value.
type renderFlag struct{ mode string }

func (f *renderFlag) String() string { return f.mode }

func (f *renderFlag) Set(s string) error {
	switch s {
	case renderAuto, renderAlways, renderNever:
		f.mode = s
		return nil
	}
	// The flag package prints this after `invalid value "x" for flag
	// -render: `, so it carries no package prefix.
	return errors.New("want auto, always or never")
}

// markdown decides how answers are printed to stdout: rendered or as
// source, and, when rendered, in colour or not. tty is whether stdout is
// a terminal.
func (c *CLI) markdown(cfg cliConfig, tty bool) (render, colour bool) {
	switch cfg.render.mode {
	case renderAlways:
		render = true
	case renderNever:
		render = false
	default:
		render = tty
	}
	return render, render && c.colour()
}

// colour reports whether NO_COLOR leaves colour on.
func (c *CLI) colour() bool { return c.getenv(EnvNoColor) == "" }
