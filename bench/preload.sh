#!/bin/sh
# Times the verb preload of 10^5 and 10^6 objects of a Fedora workload on
# each backend built (docs/scaling.md). Usage:
#   bench/preload.sh [BUILD_DIR] [WORKLOAD] [COUNTS]
# BUILD_DIR defaults to build, WORKLOAD to fedora-test2, COUNTS to
# "100000 1000000". PostgreSQL runs when PGHOST or RPB_PG_DSN names a
# server (its store: schema rpbench_preload). Each store and results
# directory goes under ${TMPDIR:-/tmp}/rpbench-preload.XXXXXX, removed at
# the end; the table goes to stdout (with result.json's peak RSS of each
# preload and its sampled parts: anonymous memory, flat in N as the preload
# keeps no per-object state, and mapped files' pages).
set -eu
build=${1:-build}
workload=${2:-fedora-test2}
counts=${3:-"100000 1000000"}
work=$(mktemp -d "${TMPDIR:-/tmp}/rpbench-preload.XXXXXX")
trap 'rm -rf "$work"' EXIT
printf '%-9s %10s %10s %12s %14s %14s %14s %14s\n' backend objects seconds creates/s store_bytes \
	peak_rss_bytes rss_anon_bytes rss_file_bytes
for b in leveldb sqlite postgres; do
	bin="$build/bin/rpbench-$b"
	[ -x "$bin" ] || continue
	for n in $counts; do
		out="$work/$b-$n"
		case $b in
		postgres)
			[ -n "${PGHOST:-}${RPB_PG_DSN:-}" ] || continue
			loc="--schema rpbench_preload --fresh"
			[ -n "${RPB_PG_DSN:-}" ] && loc="$loc --dsn $RPB_PG_DSN" ;;
		*) loc="--dir $work/$b-$n.store" ;;
		esac
		start=$(date +%s.%N)
		# shellcheck disable=SC2086 # loc is a list of arguments
		"$bin" preload "$workload" --objects "$n" $loc -o "$out" -q >/dev/null
		end=$(date +%s.%N)
		bytes=$(sed -n 's/.*"store_bytes": *\([0-9]*\).*/\1/p' "$out/result.json" | head -n 1)
		rss=$(sed -n 's/.*"peak_rss_bytes": *\([0-9]*\).*/\1/p' "$out/result.json" | head -n 1)
		anon=$(sed -n 's/.*"peak_rss_anon_bytes": *\([0-9]*\).*/\1/p' "$out/result.json" | head -n 1)
		file=$(sed -n 's/.*"peak_rss_file_bytes": *\([0-9]*\).*/\1/p' "$out/result.json" | head -n 1)
		awk -v b="$b" -v n="$n" -v s="$start" -v e="$end" -v by="${bytes:-?}" -v rss="${rss:-?}" \
			-v anon="${anon:-?}" -v file="${file:-?}" \
			'BEGIN { printf "%-9s %10d %10.1f %12.0f %14s %14s %14s %14s\n", b, n, e - s, n / (e - s), by, rss, anon, file }'
		rm -rf "$out" "$work/$b-$n.store"
	done
done
