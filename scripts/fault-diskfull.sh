#!/usr/bin/env bash
# Disk full on every backend, on a real size-limited file system (ext4 on a
# loop-mounted image where loop devices work, else a tmpfs: bench/quota-run
# chooses, RPB_QUOTA_FS forces one), in seconds. For each case: the ingest run
# must end with exit 3, stop reason error, class disk-full and a Status line
# saying so; verify must find every acknowledged create (0 missing, 0
# corrupt, 0 unexpected); its report must be drawn up to the end and marked
# "disk full after N creates"; after the file system is grown, a second run
# on the same store must complete and verify too. One line per case; exits
# non-zero when any case ends another way.
#
#   scripts/fault-diskfull.sh [BUILD_DIR [CASE...]]  (default: build, every case)
#
# CASE: the names of the cases to run (the first column of the output, e.g.
# mariadb postgres-wal-panic); the others are not run and not printed.
#
# Needs root, or a kernel that allows unprivileged user namespaces.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(realpath -- "${1:-build}")
only=("${@:2}")
workload=$top/data/workloads/ci-ingest.ini
quota_run=$top/bench/quota-run
work=$(mktemp -d /tmp/rpbdf.XXXXXX)

# Fill until full: no op limit, objects up to 64 KiB, durable commits (a
# PostgreSQL crash must not lose acknowledged ones). The duration only turns
# a run that never fills the disk into a failure: 10 minutes (times
# RPB_TEST_TIME_FACTOR), where filling takes seconds; intervals of 0.1 s so
# the report draws it over time.
guard=$(awk -v f="${RPB_TEST_TIME_FACTOR:-1}" 'BEGIN { printf "%d", 600 * f }')
fill=(--set ops=0 --set "duration=$guard" --set size_max=64k --set sync=commit --set interval=0.1 --quiet)
# The second run, on the grown file system: small, must complete.
again=(--set ops=100 --set size_max=64k --set sync=commit --quiet)

failed=0
# shellcheck source=scripts/servers.sh
source "$top/scripts/servers.sh"

# The status line of a run, short: "after N creates: <native message>", the
# tmpfs path as {quota}.
short_status() {
	sed -n 's/^Status: .* after \([0-9,]*\) creates ([^)]*): /after \1 creates: /p' "$1/summary.txt" |
		sed 's|/tmp/quota-run\.[A-Za-z0-9]*|{quota}|g' | cut -c1-150
}

# "N/M/C/U": verified, missing, corrupt, unexpected.
verify_counts() {
	sed -En '1s|^verified ([0-9]+) objects: ([0-9]+) missing, ([0-9]+) corrupt, ([0-9]+) unexpected.*|\1/\2/\3/\4|p' "$1"
}

# The problems of a case: run 1 must end disk full (exit 3), run 2 on the
# grown store must complete; both verify clean. Args: dir and the four exit
# codes (run 1, verify 1, run 2, verify 2).
check_both() {
	check_run "$1/run1" 3 "$2"
	check_verify "$1/run1" "$1/verify1.txt" "$3"
	check_run "$1/run2" 0 "$4"
	check_verify "$1/run2" "$1/verify2.txt" "$5"
}

elapsed() { # seconds since $1 ($EPOCHREALTIME)
	awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1fs", b - a }'
}

# check_run DIR WANT_EXIT GOT_EXIT: problems with a run's results, if any.
check_run() {
	local dir=$1 want=$2 got=$3
	[ "$got" = "$want" ] || echo "run exited $got, expected $want"
	if [ ! -f "$dir/result.json" ] || [ ! -f "$dir/summary.txt" ]; then
		echo "result files missing in $dir"
		return
	fi
	[ "$want" = 3 ] || return 0
	grep -q '"reason": "error"' "$dir/result.json" || echo "stop reason is not error"
	grep -q '"class": "disk-full"' "$dir/result.json" || echo "stop class is not disk-full"
	grep -q '^Status: .*disk full' "$dir/summary.txt" || echo "Status line: $(grep '^Status' "$dir/summary.txt")"
}

# check_verify RUN_DIR LOG GOT_EXIT: problems with a verify, if any. Every
# create the run acknowledged must have been checked.
check_verify() {
	local dir=$1 log=$2 got=$3 acked
	[ "$got" = 0 ] || echo "verify exited $got: $(tail -n 2 "$log" | tr '\n' ' ')"
	grep -q ': 0 missing, 0 corrupt, 0 unexpected' "$log" || echo "verify: $(head -n 1 "$log")"
	acked=$(sed -En 's/^Status: .*(after|completed:) ([0-9,]+) creates.*/\2/p' "$dir/summary.txt" 2>/dev/null | tr -d ,)
	grep -q "^verified ${acked:-?} objects" "$log" ||
		echo "verify checked $(sed -n 's/^verified \([0-9]*\) .*/\1/p' "$log") objects, the run acknowledged ${acked:-?}"
}

