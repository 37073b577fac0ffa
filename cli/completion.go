package cli

import (
	"fmt"
	"slices"
	"strings"
)

// runCompletion runs "opsassist completion bash|zsh|fish": a completion
// script for the shell, built from the command table.
func (c *CLI) runCompletion(args []string) int {
	if len(args) == 1 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help") {
		return c.runHelp([]string{"completion"})
	}
	if len(args) != 1 {
		return c.usageError("completion", c.say("completion 需要一个 shell：bash、zsh 或 fish", "completion needs one shell: bash, zsh or fish"))
	}
	var script string
	switch args[0] {
	case "bash":
		script = bashCompletion()
	case "zsh":
		script = zshCompletion()
	case "fish":
		script = fishCompletion()
	default:
		return c.usageError("completion", c.say(fmt.Sprintf("不支持 shell %q 的补全；请用 bash、zsh 或 fish", args[0]), fmt.Sprintf("no completion for shell %q; use bash, zsh or fish", args[0])))
	}
	c.printf(c.stdout(), "%s", script)
	return ExitOK
}

// flagWords returns cd's flags, and the connection flags if it takes
// them, as "--name" words.
func flagWords(cd commandDoc) []string {
	fl := cd.flags
	if cd.global {
		fl = append(append([]flagDoc(nil), fl...), globalFlags()...)
	}
	var w []string
	for _, f := range fl {
		if d := dashed(f.name); !slices.Contains(w, d) {
			w = append(w, d)
		}
	}
	return append(w, "--help")
}

// dashed is how help and completion write a flag: -o for one letter,
// --name otherwise (the flag package takes either).
func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// commandWords returns every command name, plus the REPL's alias chat.
func commandWords() []string {
	var w []string
	for _, cd := range commands() {
		w = append(w, cd.name)
	}
	return append(w, "chat")
}

// bashCompletion is the bash script: flags from the command table, by
// command; every other word — commands, flag values, arguments — from
// the hidden completeCommand, which offers file names only where a file
// belongs.
func bashCompletion() string {
	var b strings.Builder
	b.WriteString(`# bash completion for opsassist; load with: source <(opsassist completion bash)
_opsassist() {
    local cur cmd i
    cur="${COMP_WORDS[COMP_CWORD]}"
    cmd=""
    for ((i = 1; i < COMP_CWORD; i++)); do
        case "${COMP_WORDS[i]}" in
            ` + strings.Join(valueFlags(), "|") + `) ((i++)) ;;
            -*) ;;
            *) cmd="${COMP_WORDS[i]}"; break ;;
        esac
    done
    local flags
    case "$cmd" in
`)
	for _, cd := range commands() {
		fmt.Fprintf(&b, "        %s) flags=%q ;;\n", cd.name, strings.Join(flagWords(cd), " "))
	}
	fmt.Fprintf(&b, "        *) flags=%q ;;\n", strings.Join(append(flagWordsGlobal(), "--version"), " "))
	b.WriteString(`    esac
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "$flags" -- "$cur"))
        return
    fi
    local IFS=$'\n'
    local -a out
    out=($("${COMP_WORDS[0]}" ` + completeCommand + ` "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
    case "${out[0]}" in
        ` + completeFiles + `) COMPREPLY=($(compgen -f -- "$cur")) ;;
        ` + completeDirs + `) COMPREPLY=($(compgen -d -- "$cur")) ;;
        *) COMPREPLY=($(compgen -W "${out[*]}" -- "$cur")) ;;
    esac
}
complete -o filenames -F _opsassist opsassist
`)
	return b.String()
}

// valueFlags returns the flags that take a value, as "--name" and
// "-name" words: the word after one is its value, not the command.
func valueFlags() []string {
	seen := map[string]bool{}
	var w []string
	all := globalFlags()
	for _, cd := range commands() {
		all = append(all, cd.flags...)
	}
	for _, f := range all {
		if f.arg == "" || seen[f.name] {
			continue
		}
		seen[f.name] = true
		w = append(w, "--"+f.name, "-"+f.name)
	}
	return w
}

// flagWordsGlobal returns the connection flags as "--name" words.
func flagWordsGlobal() []string {
	return flagWords(commandDoc{global: true})
}

