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
	# The ingest runs both persistence profiles: Fedora 4.5's and the
	# durable one, each as it is meant to run (docs/reproducing.md).
	matrix=()
	[ "$name" != demo-ingest ] || matrix=(--profiles durable,fedora-4.5)
	echo "== $name: leveldb vs sqlite${matrix:+, profiles durable and fedora-4.5} ($workload)"
	build/bin/rpbench compare "$workload" --backends leveldb,sqlite "${matrix[@]}" --out "$out" --quiet
	for run in "$out"/runs/*/; do
		run=${run%/}
		b=$(basename "$run")
		printf '%-20s ' "$b"
		build/bin/rpbench-"${b%%-*}" verify "$run"
	done
	reports+=("$out/report/index.html")
	echo
done
echo "HTML reports (open in a browser; no network needed):"
printf '  %s\n' "${reports[@]}"
