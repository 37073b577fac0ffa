# opsassist — common tasks. `make run` starts the server on embedded
# defaults; `make test` is what CI runs.

GO       ?= go
PKGS     := ./...
BENCHTIME ?= 1s

.PHONY: run test bench bench-rdt fuzz fuzz-list lint build clean chromium mcp-everything eval

# Built, then run directly (not with go run), so Ctrl-C reaches the daemon
# and its exit status is the daemon's own.
run:
	$(GO) build -buildvcs=auto -o bin/opsassistd ./cmd/opsassistd
	./bin/opsassistd

# -buildvcs=auto: the binaries carry the commit (--version) even where
# GOFLAGS turns VCS stamping off; outside a git checkout it is skipped.
build:
	$(GO) build -buildvcs=auto -o bin/opsassistd ./cmd/opsassistd
	$(GO) build -buildvcs=auto -o bin/opsassist ./cmd/opsassist

test: chromium mcp-everything
	$(GO) vet $(PKGS)
	$(GO) test -race -count=1 $(PKGS)

# The browser tests (e2e/browser_test.go) drive Debian's chromium. Install
# it when it is missing and apt-get can (as root); otherwise the tests say
# why they skip. A CJK font makes the screenshots readable. Quiet and
# idempotent.
CHROMIUM ?= /usr/bin/chromium
chromium:
	@if [ ! -x $(CHROMIUM) ] && command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
		echo "installing chromium for the browser test"; \
		DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium fonts-wqy-zenhei >/dev/null \
		|| echo "chromium could not be installed; the browser test will skip"; \
	fi

# The MCP end-to-end test (e2e/mcp_everything_test.go) runs a real
# third-party MCP server from npm, @modelcontextprotocol/server-everything,
# installed here under .cache/mcp when npm can; otherwise the test says why
# it skips. Quiet and idempotent.
MCP_DIR ?= .cache/mcp
MCP_EVERYTHING ?= @modelcontextprotocol/server-everything@2026.8.31
mcp-everything:
	@if [ ! -x $(MCP_DIR)/node_modules/.bin/mcp-server-everything ] && command -v npm >/dev/null 2>&1; then \
		echo "installing $(MCP_EVERYTHING) for the MCP end-to-end test"; \
		npm install --prefix $(MCP_DIR) --no-audit --no-fund --silent $(MCP_EVERYTHING) >/dev/null 2>&1 \
		|| echo "$(MCP_EVERYTHING) could not be installed; the MCP end-to-end test will skip"; \
	fi

# The tool-selection eval of the builtin planner: the train set, then the
# validation and blind sets when they exist (docs/evals.md), each file's
# misses and score. EVALFLAGS=--report adds the per-tool scores and the
# confusion matrices; the last line is the last file's accuracy.
EVAL_SETS ?= testdata/evals/tool_selection.jsonl testdata/evals/validation.jsonl testdata/evals/blind.jsonl
EVALFLAGS ?=
eval:
	$(GO) build -buildvcs=auto -o bin/opsassist ./cmd/opsassist
	@set -e; args=""; for f in $(EVAL_SETS); do \
		if [ -f "$$f" ]; then args="$$args --cases $$f"; else echo "skipping $$f (missing)"; fi; \
	done; \
	./bin/opsassist eval $(EVALFLAGS) $$args

bench:
	$(GO) test -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) $(PKGS)

# RDT against quic-go and TCP through the impairment relay (bench/ is its
# own module, so quic-go stays out of the product): 1, 16 and 256 MiB,
# 5 runs, 0/1/5/10 % loss, a 1 Gbit/s row and the fairness scenario.
# About 30 minutes on a quiet machine.
bench-rdt:
	cd bench && $(GO) run ./cmd/rdtbench -size 1MiB,16MiB,256MiB -runs 5 -loss 0,1,5,10 -fast-rate 1G -fairness

# Short fuzzing pass over every fuzz target in the module (decoders, file
# names, paths, whole chat turns); seeds live in */testdata/fuzz. Targets are
# found by name (fuzz-list prints them), so a new Fuzz function is fuzzed
# without editing this file. bench/ is its own module and is left out.
# FUZZTIME is a duration or a count of runs (FUZZTIME=20000x): Go before
# 1.27 can fail a duration-bounded run with a bare "context deadline
# exceeded" and no crasher when the machine is busy (golang/go#75804); a
# count has no deadline to race.
FUZZTIME ?= 30s
fuzz:
	@set -e; $(MAKE) -s fuzz-list | while read -r pkg t; do \
		echo "$(GO) test -run '^\$$' -fuzz '^$$t\$$' -fuzztime $(FUZZTIME) $$pkg"; \
		$(GO) test -run '^$$' -fuzz "^$$t\$$" -fuzztime $(FUZZTIME) $$pkg; \
	done

# fuzz-list prints "package target" for each fuzz target.
fuzz-list:
	@for f in $$(grep -rl --include='*_test.go' --exclude-dir=bench --exclude-dir=testdata '^func Fuzz' . | sort); do \
		for t in $$(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' $$f); do \
			echo "$$(dirname $$f) $$t"; \
		done; \
	done

lint:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet $(PKGS)
	$(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2 $(PKGS)

clean:
	rm -rf bin
