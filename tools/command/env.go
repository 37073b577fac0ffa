package command

// safePath is the PATH commands are looked up in and run with.
const safePath = "/usr/local/bin:/usr/bin:/bin"

// childEnv returns the complete environment of a command: a fixed PATH,
// a UTF-8 C locale and HOME set to the workspace. Nothing is inherited
// from the server, so API keys and other secrets in its environment never
// reach a child.
func childEnv(workspace string) []string {
	return []string{
		"PATH=" + safePath,
		"LANG=C.UTF-8",
		"LC_ALL=C.UTF-8",
		"HOME=" + workspace,
	}
}
