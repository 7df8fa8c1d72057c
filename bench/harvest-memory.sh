#!/usr/bin/env bash
# Does the harvest's memory grow with the corpus? Loads a small and a large
# corpus (10^4 and 10^6 records by default) into each backend, then
# harvests each in a run of its own (reuse = on), so the load's memory is
# not counted, and compares the harvest process's peak memory between them.
# docs/performance.md explains the method and the measured figures.
set -euo pipefail

prog=bench/harvest-memory.sh
top=$(cd "$(dirname "$0")/.." && pwd)

usage() {
	cat <<EOF
usage: $prog [--build DIR] [--backends LIST] [--small N] [--large N]
                             [--ops N] [--set KEY=VALUE]... [--keep]

For each backend and each corpus size: run 1 loads data/workloads/ci-harvest.ini's
corpus with records = N (ops = 1); run 2 harvests it (reuse = on, 2
harvesters, ops requests each). While run 2 goes, its /proc/PID/status is
read every 20 ms: the peak of RssAnon (the process's own memory: heap,
library caches) and of RssFile (file pages mapped by LevelDB's and SQLite's
mmap reads, which the kernel can drop at any time). The library caches are
sized alike and below the small corpus for both sizes (leveldb.block_cache
= 8M, leveldb.max_open_files = 100, sqlite.cache_size = 8M, sqlite.mmap_size
= 0 so SQLite's reads go through its cache), so what could still grow is
what the harvest itself holds. Prints one row per run and,
per backend, large/small of peak RssAnon; fails when it exceeds 1.2 or a
harvest lost or repeated a record.

Options:
  --build DIR       build directory (default: build in the repository top)
  --backends LIST   comma-separated (default: leveldb,sqlite,postgres)
  --small N         records of the small corpus (default: 10000)
  --large N         records of the large corpus (default: 1000000)
  --ops N           requests per harvester in the harvest run (default: 1000)
  --set KEY=VALUE   passed on to both runs (repeatable), e.g. --set size_median=512
  --keep            keep the stores and results (printed at the end)
  --help            this text

PostgreSQL runs against a throwaway server this script starts
(scripts/pg-throwaway) and removes. Needs jq. Exit codes: 0 within 1.2x,
1 usage, 2 environment, 3 a run failed, 4 memory grew past 1.2x or integrity failed.
EOF
}

die() { # code message
	echo "$prog: $2" >&2
	exit "$1"
}

build=$top/build
backends=leveldb,sqlite,postgres
small=10000
large=1000000
ops=1000
keep=
sets=()
while [ $# -gt 0 ]; do
	case $1 in
	--build) build=${2:?--build needs a directory}; shift 2 ;;
	--backends) backends=${2:?--backends needs a list}; shift 2 ;;
	--small) small=${2:?--small needs a number}; shift 2 ;;
	--large) large=${2:?--large needs a number}; shift 2 ;;
	--ops) ops=${2:?--ops needs a number}; shift 2 ;;
	--set) sets+=(--set "${2:?--set needs KEY=VALUE}"); shift 2 ;;
	--keep) keep=1; shift ;;
	--help | -h) usage; exit 0 ;;
	*) die 1 "unknown option '$1'; see --help" ;;
	esac
done
for n in "$small" "$large" "$ops"; do
	[[ $n =~ ^[1-9][0-9]*$ ]] || die 1 "'$n' is not a positive integer"
done
command -v jq >/dev/null || die 2 "jq is missing; install it (scripts/deps.sh)"

