#!/usr/bin/env bash
# Times the verb preload of a Fedora workload on each backend (docs/scaling.md)
# and checks what it made: verify of the preloaded store, then a short
# measured ingest that continues it (run --continue), verified too. Prints a
# row per backend and size: seconds, creates/s, store bytes, the peak
# resident set and its sampled parts (anonymous memory: flat in N, as the
# preload keeps no per-object state; mapped files' pages), and what each
# verify found missing. PostgreSQL runs on a throwaway server
# (scripts/pg-throwaway) unless RPB_PG_DSN names one. Stores and results go
# under ${TMPDIR:-/tmp}/rpbench-preload.XXXXXX, removed at the end.
set -euo pipefail
prog=bench/preload.sh
top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build
workload=fedora-test2
counts="100000 1000000"
backends="leveldb sqlite postgres"
window=1000
sets=()

usage() {
	cat <<USAGE
usage: $prog [--build DIR] [--workload FILE] [--objects "N1 N2 ..."]
                       [--backends "B1 B2 ..."] [--window OPS] [--set KEY=VALUE]...

Options:
  --build DIR       build directory (default: build in the repository top)
  --workload FILE   default: $workload
  --objects LIST    preload sizes, each on a new store (default: "$counts")
  --backends LIST   default: "$backends" (those built)
  --window OPS      creates of the measured run that continues each preload,
                    then verified (default: $window; 0: none)
  --set KEY=VALUE   passed on to every preload and run (repeatable), e.g.
                    ingest.preload_content=sparse for fedora-test3's sizes
  --help            this text
USAGE
}

while [ $# -gt 0 ]; do
	case $1 in
	--build) build=$2; shift 2 ;;
	--workload) workload=$2; shift 2 ;;
	--objects) counts=$2; shift 2 ;;
	--backends) backends=$2; shift 2 ;;
	--window) window=$2; shift 2 ;;
	--set) sets+=(--set "$2"); shift 2 ;;
	--help | -h) usage; exit 0 ;;
	*) echo "$prog: unknown option '$1'; see $prog --help" >&2; exit 2 ;;
	esac
done

work=$(mktemp -d "${TMPDIR:-/tmp}/rpbench-preload.XXXXXX")
pgdir=
cleanup() {
	[ -z "$pgdir" ] || "$top/scripts/pg-throwaway" stop "$pgdir" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT

# The figure of result.json at path (a dotted path of objects).
jfield() { python3 -c 'import json,sys
v=json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."): v=v.get(k) if isinstance(v, dict) else None
print("?" if v is None else v)' "$1" "$2"; }
# "N missing" from verify's output, or its exit code when it printed none.
missing() {
	local text rc=0
	text=$("$@" 2>&1) || rc=$?
	sed -n 's/.*: \([0-9]*\) missing,.*/\1/p' <<<"$text" | head -n 1 | grep . || echo "exit $rc"
}

printf '%-9s %9s %8s %10s %14s %14s %14s %14s %8s %9s\n' backend objects seconds creates/s \
	store_bytes peak_rss rss_anon rss_file missing cont_miss
for b in $backends; do
	bin=$build/bin/rpbench-$b
	[ -x "$bin" ] || continue
	loc=()
	if [ "$b" = postgres ]; then
		dsn=${RPB_PG_DSN:-}
		if [ -z "$dsn" ]; then
			pgdir=$(mktemp -d /tmp/rpbpl.XXXXXX)
			rmdir "$pgdir"
			dsn=$("$top/scripts/pg-throwaway" start "$pgdir")
		fi
		loc=(--dsn "$dsn" --schema rpbench_preload)
	fi
	for n in $counts; do
		out=$work/$b-$n
		[ "$b" = postgres ] && where=("${loc[@]}" --fresh) || where=(--dir "$work/$b-$n.store")
		start=$(date +%s.%N)
		"$bin" preload "$workload" --objects "$n" "${where[@]}" "${sets[@]}" -o "$out" -q >/dev/null
		end=$(date +%s.%N)
		miss=$(missing "$bin" verify "$out" "${loc[@]}")
		cont=-
		if [ "$window" -gt 0 ]; then
			[ "$b" = postgres ] && where=("${loc[@]}") || where=(--dir "$work/$b-$n.store")
			seed=$(jfield "$out/result.json" manifest.seed)
			"$bin" run "$workload" --continue "$out" "${where[@]}" "${sets[@]}" \
				--set run.seed="$seed" --set run.ops="$window" -o "$out-run" -q >/dev/null
			cont=$(missing "$bin" verify "$out-run" "${loc[@]}")
		fi
		awk -v b="$b" -v n="$n" -v s="$start" -v e="$end" \
			-v by="$(jfield "$out/result.json" totals.store_bytes)" \
			-v rss="$(jfield "$out/result.json" totals.peak_rss_bytes)" \
			-v anon="$(jfield "$out/result.json" totals.peak_rss_anon_bytes)" \
			-v file="$(jfield "$out/result.json" totals.peak_rss_file_bytes)" \
			-v miss="$miss" -v cont="$cont" \
			'BEGIN { printf "%-9s %9d %8.1f %10.0f %14s %14s %14s %14s %8s %9s\n",
				b, n, e - s, n / (e - s), by, rss, anon, file, miss, cont }'
		rm -rf "$out" "$out-run" "$work/$b-$n.store"
	done
	if [ -n "$pgdir" ]; then
		"$top/scripts/pg-throwaway" stop "$pgdir" >/dev/null
		pgdir=
	fi
done
