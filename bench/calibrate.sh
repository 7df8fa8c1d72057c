#!/usr/bin/env bash
# Calibration: rpbench's raw pattern against direct-library loops
# (bench/calibrate/), and rpbench's PostgreSQL ingest against pgbench
# running the same statements. Each pair runs interleaved (direct, rpbench,
# rpbench, direct, ...: the order alternates). As db_bench does (fresh_db),
# every fill starts on a new store and the reads after it read the store
# that fill left: the list fillseq,fillrandom,readrandom,readseq runs as
# two groups, fillseq and fillrandom,readrandom,readseq, each side's group
# on a store of its own. The summary prints medians, the
# ratio of times (rpbench µs/op / direct µs/op: 1.00 = no overhead; for
# ingest pgbench / rpbench, the speed-up) next to its target, and the
# machine: CPU, kernel, clock source, load average before and after.
#
#   bench/calibrate.sh --build DIR [--num N] [--pg-num N] [--pairs N]
#                      [--ingest-ops N] [--backends "leveldb sqlite postgres rocksdb"]
#                      [--out DIR]
#
# --backends defaults to leveldb, sqlite and postgres, and rocksdb when the
# build has it (-DRPB_WITH_ROCKSDB=ON); without it rocksdb is skipped with
# a note. Each library runs with the rpbench backend's settings on both
# sides, SQLite with db_bench_sqlite3's as that program applies them
# (bench/calibrate/calibrate-sqlite.c has the source lines): page_size 4096
# (its 1024 means "leave the default"), cache_size 4096 pages = 16 MiB,
# WAL, wal_autocheckpoint 4096, locking_mode EXCLUSIVE, synchronous OFF.
# db_bench_sqlite3 also checkpoints (FULL) at the end of every fill, inside
# the fill's time; the raw pattern has no checkpoint call, so the direct
# loop times the checkpoint on its own: the NAME/ckpt rows under the table
# are what it adds to db_bench's figure.
#
# --num keys for LevelDB, SQLite, RocksDB and null (default 100000); PostgreSQL does
# one round trip per statement, so it gets --pg-num (default 10000).
#
# PostgreSQL runs on a throwaway cluster (scripts/pg-throwaway), always
# stopped again. Raw files go to --out (default /tmp/rpb-calibrate-PID).
set -euo pipefail

SRC=$(cd "$(dirname "$0")/.." && pwd)
. "$SRC/bench/pgbench-ingest.sh"
BUILD="" NUM=100000 PG_NUM=10000 PAIRS=3 INGEST_OPS=20000 BACKENDS="" OUT=""
die() {
	echo "calibrate.sh: $*" >&2
	exit 1
}
while [ $# -gt 0 ]; do
	case "$1" in
	--build) BUILD=${2:?}; shift 2 ;;
	--num) NUM=${2:?}; shift 2 ;;
	--pg-num) PG_NUM=${2:?}; shift 2 ;;
	--pairs) PAIRS=${2:?}; shift 2 ;;
	--ingest-ops) INGEST_OPS=${2:?}; shift 2 ;;
	--backends) BACKENDS=${2:?}; shift 2 ;;
	--out) OUT=${2:?}; shift 2 ;;
	*) die "unknown argument $1; see the header of $0" ;;
	esac
done
[ -n "$BUILD" ] || die "give --build DIR (a cmake build of this tree)"
command -v jq >/dev/null || die "jq not found; install jq (scripts/deps.sh does)"
BIN=$(cd "$BUILD" && pwd)/bin
[ "$PAIRS" -ge 3 ] || die "--pairs must be at least 3 for a median"
if [ -z "$BACKENDS" ]; then
	BACKENDS="leveldb sqlite postgres"
	if [ -x "$BIN/rpbench-rocksdb" ] && [ -x "$BIN/calibrate-rocksdb" ]; then
		BACKENDS+=" rocksdb"
	else
		echo "calibrate.sh: rocksdb skipped: not in this build (configure with -DRPB_WITH_ROCKSDB=ON)" >&2
	fi
fi
for b in $BACKENDS null; do
	[ -x "$BIN/rpbench-$b" ] || die "$BIN/rpbench-$b is missing; build with cmake --build $BUILD (a backend that is off: configure with -DRPB_WITH_${b^^}=ON)"
	[ "$b" = null ] || [ -x "$BIN/calibrate-$b" ] || die "$BIN/calibrate-$b is missing; build with cmake --build $BUILD"
