#!/usr/bin/env bash
# How does each backend carry a Fedora repository as it grows? Runs the
# ingest pattern's Fedora model (data/workloads/fedora-seed-run.ini by
# default) on LevelDB, SQLite and PostgreSQL, each on a quota of its own
# (bench/quota-run, ext4 where loop devices work), until a given number of
# objects or until the run ends on its own (disk full, a transaction
# timeout); then draws create latency and store size against the number of
# objects for all three on one page (gnuplot) and prints a table.
# docs/reproducing.md uses it.
set -euo pipefail

prog=bench/fedora-scale.sh
top=$(cd "$(dirname "$0")/.." && pwd)

usage() {
	cat <<EOF
usage: $prog [--build DIR] [--backends LIST] [--objects N] [--size SIZE] [--fs FS]
                          [--workload FILE] [--interval SECONDS] [--set KEY=VALUE]...
                          [--out DIR]

For each backend: one run of WORKLOAD (default data/workloads/fedora-seed-run.ini)
with ops = N (one thread, as the seed ran it) on a quota of SIZE (PostgreSQL: the
cluster plus SIZE), progress every INTERVAL seconds, then verify on 64M more (LevelDB
and PostgreSQL write when they open). The run ends at N objects or on its own, as
the seed's runs did (disk full, the transaction reaper with --set txn_timeout=MS). Writes per backend its results directory and
OUT/<backend>.dat (objects, mean and p99 create latency in ms, store bytes),
OUT/fedora-scale.png and .svg (latency and size against objects, three backends
on one page), and OUT/summary.txt (the table it prints).

Options:
  --build DIR       build directory (default: build in the repository top)
  --backends LIST   comma-separated (default: leveldb,sqlite,postgres)
  --objects N       creates before the run stops on its own (default: 20000)
  --size SIZE       the quota: N with k, M or G (default: 2G; PostgreSQL: +SIZE)
  --fs FS           ext4, xfs or tmpfs (default: quota-run's: ext4 as root)
  --workload FILE   default: data/workloads/fedora-seed-run.ini
  --interval S      seconds between rows (default: 2)
  --set KEY=VALUE   passed on to every run (repeatable)
  --out DIR         default: a new directory under /tmp (printed at the end)
  --help            this text

Needs jq and gnuplot. Exit codes: 0 done, 1 usage, 2 environment, 3 a run or
verify failed in a way the seed's runs did not (anything but completed, disk
full, transaction timeout; or verify not clean).
EOF
}

die() {
	echo "$prog: $2" >&2
	exit "$1"
}

build=$top/build
backends=leveldb,sqlite,postgres
objects=20000
size=2G
fs=
workload=$top/data/workloads/fedora-seed-run.ini
interval=2
out=
sets=()
while [ $# -gt 0 ]; do
	case $1 in
	--build) build=${2:?--build needs a directory}; shift 2 ;;
	--backends) backends=${2:?--backends needs a list}; shift 2 ;;
	--objects) objects=${2:?--objects needs a number}; shift 2 ;;
	--size) size=${2:?--size needs a size}; shift 2 ;;
	--fs) fs=${2:?--fs needs ext4, xfs or tmpfs}; shift 2 ;;
	--workload) workload=${2:?--workload needs a file}; shift 2 ;;
	--interval) interval=${2:?--interval needs seconds}; shift 2 ;;
	--set) sets+=(--set "${2:?--set needs KEY=VALUE}"); shift 2 ;;
	--out) out=${2:?--out needs a directory}; shift 2 ;;
	--help | -h) usage; exit 0 ;;
	*) die 1 "unknown option '$1'; see --help" ;;
	esac
done
[[ $objects =~ ^[1-9][0-9]*$ ]] || die 1 "--objects '$objects' is not a positive integer"
[[ $size =~ ^[1-9][0-9]*[kKmMgG]?$ ]] || die 1 "--size '$size' is not a size like 2G"
[[ $interval =~ ^[0-9]+(\.[0-9]+)?$ ]] || die 1 "--interval '$interval' is not a number of seconds"
[ -f "$workload" ] || die 1 "--workload $workload: no such file"
command -v jq >/dev/null || die 2 "jq is missing; install it (scripts/deps.sh)"
command -v gnuplot >/dev/null || die 2 "gnuplot is missing; install it (scripts/deps.sh)"
if [ -z "$out" ]; then
	out=$(mktemp -d /tmp/fedora-scale.XXXXXX)
else
	mkdir -p "$out"
	[ -z "$(ls -A "$out")" ] || die 1 "--out $out is not empty; give a new or empty directory"
fi
out=$(realpath "$out")

status=0
summary=$out/summary.txt
printf '%-9s %8s %9s %10s %10s %10s %7s  %s\n' backend objects creates/s "p99 ms" "store MiB" \
	"acked MiB" "space" "ended" | tee "$summary"
