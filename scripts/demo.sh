#!/usr/bin/env bash
# The README's main job: set everything up, then run the same short ingest
# workload on the embedded backends (LevelDB and SQLite), verify each store,
# and print the summaries side by side.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
bash scripts/build.sh build

workload=${1:-data/workloads/demo-ingest.ini}
out="results/demo-$(date -u +%Y%m%dT%H%M%SZ)"
for b in leveldb sqlite; do
	echo "== $b"
	rc=0
	build/bin/rpbench-$b run "$workload" --out "$out/$b" || rc=$?
	[ "$rc" -eq 0 ] || [ "$rc" -eq 3 ] || exit "$rc"
	build/bin/rpbench-$b verify "$out/$b"
done
echo
echo "== side by side ($workload)"
for b in leveldb sqlite; do
	printf '%-8s %s\n' "$b" "$(sed -n 2p "$out/$b/summary.txt")"
done
echo "Results: $out"