work=$(mktemp -d /tmp/rpbmem.XXXXXX)
pgdir=
cleanup() {
	[ -z "$pgdir" ] || "$top/scripts/pg-throwaway" stop "$pgdir" >/dev/null 2>&1 || true
	if [ -n "$keep" ]; then echo "kept: $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

workload=$top/data/workloads/ci-harvest.ini
caches=(--set leveldb.block_cache=8M --set leveldb.max_open_files=100 --set sqlite.cache_size=8M
	--set sqlite.mmap_size=0)

# Sets cmd to rpbench-BACKEND run with the store arguments of backend and
# records (an array, so the harvest runs as the very process measured).
command_for() { # backend records out args...
	local b=$1 n=$2 out=$3
	shift 3
	local where=(--dir "$work/$b-$n-store")
	[ "$b" != postgres ] || where=(--dsn "$dsn" --schema "mem_$n")
	cmd=("$build/bin/rpbench-$b" run "$workload" --quiet --out "$out" "${where[@]}"
		--set "records=$n" "${caches[@]}" "${sets[@]}" "$@")
}

# Largest value of a /proc/PID/status field (kB) while PID runs.
peak_kb() { # pid
	local pid=$1 anon=0 file=0 a f
	while kill -0 "$pid" 2>/dev/null; do
		read -r a f < <(awk '/^RssAnon/{a=$2} /^RssFile/{f=$2} END{print a+0, f+0}' \
			"/proc/$pid/status" 2>/dev/null || echo "0 0")
		[ "$a" -le "$anon" ] || anon=$a
		[ "$f" -le "$file" ] || file=$f
		sleep 0.02
	done
	echo "$anon $file"
}

status=0
printf '%-9s %9s %9s %9s %12s %12s %12s %8s %s\n' backend records load_s requests \
	peak_anon_MiB peak_file_MiB peak_rss_MiB pages/s integrity
for b in ${backends//,/ }; do
	[ -x "$build/bin/rpbench-$b" ] || die 2 "$build/bin/rpbench-$b is not built (scripts/build.sh $build)"
	if [ "$b" = postgres ] && [ -z "$pgdir" ]; then
		pgdir=$(mktemp -d /tmp/rpbpg.XXXXXX)
		dsn=$("$top/scripts/pg-throwaway" start "$pgdir") || die 2 "could not start a PostgreSQL server"
	fi
	declare -A anon=()
	for n in "$small" "$large"; do
		command_for "$b" "$n" "$work/$b-$n-load" --set ops=1 --set threads=1
		"${cmd[@]}" >"$work/$b-$n-load.log" 2>&1 ||
			{ cat "$work/$b-$n-load.log" >&2; die 3 "loading $n records into $b failed"; }
		command_for "$b" "$n" "$work/$b-$n-harvest" --set reuse=on --set threads=2 --set "ops=$ops"
		"${cmd[@]}" >"$work/$b-$n-harvest.log" 2>&1 &
		pid=$!
		read -r a f < <(peak_kb "$pid")
		wait "$pid" || { cat "$work/$b-$n-harvest.log" >&2; die 3 "harvesting $n records on $b failed"; }
		r=$work/$b-$n-harvest/result.json
		ok=$(jq -r '.pattern.totals | if .missing == 0 and .duplicates == 0 and .unexpected == 0 then "ok" else "FAILED" end' "$r")
		[ "$ok" = ok ] || status=4
		anon[$n]=$a
		printf '%-9s %9s %9.1f %9s %12s %12s %12.1f %8.0f %s\n' "$b" "$n" \
			"$(jq .pattern.load.seconds "$work/$b-$n-load/result.json")" \
			"$(jq .pattern.request_latency.requests "$r")" "$(awk -v k="$a" 'BEGIN{printf "%.1f", k / 1024}')" \
			"$(awk -v k="$f" 'BEGIN{printf "%.1f", k / 1024}')" "$(jq '.totals.peak_rss_bytes / 1048576' "$r")" \
			"$(jq '.pattern.request_latency.requests / .totals.measured_s' "$r")" "$ok"
	done
	ratio=$(awk -v l="${anon[$large]}" -v s="${anon[$small]}" 'BEGIN{print l / s}')
	verdict=yes
	if awk -v r="$ratio" 'BEGIN{exit !(r > 1.2)}'; then verdict=NO; status=4; fi
	printf '%-9s peak RssAnon %s / %s records: %.3fx (within 1.2x: %s)\n' "$b" "$large" "$small" \
		"$ratio" "$verdict"
	unset anon
done
exit $status
