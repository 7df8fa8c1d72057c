#!/usr/bin/env bash
# The README's main job: set everything up, then compare the embedded
# backends (LevelDB and SQLite) on short workloads of each pattern with
# `rpbench compare`: identical workload and seed, tables on the terminal, an
# HTML report with the figures. Each run's store is verified afterwards.
#
#   scripts/demo.sh [WORKLOAD.ini...]   (default: data/workloads/demo-*.ini)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
bash scripts/build.sh build -DRPB_TESTS=OFF

if [ $# -eq 0 ]; then
	set -- data/workloads/demo-ingest.ini data/workloads/demo-metadata.ini \
		data/workloads/demo-harvest.ini
fi
stamp=$(date -u +%Y%m%dT%H%M%SZ)
reports=()
for workload in "$@"; do
	name=$(basename "$workload" .ini)
	out="results/demo-$stamp/$name"
	echo "== $name: leveldb vs sqlite ($workload)"
	build/bin/rpbench compare "$workload" --backends leveldb,sqlite --out "$out" --quiet
	for b in leveldb sqlite; do
		printf '%-8s ' "$b"
		build/bin/rpbench-$b verify "$out/runs/$b"
	done
	reports+=("$out/report/index.html")
	echo
done
echo "HTML reports (open in a browser; no network needed):"
printf '  %s\n' "${reports[@]}"
