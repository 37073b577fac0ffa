#!/usr/bin/env bash
# cli_download.sh BINDIR [RUNS [RDTBENCH]] — "opsassist download" of a
# 256 MiB file on loopback with no bottleneck (docs/benchmarks.md, "RDT
# on fast paths"). It starts BINDIR/opsassistd on a temporary data
# directory and loopback ports 19999/18080/19998 with a workspace holding
# a 256 MiB random file, asks for a download token with "opsassist tool
# file_download", then times RUNS (default 3) downloads with
# BINDIR/opsassist --json, each a fresh token and a fresh output file,
# and prints the CLI's own duration, the wall-clock rate (the CLI's
# start included) and the result of each, then the median duration.
#
# With RDTBENCH (a built bench/cmd/rdtbench), each CLI download is
# preceded by one bench run of the no-bottleneck row (RDT's raw figure,
# server and client in one process), so both see the same machine, and
# the script ends with both medians and the CLI's speed as a fraction of
# the bench's: "cli/bench: 0.97 (cli median 463 ms, bench median 449 ms)".
set -euo pipefail
bin=$1 runs=${2:-3} rdtbench=${3:-}
d=$(mktemp -d)
trap 'kill $pid 2>/dev/null || true; wait $pid 2>/dev/null || true; rm -rf "$d"' EXIT
mkdir -p "$d/ws" "$d/data"
head -c 268435456 /dev/urandom >"$d/ws/big.bin"
OPSASSIST_WORKSPACE="$d/ws" "$bin/opsassistd" --data "$d/data" --nplt 127.0.0.1:19999 --http 127.0.0.1:18080 --rdt 127.0.0.1:19998 >"$d/log" 2>&1 &
pid=$!
export OPSASSIST_SERVER=127.0.0.1:19999
for _ in $(seq 1 50); do "$bin/opsassist" tool file_download '{"file_path":"big.bin"}' >/dev/null 2>&1 && break; sleep 0.2; done
# dur_ms prints a Go duration (463ms, 1.234s, 1m2.5s) in whole
# milliseconds, and fails on anything else.
dur_ms() {
	awk -v d="$1" 'BEGIN {
		n = 0
		while (match(d, /^[0-9.]+/)) {
			v = substr(d, 1, RLENGTH); d = substr(d, RLENGTH + 1)
			if (d ~ /^ms/) { ms += v; d = substr(d, 3) }
			else if (d ~ /^µs/) { ms += v / 1000; d = substr(d, length("µs") + 1) }
			else if (d ~ /^h/) { ms += v * 3600000; d = substr(d, 2) }
			else if (d ~ /^m/) { ms += v * 60000; d = substr(d, 2) }
			else if (d ~ /^s/) { ms += v * 1000; d = substr(d, 2) }
			else exit 1
			n++
		}
		if (n == 0 || d != "") exit 1
		printf "%d\n", ms + 0.5
	}' || { echo "cli_download.sh: cannot read the duration \"$1\"" >&2; exit 1; }
}
cli_ms=() bench_ms=()
for i in $(seq 1 "$runs"); do
	if [ -n "$rdtbench" ]; then
		"$rdtbench" -size 256MiB -runs 1 -loss none -transports rdt >"$d/bench" 2>&1
		ms=$(dur_ms "$(sed -n 's/^no bottleneck  rdt .* in \([0-9.hmsµ]*\)  .*/\1/p' "$d/bench" | sed -n 1p)")
		echo "run $i: bench rdt $ms ms"
		bench_ms+=("$ms")
	fi
	tok=$("$bin/opsassist" tool file_download '{"file_path":"big.bin"}' 2>&1 | sed -n 's/.*opsassist download \([^ ]*\) -o.*/\1/p' | sed -n 1p)
	start=$(date +%s.%N)
	"$bin/opsassist" download --json "$tok" -o "$d/out.bin" --rdt 127.0.0.1:19998 </dev/null >"$d/dl" 2>&1
	end=$(date +%s.%N)
	ms=$(dur_ms "$(sed -n 's/.*"duration":"\([^"]*\)".*/\1/p' "$d/dl" | sed -n 1p)")
	echo "run $i: cli $ms ms, $(echo "268435456*8/($end - $start)/1000000" | bc) Mbit/s wall: $(tail -1 "$d/dl")"
	cli_ms+=("$ms")
	rm -f "$d/out.bin"
done
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
c=$(median "${cli_ms[@]}")
echo "cli median $c ms"
if [ -n "$rdtbench" ]; then
	b=$(median "${bench_ms[@]}")
	echo "cli/bench: $(echo "scale=2; $b / $c" | bc) (cli median $c ms, bench median $b ms)"
fi
