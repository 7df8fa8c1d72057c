#!/usr/bin/env bash
# Does the harvest's memory grow with the corpus? Loads a small and a large
# corpus (10^4 and 10^6 records by default) into each backend, harvests each
# in a run of its own (reuse = on) under the heap accountant, and checks
# that rpbench's own heap peaks alike at both sizes. docs/performance.md
# ("Harvest memory") explains the method, the tolerance and the figures.
set -euo pipefail

prog=bench/harvest-memory.sh
top=$(cd "$(dirname "$0")/.." && pwd)

# Bytes the rpbench-owned heap peaks may differ by, beyond the integrity
# bitmaps (docs/performance.md says why 4 KiB).
tolerance=4096
# RssAnon beyond the libraries' configured caches: rpbench's own heap, the
# allocator's arenas, thread stacks, libc and libstdc++.
allowance_mib=16
# Heap per open LevelDB table (index, filter, table object): an estimate.
table_kib=64

usage() {
	cat <<EOF
usage: $prog [--build DIR] [--backends LIST] [--small N] [--large N]
                             [--ops N] [--set KEY=VALUE]... [--keep]

For each backend and each corpus size: run 1 loads data/workloads/ci-harvest.ini's
corpus with records = N (ops = 1); run 2 harvests it (reuse = on, 2
harvesters) with the heap accountant preloaded (DIR/lib/librpb_heapacct.so),
which attributes every heap block to rpbench's code or to a library and
reports each owner's peak of live bytes. The small corpus's harvest makes
--ops requests per harvester, the large one's three times as many, so
memory kept per request or per record would show as well as memory kept
per corpus record.

Checks, per backend:
  - rpbench's heap: the large run's peak minus the small run's, less the
    integrity bitmaps' growth (records / 8 + 1 bytes per harvester, by
    design), is within $tolerance bytes;
  - peak RssAnon of each harvest (read from /proc/PID/status every 20 ms)
    stays under the ceiling the configuration implies: the libraries'
    caches (LevelDB: 2 x write_buffer + block_cache + max_open_files x
    $table_kib KiB; SQLite: cache_size per connection) plus $allowance_mib MiB;
  - every harvest returned every record once (integrity).
The library caches are set alike for both sizes and below the small corpus
(leveldb.write_buffer = 16M, leveldb.block_cache = 8M,
leveldb.max_open_files = 100, sqlite.cache_size = 8M, sqlite.mmap_size = 0).

Options:
  --build DIR       build directory without sanitizers (default: build)
  --backends LIST   comma-separated (default: leveldb,sqlite,postgres)
  --small N         records of the small corpus (default: 10000)
  --large N         records of the large corpus (default: 1000000)
  --ops N           requests per harvester at the small corpus (default: one
                    complete harvest of it, N = records / 100)
  --set KEY=VALUE   passed on to both runs (repeatable), e.g. --set size_median=512
  --keep            keep the stores and results (printed at the end)
  --help            this text

PostgreSQL runs against a throwaway server this script starts
(scripts/pg-throwaway) and removes. Needs jq. Exit codes: 0 all checks
passed, 1 usage, 2 environment, 3 a run failed, 4 a check failed.
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
ops=
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
[ -n "$ops" ] || ops=$(((small + 99) / 100))
for n in "$small" "$large" "$ops"; do
	[[ $n =~ ^[1-9][0-9]*$ ]] || die 1 "'$n' is not a positive integer"
done
[ "$large" -gt "$small" ] || die 1 "--large ($large) must exceed --small ($small)"
command -v jq >/dev/null || die 2 "jq is missing; install it (scripts/deps.sh)"
heapacct=$build/lib/librpb_heapacct.so
[ -f "$heapacct" ] || die 2 "$heapacct is not built (scripts/build.sh $build; not in a sanitizer build)"

work=$(mktemp -d /tmp/rpbmem.XXXXXX)
pgdir=
cleanup() {
	[ -z "$pgdir" ] || "$top/scripts/pg-throwaway" stop "$pgdir" >/dev/null 2>&1 || true
	if [ -n "$keep" ]; then echo "kept: $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

workload=$top/data/workloads/ci-harvest.ini
caches=(--set leveldb.write_buffer=16M --set leveldb.block_cache=8M --set leveldb.max_open_files=100
	--set sqlite.cache_size=8M --set sqlite.mmap_size=0)

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

# A size option of the run (manifest.options, else def) in bytes.
opt_bytes() { # result.json key default
	jq -r --arg k "$2" --arg d "$3" '.manifest.options[$k] // $d' "$1" | awk '
		/^[0-9]+$/ { print $1; next }
		/^[0-9]+[kKmMgG]$/ { n = substr($1, 1, length($1) - 1); u = tolower(substr($1, length($1)))
			print n * (u == "k" ? 1024 : u == "m" ? 1048576 : 1073741824); next }
		{ print "bad"; exit 1 }'
}

# The RssAnon ceiling (KiB) of a harvest run, from its configuration.
ceiling_kb() { # backend result.json
	local b=$1 r=$2 caches=0 conns
	case $b in
	leveldb)
		caches=$(($(opt_bytes "$r" leveldb.write_buffer 16M) * 2 +
			$(opt_bytes "$r" leveldb.block_cache 64M) +
			$(jq -r '.manifest.options["leveldb.max_open_files"] // 1000' "$r") * table_kib * 1024)) ;;
	sqlite)
		# A connection per session, and one for prepare.
		conns=$(($(jq '(.manifest.options["run.threads"] | tonumber) * (.manifest.options["run.clients"] | tonumber)' "$r") + 1))
		caches=$(($(opt_bytes "$r" sqlite.cache_size 64M) * conns)) ;;
	esac
	echo $(((caches + allowance_mib * 1048576) / 1024))
}