// zshCompletion is the zsh script (compdef): commands with their
// summaries, flags by command, and every other word from the hidden
// completeCommand (file names only where a file belongs).
func zshCompletion() string {
	var b strings.Builder
	b.WriteString(`#compdef opsassist
# zsh completion for opsassist; install with:
#   opsassist completion zsh > "${fpath[1]}/_opsassist"
_opsassist() {
    local -a cmds
    cmds=(
`)
	for _, cd := range commands() {
		fmt.Fprintf(&b, "        %s\n", zshQuote(cd.name+":"+cd.summary))
	}
	b.WriteString(`    )
    local cmd="" w
    local skip=0
    for w in "${words[@]:1:$((CURRENT-2))}"; do
        if ((skip)); then skip=0; continue; fi
        case "$w" in
            ` + strings.Join(valueFlags(), "|") + `) skip=1 ;;
            -*) ;;
            *) cmd="$w"; break ;;
        esac
    done
    local -a flags
    case "$cmd" in
`)
	for _, cd := range commands() {
		fmt.Fprintf(&b, "        %s) flags=(%s) ;;\n", cd.name, strings.Join(flagWords(cd), " "))
	}
	fmt.Fprintf(&b, "        *) flags=(%s) ;;\n", strings.Join(append(flagWordsGlobal(), "--version"), " "))
	b.WriteString(`    esac
    if [[ "$PREFIX" == -* ]]; then
        compadd -a flags
        return
    fi
    if ((skip == 0)) && [[ -z "$cmd" || "$cmd" == help ]]; then
        _describe 'command' cmds
        return
    fi
    local -a out
    out=("${(@f)$(${words[1]} ` + completeCommand + ` "${(@)words[2,CURRENT]}" 2>/dev/null)}")
    case "${out[1]}" in
        ` + completeFiles + `) _files ;;
        ` + completeDirs + `) _files -/ ;;
        *) [[ -n "${out[1]}" ]] && compadd -a out ;;
    esac
}
compdef _opsassist opsassist
`)
	return b.String()
}

// zshQuote single-quotes s for zsh.
func zshQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// fishCompletion is the fish script: one complete line per command and
// per flag; flag values and arguments come from the hidden
// completeCommand (through __opsassist_values), file names only where a
// file belongs.
func fishCompletion() string {
	var b strings.Builder
	b.WriteString("# fish completion for opsassist; install with:\n#   opsassist completion fish > ~/.config/fish/completions/opsassist.fish\n")
	b.WriteString(`function __opsassist_values
    set -l w (commandline -opc)
    set -l out (command $w[1] ` + completeCommand + ` $w[2..-1] (commandline -ct) 2>/dev/null)
    switch "$out[1]"
        case ` + completeFiles + `
            __fish_complete_path (commandline -ct)
        case ` + completeDirs + `
            __fish_complete_directories (commandline -ct)
        case '*'
            printf '%s\n' $out
    end
end
`)
	cmds := strings.Join(commandWords(), " ")
	for _, cd := range commands() {
		fmt.Fprintf(&b, "complete -c opsassist -n 'not __fish_seen_subcommand_from %s' -f -a %s -d %s\n", cmds, cd.name, fishQuote(cd.summary))
	}
	for _, f := range append(globalFlags(), versionFlag()) {
		fmt.Fprintf(&b, "complete -c opsassist %s -d %s%s\n", fishFlag(f), fishQuote(firstSentence(f.text)), fishArg(f))
	}
	for _, cd := range commands() {
		for _, f := range cd.flags {
			fmt.Fprintf(&b, "complete -c opsassist -n '__fish_seen_subcommand_from %s' %s -d %s%s\n", cd.name, fishFlag(f), fishQuote(firstSentence(f.text)), fishArg(f))
		}
	}
	b.WriteString("complete -c opsassist -n '__fish_seen_subcommand_from completion' -f -a 'bash zsh fish'\n")
	b.WriteString("complete -c opsassist -n '__fish_seen_subcommand_from help' -f -a " + fishQuote(cmds) + "\n")
	// Arguments that are not files: none offered, or the server's ids.
	var noFiles []string
	for _, cd := range commands() {
		if cd.name != "upload" && cd.name != "completion" && cd.name != "help" {
			noFiles = append(noFiles, cd.name)
		}
	}
	b.WriteString("complete -c opsassist -n '__fish_seen_subcommand_from " + strings.Join(noFiles, " ") + "' -f\n")
	b.WriteString("complete -c opsassist -n '__fish_seen_subcommand_from export' -f -a '(__opsassist_values)'\n")
	return b.String()
}

// fishFlag is fish's option for f: -s o for one letter, -l name
// otherwise.
func fishFlag(f flagDoc) string {
	if len(f.name) == 1 {
		return "-s " + f.name
	}
	return "-l " + f.name
}

// fishArg is, for a flag that takes a value, " -x" (a value, no file
// names of fish's own) and the values __opsassist_values offers.
func fishArg(f flagDoc) string {
	if f.arg != "" {
		return " -x -a '(__opsassist_values)'"
	}
	return ""
}

// fishQuote single-quotes s for fish.
func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// firstSentence cuts a flag's text at its first " (" or ";".
func firstSentence(s string) string {
	if i := strings.IndexAny(s, "(;"); i > 0 {
		return strings.TrimSpace(s[:i])
	}
	return s
}
