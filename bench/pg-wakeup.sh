#!/usr/bin/env bash
# Is a PostgreSQL round trip on this machine bound by waking an idle CPU?
# pgbench runs the ingest baseline (bench/calibrate/ingest.pgbench, five
# round trips per transaction) and rpbench-postgres the same creates (one
# round trip each), at sync none and commit, once on an otherwise idle
# machine and once with a busy loop at the lowest priority on every CPU
# (nice 19: it takes only time nothing else wants, but keeps the CPUs from
# going idle). The order alternates per pair. If the idle runs are much
# slower per round trip, the time goes to the CPU's (or the hypervisor's)
# wake-up from idle, not to the client or the server.
#
#   bench/pg-wakeup.sh --build DIR [--ops N] [--pairs N] [--out DIR]
#
# Needs pgbench and pgcrypto (postgresql-client, postgresql-contrib) and a
# quiet machine: other work keeps the CPUs awake too.
set -euo pipefail

SRC=$(cd "$(dirname "$0")/.." && pwd)
. "$SRC/bench/pgbench-ingest.sh"
BUILD="" OPS=3000 PAIRS=3 OUT=""
die() {
	echo "pg-wakeup.sh: $*" >&2
	exit 1
}
while [ $# -gt 0 ]; do
	case "$1" in
	--build) BUILD=${2:?}; shift 2 ;;
	--ops) OPS=${2:?}; shift 2 ;;
	--pairs) PAIRS=${2:?}; shift 2 ;;
	--out) OUT=${2:?}; shift 2 ;;
	*) die "unknown argument $1; see the header of $0" ;;
	esac
done
[ -n "$BUILD" ] || die "give --build DIR (a cmake build of this tree)"
BIN=$(cd "$BUILD" && pwd)/bin
[ -x "$BIN/rpbench-postgres" ] || die "$BIN/rpbench-postgres is missing; build with cmake --build $BUILD"
command -v pgbench >/dev/null || die "pgbench not found; install postgresql-client"
command -v jq >/dev/null || die "jq not found; install jq"
OUT=${OUT:-/tmp/rpb-pg-wakeup-$$}
[ -e "$OUT" ] && die "$OUT exists; give a new --out"
mkdir -p "$OUT"

PGDIR=/tmp/pgwk$$ DSN="" SPINNERS=()
spin_stop() {
	[ ${#SPINNERS[@]} -eq 0 ] || kill "${SPINNERS[@]}" 2>/dev/null || true
	[ ${#SPINNERS[@]} -eq 0 ] || wait "${SPINNERS[@]}" 2>/dev/null || true
	SPINNERS=()
}
cleanup() {
	spin_stop
	"$SRC/scripts/pg-throwaway" stop "$PGDIR" >/dev/null 2>&1 || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM
DSN=$("$SRC/scripts/pg-throwaway" start "$PGDIR")
psql -q "$DSN" -c "SET client_min_messages = warning; CREATE EXTENSION IF NOT EXISTS pgcrypto" >/dev/null ||
	die "pgcrypto is missing; install postgresql-contrib"
quiet_sql() { psql -q "$DSN" -c "SET client_min_messages = warning; $1" >/dev/null; }
spin_start() {
	for _ in $(seq 1 "$(nproc)"); do
		nice -n 19 bash -c 'while :; do :; done' &
		SPINNERS+=($!)
	done
}

LOAD_BEFORE=$(cut -d ' ' -f 1-3 /proc/loadavg)
ROWS="$OUT/rows.tsv" # mode sync side pair micros_per_txn
: >"$ROWS"
n=0
for pair in $(seq 1 "$PAIRS"); do
	for mode in $( ((pair % 2)) && echo idle busy || echo busy idle); do
		[ "$mode" = busy ] && spin_start
		for sync in none commit; do
			n=$((n + 1))
			us=$(pgbench_ingest_us "wk_pgb_$n" "$sync" "$OPS") || die "pgbench failed"
			printf '%s\t%s\tpgbench\t%s\t%.1f\n' "$mode" "$sync" "$pair" "$us" >>"$ROWS"
			r="wk_rpb_$n"
			"$BIN/rpbench-postgres" run "$SRC/data/workloads/ci-ingest.ini" --quiet --out "$OUT/$r" \
				--dsn "$DSN" --schema "$r" --set ops="$OPS" --set threads=1 --set clients=1 \
				--set sync="$sync" --set probe_every=0 --set size_max=4096 --set rate=0 >/dev/null
			printf '%s\t%s\trpbench\t%s\t%s\n' "$mode" "$sync" "$pair" \
				"$(jq -r '1e6 / .totals.throughput_per_s | . * 10 | round / 10' "$OUT/$r/result.json")" >>"$ROWS"
			quiet_sql "DROP SCHEMA $r CASCADE"
		done
		spin_stop
	done
done

echo "machine: $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1); kernel $(uname -r)"
echo "cpuidle: $(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null || echo none)" \
	"governor $(cat /sys/devices/system/cpu/cpuidle/current_governor_ro 2>/dev/null ||
		cat /sys/devices/system/cpu/cpuidle/current_governor 2>/dev/null || echo none)"
echo "load average before: $LOAD_BEFORE; ops = $OPS per run, pairs = $PAIRS; µs per transaction, medians"
sort -t $'\t' -k1,1 -k2,2 -k3,3 -k5,5g "$ROWS" | awk -F '\t' '
	function flush() { if (n) med[key] = (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2; n = 0 }
	{ k = $1 FS $2 FS $3; if (k != key) { flush(); key = k } v[++n] = $5 }
	END {
		flush()
		printf "%-7s %-8s %12s %12s %10s\n", "sync", "side", "idle_us", "busy_us", "idle/busy"
		split("none commit", syncs, " "); split("pgbench rpbench", sides, " ")
		for (i = 1; i <= 2; i++) for (j = 1; j <= 2; j++) {
			a = med["idle" FS syncs[i] FS sides[j]]; b = med["busy" FS syncs[i] FS sides[j]]
			printf "%-7s %-8s %12.1f %12.1f %10.2f\n", syncs[i], sides[j], a, b, (b > 0 ? a / b : 0)
		}
	}' | tee "$OUT/summary.txt"
echo "rows: $ROWS"