done
OUT=${OUT:-/tmp/rpb-calibrate-$$}
[ -e "$OUT" ] && die "$OUT exists; give a new --out"
mkdir -p "$OUT"
ROWS="$OUT/rows.tsv" # kind backend value_size benchmark side pair micros_per_op
: >"$ROWS"
BENCHES=fillseq,fillrandom,readrandom,readseq
# SQLite at db_bench_sqlite3's settings as it applies them (calibrate-sqlite.c
# cites the lines); synchronous follows sync = none: OFF.
SQLITE_SETS=(--set sqlite.page_size=4096 --set sqlite.cache_size=16M --set sqlite.mmap_size=0
	--set sqlite.wal_autocheckpoint=4096 --set sqlite.locking_mode=exclusive)
LOAD_BEFORE=$(cut -d ' ' -f 1-3 /proc/loadavg)
# null keeps nothing, so its scans read nothing: point benchmarks only.
NULL_BENCHES=fillseq,fillrandom,overwrite,readrandom,deleterandom
num_for() { if [ "$1" = postgres ]; then echo "$PG_NUM"; else echo "$NUM"; fi; }
quiet_sql() { psql -q "$DSN" -c "SET client_min_messages = warning; $1" >/dev/null; }

PGDIR="" DSN=""
cleanup() {
	if [ -n "$PGDIR" ]; then
		"$SRC/scripts/pg-throwaway" stop "$PGDIR" >/dev/null 2>&1 || true
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
case " $BACKENDS " in *" postgres "*)
	PGDIR=/tmp/pgcal$$
	DSN=$("$SRC/scripts/pg-throwaway" start "$PGDIR")
	command -v pgbench >/dev/null || die "pgbench not found; install postgresql-client"
	psql -q "$DSN" -c "SET client_min_messages = warning; CREATE EXTENSION IF NOT EXISTS pgcrypto" >/dev/null ||
		die "pgcrypto is missing (the pgbench baseline's random content); install postgresql-contrib"
	;;
esac

# "name : X micros/op; ..." lines on stdin -> rows
rows() {
	local kind=$1 b=$2 vs=$3 side=$4 pair=$5
	awk -v k="$kind" -v b="$b" -v vs="$vs" -v s="$side" -v p="$pair" \
		'$2 == ":" && $4 == "micros/op;" { printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", k, b, vs, $1, s, p, $3 }' >>"$ROWS"
}

# fillrandbatch: fillrandom with 1000 puts per transaction (SQLite only,
# db_bench_sqlite3's fillrandbatch), on a store of its own.
rename_batch() { sed -E 's#^fillrandom(/[a-z/]*)? +:#fillrandbatch\1 :#'; }

# A benchmark list as db_bench runs it on stores: a new group at each fill
# (fresh_db), one group a line.
groups() {
	tr ',' '\n' <<<"$1" | awk '/^fill/ && g != "" { print g; g = "" } { g = g == "" ? $0 : g "," $0 } END { if (g != "") print g }'
}

run_direct() {
	local b=$1 vs=$2 pair=$3 tag=$4 batch=${5:-1} benches=$BENCHES g=0 group
	[ "$batch" = 1 ] || benches=fillrandom
	for group in $(groups "$benches"); do
		g=$((g + 1))
		local args=(--num "$(num_for "$b")" --value-size "$vs" --benchmarks "$group" --sync 0 --batch "$batch")
		if [ "$b" = postgres ]; then
			"$BIN/calibrate-postgres" --dsn "$DSN" --schema "${tag}_g$g" "${args[@]}"
		elif [ "$b" = sqlite ]; then
			"$BIN/calibrate-sqlite" --db "$OUT/${tag}_g$g.sqlite" "${args[@]}"
			rm -f "$OUT/${tag}_g$g.sqlite" "$OUT/${tag}_g$g.sqlite-wal" "$OUT/${tag}_g$g.sqlite-shm"
		else
			"$BIN/calibrate-$b" --db "$OUT/${tag}_g$g" "${args[@]}"
			rm -rf "${OUT:?}/${tag}_g$g"
		fi
	done | if [ "$batch" = 1 ]; then cat; else rename_batch; fi | rows raw "$b" "$vs" direct "$pair"
}

