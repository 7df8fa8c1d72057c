#!/usr/bin/env bash
# Runs the CI ingest workload with several threads and clients on each backend
# binary of a ThreadSanitizer build (argument: the build directory), then
# verifies the store. Expects RPB_TEST_PG_DSN for PostgreSQL.
set -euo pipefail
dir=$1
top=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d /tmp/rpbtsan.XXXXXX)
trap 'rm -rf "$out"' EXIT
for b in null leveldb sqlite postgres; do
	[ -x "$dir/bin/rpbench-$b" ] || continue
	args=(--quiet --out "$out/$b" --set threads=3 --set clients=2 --set ops=400 --set interval=0.2)
	if [ "$b" = postgres ]; then
		args+=(--dsn "$RPB_TEST_PG_DSN" --schema "tsan_$$")
	else
		args+=(--dir "$out/$b-store")
	fi
	rc=0
	"$dir/bin/rpbench-$b" run "$top/data/workloads/ci-ingest.ini" "${args[@]}" || rc=$?
	if [ "$rc" -ne 0 ]; then
		echo "tsan $b: run exited $rc"
		cat "$out/$b/summary.txt" 2>/dev/null || true
		exit 1
	fi
	[ "$b" = null ] || "$dir/bin/rpbench-$b" verify "$out/$b" >/dev/null
	echo "tsan $b: clean ($(sed -n 3p "$out/$b/summary.txt"))"
done