mib() { awk -v b="$1" 'BEGIN{printf "%.1f", b / 1048576}'; }

status=0
printf '%-9s %8s %8s %7s %10s %9s %9s %9s %9s %9s %8s %s\n' backend records requests load_s \
	rpbench_KiB bitmap_KiB lib_MiB anon_MiB ceil_MiB file_MiB pages/s integrity
for b in ${backends//,/ }; do
	[ -x "$build/bin/rpbench-$b" ] || die 2 "$build/bin/rpbench-$b is not built (scripts/build.sh $build)"
	if [ "$b" = postgres ] && [ -z "$pgdir" ]; then
		pgdir=$(mktemp -d /tmp/rpbpg.XXXXXX)
		dsn=$("$top/scripts/pg-throwaway" start "$pgdir") || die 2 "could not start a PostgreSQL server"
	fi
	declare -A own=()
	within=yes
	for n in "$small" "$large"; do
		requests=$ops
		[ "$n" = "$small" ] || requests=$((3 * ops))
		command_for "$b" "$n" "$work/$b-$n-load" --set ops=1 --set threads=1
		"${cmd[@]}" >"$work/$b-$n-load.log" 2>&1 ||
			{ cat "$work/$b-$n-load.log" >&2; die 3 "loading $n records into $b failed"; }
		command_for "$b" "$n" "$work/$b-$n-harvest" --set reuse=on --set threads=2 --set "ops=$requests"
		heap=$work/$b-$n-heap.txt
		env LD_PRELOAD="$heapacct" RPB_HEAP_REPORT="$heap" "${cmd[@]}" >"$work/$b-$n-harvest.log" 2>&1 &
		pid=$!
		read -r a f < <(peak_kb "$pid")
		wait "$pid" || { cat "$work/$b-$n-harvest.log" >&2; die 3 "harvesting $n records on $b failed"; }
		[ -s "$heap" ] || die 2 "the heap accountant wrote no $heap"
		r=$work/$b-$n-harvest/result.json
		ok=$(jq -r '.pattern.totals | if .missing == 0 and .duplicates == 0 and .unexpected == 0 then "ok" else "FAILED" end' "$r")
		[ "$ok" = ok ] || status=4
		rpb=$(awk '$1 == "rpbench_peak_bytes" { print $2 }' "$heap")
		lib=$(awk '$1 == "library_peak_bytes" { print $2 }' "$heap")
		bitmaps=$(jq '.pattern.bitmap_bytes_per_harvester * (.manifest.options["run.threads"] | tonumber)' "$r")
		own[$n]=$((rpb - bitmaps))
		ceil=$(ceiling_kb "$b" "$r")
		[ "$a" -le "$ceil" ] || { within=NO; status=4; }
		printf '%-9s %8s %8s %7.1f %10.1f %9.1f %9s %9s %9s %9s %8.0f %s\n' "$b" "$n" \
			"$(jq .pattern.request_latency.requests "$r")" "$(jq .pattern.load.seconds "$work/$b-$n-load/result.json")" \
			"$(awk -v k="$rpb" 'BEGIN{print k / 1024}')" "$(awk -v k="$bitmaps" 'BEGIN{print k / 1024}')" \
			"$(mib "$lib")" "$(mib $((a * 1024)))" "$(mib $((ceil * 1024)))" "$(mib $((f * 1024)))" \
			"$(jq '.pattern.request_latency.requests / .totals.measured_s' "$r")" "$ok"
	done
	grew=$((own[$large] - own[$small]))
	verdict=yes
	[ "${grew#-}" -le "$tolerance" ] || { verdict=NO; status=4; }
	printf '%-9s rpbench heap %s -> %s records, beyond the bitmaps: %+d bytes (within %d: %s); peak RssAnon under its ceiling: %s\n' \
		"$b" "$small" "$large" "$grew" "$tolerance" "$verdict" "$within"
	unset own
done
exit $status