run_rpbench() {
	local b=$1 vs=$2 pair=$3 tag=$4 batch=${5:-1} benches=$BENCHES g=0 group
	[ "$b" = null ] && benches=$NULL_BENCHES
	[ "$batch" = 1 ] || benches=fillrandom
	# null keeps nothing: one run; every other backend a run per group.
	local list
	if [ "$b" = null ]; then list=$benches; else list=$(groups "$benches"); fi
	for group in $list; do
		g=$((g + 1))
		local r="${tag}_g$g"
		local args=(run "$SRC/data/workloads/raw-ci.ini" --quiet --out "$OUT/$r"
			--set num="$(num_for "$b")" --set value_size="$vs" --set benchmarks="$group" --set sync=none
			--set batch="$batch" --set scan_chunk=0)
		[ "$b" = postgres ] && args+=(--dsn "$DSN" --schema "$r")
		[ "$b" = sqlite ] && args+=("${SQLITE_SETS[@]}")
		"$BIN/rpbench-$b" "${args[@]}" >/dev/null
		sed -n '/^-----/,$p' "$OUT/$r/report.txt"
		# The CPU time of each benchmark, as the direct loops print it.
		jq -r '.pattern.benchmarks[] | select(.completed) |
			"\(.name)/cpu : \(.cpu_micros_per_op) micros/op;"' "$OUT/$r/result.json"
		rm -rf "${OUT:?}/$r/store"
		if [ "$b" = postgres ]; then quiet_sql "DROP SCHEMA $r CASCADE"; fi
	done | if [ "$batch" = 1 ]; then cat; else rename_batch; fi |
		rows raw "$b" "$vs" rpbench "$pair"
	return 0
}

for b in $BACKENDS; do
	for vs in 100 2048; do
		for pair in $(seq 1 "$PAIRS"); do
			echo "raw $b value_size $vs pair $pair/$PAIRS" >&2
			# Odd pairs run the direct loop first, even ones rpbench: what
			# one run leaves behind (dirty pages the kernel writes back,
			# a warm page cache) falls on both sides alike.
			for side in $( ((pair % 2)) && echo direct rpbench || echo rpbench direct); do
				sync
				"run_$side" "$b" "$vs" "$pair" "${side:0:1}_${b}_${vs}_$pair"
				if [ "$b" = sqlite ]; then
					sync
					"run_$side" "$b" "$vs" "$pair" "${side:0:1}b_${b}_${vs}_$pair" 1000
				fi
			done
		done
	done
done

# The null backend: rpbench alone, the harness's own cost per operation.
for pair in $(seq 1 "$PAIRS"); do
	echo "raw null pair $pair/$PAIRS" >&2
	run_rpbench null 100 "$pair" "r_null_$pair"
done

# PostgreSQL ingest against pgbench with the same statements.
if [ -n "$DSN" ]; then
	for sync in none commit; do
		cat >"$OUT/ingest-$sync.ini" <<-EOF
			[run]
			threads = 1
			clients = 1
			ops = $INGEST_OPS
			interval = 60
			sync = $sync
			[ingest]
			size_min = 0
			size_max = 4096
			probe_every = 0
		EOF
		for pair in $(seq 1 "$PAIRS"); do
			echo "ingest sync $sync pair $pair/$PAIRS" >&2
			us=$(pgbench_ingest_us "pgb_${sync}_$pair" "$sync" "$INGEST_OPS") || die "pgbench failed"
			printf 'ingest\tpostgres\t%s\tcreate\tdirect\t%s\t%s\n' "$sync" "$pair" "$us" >>"$ROWS"
			r="ing_${sync}_$pair"
			"$BIN/rpbench-postgres" run "$OUT/ingest-$sync.ini" --quiet --out "$OUT/$r" \
				--dsn "$DSN" --schema "$r" >/dev/null
			thr=$(grep -o '"throughput_per_s": [0-9.e+]*' "$OUT/$r/result.json" | head -n 1 | awk '{ print $2 }')
			printf 'ingest\tpostgres\t%s\tcreate\trpbench\t%s\t%s\n' "$sync" "$pair" \
				"$(awk -v t="$thr" 'BEGIN { printf "%.3f", 1e6 / t }')" >>"$ROWS"
			quiet_sql "DROP SCHEMA $r CASCADE"
		done
	done
fi

