package archtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "opsassist"

// pkg is what the rules read of `go list -json`. Only Imports count:
// tests (TestImports, XTestImports), end-to-end ones included, may
// import what they exercise.
type pkg struct {
	ImportPath string
	Imports    []string
}

func TestLayout(t *testing.T) {
	pkgs := list(t, "-json", module+"/...")
	var bad []string
	breach := func(rule, from, to string) {
		bad = append(bad, rule+": "+from+" -> "+to)
	}
	for _, p := range pkgs {
		for _, imp := range p.Imports {
			if !under(imp, module) {
				continue
			}
			from := p.ImportPath
			switch {
			case isTransport(imp) && isTransport(from) && transportOf(imp) != transportOf(from):
				breach("a transport imports another transport", from, imp)
			case isTransport(imp) && !isTransport(from) && from != module+"/daemon" && !under(from, module+"/cmd"):
				breach("only the composition root (daemon) and cmd/* import a transport", from, imp)
			case imp == module+"/config" && !configReader(from):
				breach("only daemon, cmd/* and cli read the configuration; chat, storage, tools and agent take their own Config", from, imp)
			case imp == module+"/daemon" && !under(from, module+"/cmd"):
				breach("only cmd/* imports the composition root (daemon)", from, imp)
			case isProtocol(from) && !isProtocol(imp) && imp != module+"/api" && !under(imp, module+"/internal"):
				breach("the protocol packages (nplt, rdt) import only each other, api and internal/*", from, imp)
			}
		}
	}
	for _, dep := range list(t, "-deps", module+"/cmd/opsassist") {
		if isTransport(dep.ImportPath) || dep.ImportPath == module+"/daemon" {
			breach("the CLI (cmd/opsassist) links no transport server nor the daemon", module+"/cmd/opsassist", dep.ImportPath)
		}
	}
	// The client library is what a desktop client or a test imports: the
	// protocols and the network, none of the server.
	for _, dep := range list(t, "-deps", module+"/client") {
		for _, server := range []string{"agent", "storage", "tools", "config", "chat", "daemon", "transport", "cli"} {
			if under(dep.ImportPath, module+"/"+server) {
				breach("the client library links none of the server, its configuration or the CLI program", module+"/client", dep.ImportPath)
			}
		}
	}
	for _, b := range bad {
		t.Error(b)
	}
}

// list runs go list with args and decodes the packages it prints.
func list(t *testing.T, args ...string) []pkg {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH: cannot read the import graph")
	}
	if !slices.Contains(args, "-json") {
		args = append([]string{"-json"}, args...)
	}
	cmd := exec.Command(goCmd, append([]string{"list"}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	var pkgs []pkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) == 0 {
		t.Fatalf("go list %s: no packages", strings.Join(args, " "))
	}
	return pkgs
}

// under reports whether path is root or a package below it.
func under(path, root string) bool {
	return path == root || strings.HasPrefix(path, root+"/")
}

// isTransport reports whether path is a transport adapter (or part of one).
func isTransport(path string) bool { return strings.HasPrefix(path, module+"/transport/") }

// transportOf returns the transport a package belongs to:
// opsassist/transport/web for opsassist/transport/web/static.
func transportOf(path string) string {
	rest := strings.TrimPrefix(path, module+"/transport/")
	name, _, _ := strings.Cut(rest, "/")
	return module + "/transport/" + name
}

// configReader reports whether a package may import the configuration:
// the composition root, the commands and the command-line program.
func configReader(path string) bool {
	return path == module+"/daemon" || under(path, module+"/cmd") || under(path, module+"/cli")
}

// isProtocol reports whether path is a wire-protocol package shared by the
// servers and the client.
func isProtocol(path string) bool {
	return under(path, module+"/nplt") || under(path, module+"/rdt")
}