# check_report RUN_DIR REPORT_DIR: problems with the report of a disk-full
# run, if any: rpbench report draws it up to its end, marked "disk full after
# N creates" (N as the Status line counts) in index.html and on the figures
# over time it draws.
check_report() {
	local run=$1 rep=$2 n mark rc=0
	[ -x "$build/bin/rpbench" ] || return 0
	"$build/bin/rpbench" report "$run" -o "$rep" -q >"$rep.log" 2>&1 || rc=$?
	if [ "$rc" != 0 ]; then
		echo "report exited $rc: $(tail -n 1 "$rep.log")"
		return
	fi
	n=$(sed -En 's/^Status: .* after ([0-9,]+) creates.*/\1/p' "$run/summary.txt")
	mark="disk full after ${n:-?} creates"
	grep -qF "$mark" "$rep/index.html" || echo "index.html lacks \"$mark\""
	# A run that filled the disk within 3 intervals has no line to draw
	# (index.html says so); every figure over time that is drawn is marked.
	local gp
	for gp in "$rep"/figures/latency-time.gp "$rep"/figures/throughput-time.gp; do
		[ ! -f "$gp" ] || grep -qF "$mark" "$gp" || echo "${gp##*/} lacks \"$mark\""
	done
}

# The words of a command that runs BIN verify DIR with its output in LOG.
verify_cmd() { # verify_cmd BIN DIR LOG
	# shellcheck disable=SC2016 # expanded by that bash, not this one
	printf '%s\0' bash -c '"$1" verify "$2" >"$3" 2>&1' verify "$1" "$2" "$3"
}

