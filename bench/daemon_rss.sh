#!/usr/bin/env bash
# daemon_rss.sh OPSASSISTD OPSASSIST — resident memory the real daemon adds
# for 8 MiB of uploaded text (docs/benchmarks.md, "Index memory per MB of
# text"). It starts OPSASSISTD on a temporary data directory and loopback
# ports 19999/18080/19998, uploads four 2 MiB files of ops text (lines of
# README.md and docs/security.md with random numbers) into one
# conversation with the CLI OPSASSIST, waits until all four are indexed,
# waits 5 s more and prints VmRSS added. Run from the repository root.
set -euo pipefail
bin=$1 cli=$2
d=$(mktemp -d)
trap 'kill $pid 2>/dev/null || true; rm -rf "$d"' EXIT
python3 - "$d" <<'PY'
import random, sys
random.seed(1)
lines = [l for f in ("README.md", "docs/security.md") for l in open(f).read().splitlines() if l.strip()]
for k in range(4):
    with open(f"{sys.argv[1]}/up{k}.txt", "w") as out:
        n = 0
        while n < 2 << 20:
            l = random.choice(lines) + f" {random.randint(0, 10**9)}\n"
            out.write(l)
            n += len(l.encode())
PY
"$bin" --data "$d/data" --nplt 127.0.0.1:19999 --http 127.0.0.1:18080 --rdt 127.0.0.1:19998 >"$d/log" 2>&1 &
pid=$!
for _ in $(seq 1 50); do curl -sf 127.0.0.1:18080/api/health >/dev/null && break; sleep 0.2; done
sleep 2
base=$(awk '/VmRSS/{print $2}' /proc/$pid/status)
sid=""
for k in 0 1 2 3; do
	out=$("$cli" --server 127.0.0.1:19999 upload ${sid:+--session "$sid"} "$d/up$k.txt")
	sid=$(echo "$out" | sed -n 's/.*session=\([0-9a-f-]*\).*/\1/p')
done
n=0
for _ in $(seq 1 120); do
	n=$(curl -s "127.0.0.1:18080/api/files?session_id=$sid" | { grep -o '"indexed":true' || true; } | wc -l)
	[ "$n" = 4 ] && break
	sleep 1
done
sleep 5
after=$(awk '/VmRSS/{print $2}' /proc/$pid/status)
echo "indexed=$n/4 rss_before=${base}kB rss_after=${after}kB added=$(((after - base) / 1024))MB for 8 MiB of text"