# Medians per (kind, backend, value size/sync, benchmark, side), then ratios
# next to their targets: raw rpbench / direct time <= 1.03 (LevelDB) and
# <= 1.05 (SQLite), ingest pgbench / rpbench time >= 1.5, null <= 0.100 us
# per transaction (the harness alone). Raw rows also give the ratio of CPU
# times (whole process, every thread): preemption by other processes
# lengthens wall time but not CPU time, so on a busy machine it is the
# steadier of the two.
LOAD_AFTER=$(cut -d ' ' -f 1-3 /proc/loadavg)
echo
echo "machine: $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
echo "kernel: $(uname -sr); clocksource: $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null || echo unknown)"
echo "load average (1/5/15 min): before $LOAD_BEFORE, after $LOAD_AFTER"
echo "num = $NUM (postgres $PG_NUM), pairs = $PAIRS, ingest ops = $INGEST_OPS; micros/op are medians"
sort -t $'\t' -k1,1 -k2,2 -k3,3n -k4,4 -k5,5 -k7,7g "$ROWS" | awk -F '\t' '
	function flush() {
		if (n) { med[key] = (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2; keys[++nk] = key }
		n = 0
	}
	function verdict(x, op, t) { return (op == "<=" ? x <= t : x >= t) ? "met" : "MISSED" }
	# The ratio of CPU times ("NAME/cpu" rows), or "-" where there are none.
	function cpu_ratio(f,   c, d) {
		c = f[1] FS f[2] FS f[3] FS f[4] "/cpu" FS "rpbench"
		d = f[1] FS f[2] FS f[3] FS f[4] "/cpu" FS "direct"
		return (c in med && d in med && med[d] > 0) ? sprintf("%.3f", med[c] / med[d]) : "-"
	}
	{ k = $1 FS $2 FS $3 FS $4 FS $5; if (k != key) { flush(); key = k } v[++n] = $7 }
	END {
		flush()
		fmt = "%-7s %-9s %-6s %-13s %12s %12s %8s %9s  %-8s %s\n"
		printf fmt, "kind", "backend", "size", "benchmark", "direct_us", "rpbench_us", "ratio", "cpu_ratio", "target", "verdict (wall / cpu)"
		for (i = 1; i <= nk; i++) {
			split(keys[i], f, FS)
			if (f[5] != "rpbench" || f[4] ~ /\/(cpu|ckpt)$/) continue
			d = f[1] FS f[2] FS f[3] FS f[4] FS "direct"
			r = med[keys[i]]
			if (f[1] == "ingest") {
				x = med[d] / r; op = ">="; t = 1.5
			} else if (d in med) {
				x = r / med[d]; op = "<="
				t = f[2] == "leveldb" ? 1.03 : f[2] == "sqlite" ? 1.05 : 0
			} else {
				printf fmt, f[1], f[2], f[3], f[4], "-", sprintf("%.3f", r), "-", "-", "<=0.100", verdict(r, "<=", 0.100)
				continue
			}
			c = cpu_ratio(f)
			v2 = (t && c != "-") ? " / " verdict(c + 0, op, t) : ""
			if (t)
				printf fmt, f[1], f[2], f[3], f[4], sprintf("%.3f", med[d]), sprintf("%.3f", r), sprintf("%.3f", x), c, op t, verdict(x, op, t) v2
			else
				printf fmt, f[1], f[2], f[3], f[4], sprintf("%.3f", med[d]), sprintf("%.3f", r), sprintf("%.3f", x), c, "-", "-"
		}
		# What db_bench_sqlite3 adds to each fill and rpbench does not do:
		# the FULL checkpoint at its end (calibrate-sqlite.c).
		for (i = 1; i <= nk; i++) {
			split(keys[i], f, FS)
			if (f[5] != "direct" || f[4] !~ /\/ckpt$/) continue
			if (!hdr++)
				printf "\n%-7s %-9s %-6s %-17s %12s  %s\n", "ckpt", "backend", "size", "benchmark", "direct_us", "(db_bench_sqlite3 times it in its fill; rpbench has no checkpoint)"
			fill = f[1] FS f[2] FS f[3] FS substr(f[4], 1, length(f[4]) - 5) FS "direct"
			printf "%-7s %-9s %-6s %-17s %12.3f  = %.1f%% of the fill alone\n", "ckpt", f[2], f[3], f[4], med[keys[i]], (fill in med && med[fill] > 0) ? 100 * med[keys[i]] / med[fill] : 0
		}
	}' | tee "$OUT/summary.txt"
echo "rows: $ROWS; summary: $OUT/summary.txt"