# case NAME BACKEND SIZE [--set ...]: a disk-full run on a file system of SIZE,
# verify on the full disk (reported, not required: LevelDB and a crashed
# PostgreSQL need space to open), --grow +64M, verify, a second run on the
# same store, its verify.
# Whether case NAME is one of the CASE arguments (every case without any).
wanted() {
	[ ${#only[@]} -eq 0 ] && return 0
	local c
	for c in "${only[@]}"; do [ "$c" = "$1" ] && return 0; done
	return 1
}

run_case() {
	local name=$1 backend=$2 size=$3
	shift 3
	wanted "$name" || return 0
	local bin=$build/bin/rpbench-$backend d=$work/$name
	if [ ! -x "$bin" ]; then
		printf '%-18s skipped: %s not built\n' "$name" "$bin"
		return
	fi
	mkdir -p "$d"
	local t0=$EPOCHREALTIME va0 va1 va2 cmd=()
	mapfile -d '' va0 < <(verify_cmd "$bin" "$d/run1" "$d/verify0.txt")
	mapfile -d '' va1 < <(verify_cmd "$bin" "$d/run1" "$d/verify1.txt")
	mapfile -d '' va2 < <(verify_cmd "$bin" "$d/run2" "$d/verify2.txt")
	cmd=("$quota_run" --size "$size" ${RPB_QUOTA_FS:+--fs "$RPB_QUOTA_FS"} --status "$d/status" --
		"$bin" run "$workload" "${fill[@]}" "$@" --out "$d/run1"
		--then "${va0[@]}"
		--grow +64M "${va1[@]}"
		--then "$bin" run "$workload" "${again[@]}" --out "$d/run2"
		--then "${va2[@]}")
	local qrc=0
	"${cmd[@]}" >"$d/quota-run.log" 2>&1 || qrc=$?
	local -a st=()
	mapfile -t st < <(cut -f1 "$d/status" 2>/dev/null)
	local problems
	if [ "${#st[@]}" -ne 5 ]; then
		problems="quota-run exited $qrc after ${#st[@]} of 5 commands: $(grep '^quota-run:' "$d/quota-run.log" | tail -n 1)"
	else
		problems=$(check_both "$d" "${st[0]}" "${st[2]}" "${st[3]}" "${st[4]}")
		[ -n "$problems" ] || problems=$(check_report "$d/run1" "$d/report")
	fi
	local secs
	secs=$(elapsed "$t0")
	if [ -n "$problems" ]; then
		failed=1
		printf '%-18s FAIL %5s  %s (see %s)\n' "$name" "$secs" "$(echo "$problems" | paste -sd ';' -)" "$d"
		return
	fi
	local full=ok fs amp
	[ "${st[1]}" = 0 ] || full="cannot open"
	fs=$(sed -En '1s/^quota-run: (ext4|xfs|tmpfs) .*/\1/p' "$d/quota-run.log")
	# Space amplification: bytes on disk over acknowledged payload bytes.
	amp=$(jq -r 'if .totals.acked_bytes > 0 and .totals.store_bytes != null
		then "\(.totals.store_bytes / .totals.acked_bytes * 100 | round / 100)x" else "n/a" end' \
		"$d/run1/result.json" 2>/dev/null || echo n/a)
	printf '%-18s ok   %5s  %-5s %s; space %s; verify %s (on the full disk: %s); report marked; grown: run 2 and verify ok\n' \
		"$name" "$secs" "${fs:-?}" "$(short_status "$d/run1")" "$amp" "$(verify_counts "$d/verify1.txt")" "$full"
}

# SQLite's own page quota, for where no file system can be mounted: hitting
# max_pages ends the run as disk full (SQLITE_FULL); a run with a higher
# quota on the same store writes again.
run_max_pages() {
	local name=sqlite-max_pages bin=$build/bin/rpbench-sqlite d=$work/sqlite-max_pages
	wanted "$name" || return 0
	if [ ! -x "$bin" ]; then
		printf '%-18s skipped: %s not built\n' "$name" "$bin"
		return
	fi
	mkdir -p "$d"
	local t0=$EPOCHREALTIME r1=0 v1=0 r2=0 v2=0
	# In a subshell, so a crash is reported as its status, not by this shell.
	("$bin" run "$workload" "${fill[@]}" --set sqlite.max_pages=1024 --dir "$d/store" --out "$d/run1" >"$d/run1.log" 2>&1) || r1=$?
	("$bin" verify "$d/run1" >"$d/verify1.txt" 2>&1) || v1=$?
	("$bin" run "$workload" "${again[@]}" --set sqlite.max_pages=16384 --dir "$d/store" --out "$d/run2" >"$d/run2.log" 2>&1) || r2=$?
	("$bin" verify "$d/run2" >"$d/verify2.txt" 2>&1) || v2=$?
	local problems
	problems=$(check_both "$d" "$r1" "$v1" "$r2" "$v2")
	local secs
	secs=$(elapsed "$t0")
	if [ -n "$problems" ]; then
		failed=1
		printf '%-18s FAIL %5s  %s (see %s)\n' "$name" "$secs" "$(echo "$problems" | paste -sd ';' -)" "$d"
		return
	fi
	printf '%-18s ok   %5s  %s; verify %s; max_pages raised: run 2 and verify ok\n' "$name" "$secs" \
		"$(short_status "$d/run1")" "$(verify_counts "$d/verify1.txt")"
}

# LevelDB: the log write fails (the 16 MiB memtable is never flushed) ...
run_case leveldb leveldb 8M
# ... or, with a small memtable, the log write or a background flush (an
# error LevelDB keeps), whichever comes first.
run_case leveldb-flush leveldb 8M --set leveldb.write_buffer=256k
# RocksDB: the WAL append fails (the 64 MiB memtable is never flushed) ...
run_case rocksdb rocksdb 8M
# ... or, with a small memtable, a background flush, which RocksDB keeps as
# its background error and returns to every later write.
run_case rocksdb-flush rocksdb 8M --set rocksdb.write_buffer=256k
run_case sqlite sqlite 8M
run_max_pages
# PostgreSQL, the cluster (~40 MiB, one 16 MiB WAL segment) on the quota
# too. 3 MiB more: a table cannot grow (SQLSTATE 53100) while the first WAL
# segment still has room. 15 MiB more: the next 16 MiB WAL segment cannot be
# created first, the server PANICs and needs crash recovery once grown.
run_case postgres postgres +3M
run_case postgres-wal-panic postgres +15M
# The Fedora model: node documents, pairtree branches and a file binary
# store (objects of 0..100 KB, most in files), all on the quota.
fedora=(--set model=fedora --set size_max=100k)
run_case fedora-leveldb leveldb 16M "${fedora[@]}"
run_case fedora-sqlite sqlite 16M "${fedora[@]}"
run_case fedora-rocksdb rocksdb 16M "${fedora[@]}"
run_case fedora-postgres postgres +8M "${fedora[@]}" --set 'binary_dir={quota}/binaries'
# Every other server backend (backends.txt): quota-run starts its
# throwaway-server script in {quota} (start DIR, restart DIR after the server
# died on the full disk, kill DIR, stop DIR), the data directory on the quota.
while read -r b _; do
	[ -n "$b" ] && [ "$b" != postgres ] || continue
	run_case "$b" "$b" +8M
done <<<"$(rpb_server_backends "$build")"

if [ "$failed" -eq 0 ]; then
	rm -rf -- "$work"
	echo "disk full: every case ended as disk full, verify: verified/missing/corrupt/unexpected"
else
	echo "disk full: FAILED; results kept in $work"
fi
exit "$failed"