IFS=, read -r -a list <<<"$backends"
for b in "${list[@]}"; do
	bin=$build/bin/rpbench-$b
	[ -x "$bin" ] || die 2 "$bin is not built; build first (scripts/build.sh)"
	quota=(--size "$size")
	extra=()
	if [ "$b" = postgres ]; then
		quota=(--size "+$size")
		extra=(--set 'binary_dir={quota}/binaries')
	fi
	rc=0
	# verify after disk full needs room: LevelDB and PostgreSQL write on open.
	"$top/bench/quota-run" "${quota[@]}" ${fs:+--fs "$fs"} --status "$out/$b.status" -- \
		"$bin" run "$workload" --set "ops=$objects" --set "interval=$interval" --quiet \
		"${sets[@]}" "${extra[@]}" --out "$out/$b" \
		--grow +64M "$bin" verify "$out/$b" >"$out/$b.log" 2>&1 || rc=$?
	if [ ! -f "$out/$b/result.json" ]; then
		echo "$b: no results (quota-run exited $rc); see $out/$b.log"
		status=3
		continue
	fi
	# objects (cumulative acked), mean and p99 of the interval's samples in
	# ms, store bytes: rows with samples and a known size.
	awk -F, 'NR > 1 && $2 > 0 && $10 > 0 { printf "%s %.3f %.3f %s\n", $9, $4 / 1000, $6 / 1000, $10 }' \
		"$out/$b/intervals.csv" >"$out/$b.dat"
	reason=$(jq -r '.stop.reason + (if .stop.class then ": " + .stop.class else "" end)' "$out/$b/result.json")
	verify=$(sed -n 2p "$out/$b.status" | cut -f1)
	case $reason in
	completed | "error: disk-full" | "error: txn-timeout") ;;
	*) status=3 ;;
	esac
	grep -q ': 0 missing, 0 corrupt, 0 unexpected' "$out/$b.log" || { status=3; reason="$reason; verify exited ${verify:-?}"; }
	jq -r --arg b "$b" --arg r "$reason" '
		[$b, .totals.acked,
		 (.labels.create.throughput_per_s * 10 | round / 10),
		 ((.labels.create.p99_us // 0) / 1000 * 10 | round / 10),
		 ((.totals.store_bytes // 0) / 1048576 * 10 | round / 10),
		 (.totals.acked_bytes / 1048576 * 10 | round / 10),
		 (if .totals.acked_bytes > 0 and .totals.store_bytes then
		    ((.totals.store_bytes / .totals.acked_bytes * 100 | round / 100) | tostring) + "x"
		  else "n/a" end), $r] | @tsv' "$out/$b/result.json" |
		awk -F'\t' '{ printf "%-9s %8s %9s %10s %10s %10s %7s  %s\n", $1, $2, $3, $4, $5, $6, $7, $8 }' |
		tee -a "$summary"
done

# One page, two panels; the script's text is fixed: only the backend names
# of this script's own list and file names under OUT go into it.
plot=$out/fedora-scale.gp
# Each backend's colour in every figure rpbench draws (src/report/figure.c,
# rpb_palette_colour; tests/palette_test.c checks these match).
colour() {
	case $1 in
	leveldb) echo '#0072b2' ;;
	sqlite) echo '#e69f00' ;;
	postgres) echo '#009e73' ;;
	esac
}
{
	echo 'set datafile separator " "'
	echo 'set key top left'
	echo 'set grid'
	echo 'set xlabel "objects created"'
	echo 'set multiplot layout 2,1 title "Fedora model: create latency and store size as the repository grows"'
	echo 'set ylabel "create latency, ms (mean over each interval)"'
	echo 'set logscale y'
	printf 'plot '
	sep=
	for b in "${list[@]}"; do
		case $b in leveldb | sqlite | postgres) ;; *) continue ;; esac
		[ -s "$out/$b.dat" ] || continue
		printf '%s"%s" using 1:2 with lines lw 2 lc rgb "%s" title "%s"' "$sep" "$out/$b.dat" "$(colour "$b")" "$b"
		sep=', '
	done
	echo
	echo 'unset logscale y'
	echo 'set ylabel "store size, MiB"'
	printf 'plot '
	sep=
	for b in "${list[@]}"; do
		case $b in leveldb | sqlite | postgres) ;; *) continue ;; esac
		[ -s "$out/$b.dat" ] || continue
		printf '%s"%s" using 1:($4/1048576) with lines lw 2 lc rgb "%s" title "%s"' "$sep" "$out/$b.dat" "$(colour "$b")" "$b"
		sep=', '
	done
	echo
	echo 'unset multiplot'
} >"$plot.body"
for term in "pngcairo size 1000,900:png" "svg size 1000,900:svg"; do
	{
		echo "set terminal ${term%%:*}"
		echo "set output \"$out/fedora-scale.${term##*:}\""
		cat "$plot.body"
	} >"$plot"
	gnuplot "$plot" 2>"$out/gnuplot.log" || { echo "gnuplot failed: see $out/gnuplot.log"; status=3; }
done
rm -f "$plot.body"
echo "results: $out (fedora-scale.png, summary.txt, <backend>/)"
exit $status
