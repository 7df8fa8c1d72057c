#!/usr/bin/env bash
# YCSB workloads A-F on LevelDB, SQLite and PostgreSQL (a throwaway server):
# load, then run, each workload on a fresh store, and print a Markdown table
# of YCSB's [OVERALL] throughput and each operation's average and 99th
# percentile latency (docs/workloads.md, "ycsb"). Every store is verified
# after its run.
#
# usage: bench/ycsb-table.sh [BUILD_DIR]   (env: RECORDS, OPS, THREADS, SYNC)
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
BIN=${1:-$SRC/build}/bin
RECORDS=${RECORDS:-10000}
OPS=${OPS:-20000}
THREADS=${THREADS:-1}
SYNC=${SYNC:-none}
OUT=$(mktemp -d /tmp/rpb-ycsb-table.XXXXXX)
PG=$(mktemp -u /tmp/pgy.XXXXXX) # apart from OUT: the server runs as another user
DSN=$("$SRC/scripts/pg-throwaway" start "$PG")
trap '"$SRC/scripts/pg-throwaway" stop "$PG" >/dev/null 2>&1 || true; rm -rf "$OUT"' EXIT

field() { sed -n "s/^\[$2\], $3, //p" "$1/ycsb.txt"; }

echo "recordcount=$RECORDS operationcount=$OPS threadcount=$THREADS sync=$SYNC"
echo
echo "| workload | backend | throughput, ops/s | operation: avg / p99 latency, µs |"
echo "|:--|:--|--:|:--|"
for w in a b c d e f; do
	for b in leveldb sqlite postgres; do
		loc=(--dir "$OUT/store-$b-$w")
		[ "$b" = postgres ] && loc=(--dsn "$DSN" --schema "ycsb_$w")
		args=(-p recordcount="$RECORDS" -p operationcount="$OPS" -p threadcount="$THREADS"
			--set sync="$SYNC" --quiet "${loc[@]}")
		"$BIN/rpbench-$b" load "$SRC/data/workloads/ycsb/workload$w" --out "$OUT/l-$b-$w" "${args[@]}"
		"$BIN/rpbench-$b" run "$SRC/data/workloads/ycsb/workload$w" --out "$OUT/r-$b-$w" "${args[@]}"
		vargs=()
		[ "$b" = postgres ] && vargs=(--dsn "$DSN")
		"$BIN/rpbench-$b" verify "$OUT/r-$b-$w" "${vargs[@]}" >&2
		ops=""
		for op in READ UPDATE INSERT SCAN READ-MODIFY-WRITE; do
			avg=$(field "$OUT/r-$b-$w" "$op" "AverageLatency(us)")
			[ -n "$avg" ] || continue
			p99=$(field "$OUT/r-$b-$w" "$op" "99thPercentileLatency(us)")
			ops+="${ops:+; }$op $(printf '%.1f' "$avg") / $p99"
		done
		tput=$(field "$OUT/r-$b-$w" OVERALL "Throughput(ops\/sec)")
		printf '| %s | %s | %.0f | %s |\n' "$w" "$b" "$tput" "$ops"
	done
done
