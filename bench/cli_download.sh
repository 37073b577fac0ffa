#!/usr/bin/env bash
# cli_download.sh BINDIR [RUNS [RDTBENCH]] — "opsassist download" of a
# 256 MiB file on loopback with no bottleneck (docs/benchmarks.md, "RDT
# on fast paths"). It starts BINDIR/opsassistd on a temporary data
# directory and loopback ports 19999/18080/19998 with a workspace holding
# a 256 MiB random file, asks for a download token with "opsassist tool
# file_download", then times RUNS (default 3) downloads with
# BINDIR/opsassist, each a fresh token and a fresh output file, and
# prints the CLI's result line and the wall-clock rate of each.
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
cli_ms=() bench_ms=()
for i in $(seq 1 "$runs"); do
	if [ -n "$rdtbench" ]; then
		ms=$("$rdtbench" -size 256MiB -runs 1 -loss none -transports rdt 2>&1 | sed -n 's/^no bottleneck  rdt .* in \([0-9.]*\)\(m\{0,1\}\)s .*/\1 \2/p' | head -1 |
			awk '{ if ($2 == "m") print int($1 + 0.5); else print int($1 * 1000 + 0.5) }')
		echo "run $i: bench rdt ${ms} ms"
		bench_ms+=("$ms")
	fi
	tok=$("$bin/opsassist" tool file_download '{"file_path":"big.bin"}' 2>&1 | sed -n 's/.*opsassist download \([^ ]*\) -o.*/\1/p' | head -1)
	start=$(date +%s.%N)
	"$bin/opsassist" download "$tok" -o "$d/out.bin" --rdt 127.0.0.1:19998 </dev/null >"$d/dl" 2>&1
	end=$(date +%s.%N)
	echo "run $i: $(tail -1 "$d/dl"); $(echo "268435456*8/($end - $start)/1000000" | bc) Mbit/s wall"
	cli_ms+=("$(tail -1 "$d/dl" | sed -n 's/.* in \([0-9.]*\)\(m\{0,1\}\)s,.*/\1 \2/p' | awk '{ if ($2 == "m") print int($1 + 0.5); else print int($1 * 1000 + 0.5) }')")
	rm -f "$d/out.bin"
done
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
if [ -n "$rdtbench" ]; then
	c=$(median "${cli_ms[@]}") b=$(median "${bench_ms[@]}")
	echo "cli/bench: $(echo "scale=2; $b / $c" | bc) (cli median $c ms, bench median $b ms)"
fi
