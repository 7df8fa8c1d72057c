#!/usr/bin/env bash
# Calibration of the ycsb pattern (docs/performance.md): YCSB workload C
# (fieldcount 10, fieldlength 100) through rpbench on LevelDB against a
# direct LevelDB loop doing the same gets (bench/calibrate/
# calibrate-ycsb-leveldb.c) on an identical copy of the store rpbench
# loaded, as a throughput ratio (rpbench / direct: 1.00 =
# no overhead), in PAIRS alternating pairs, medians; then the harness's own
# cost per YCSB operation on the null backend (ns/op).
#
# usage: bench/calibrate-ycsb.sh [BUILD_DIR]   (env: RECORDS, OPS, PAIRS)
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
BIN=${1:-$SRC/build}/bin
RECORDS=${RECORDS:-100000}
OPS=${OPS:-1000000}
PAIRS=${PAIRS:-3}
WL=$SRC/data/workloads/ycsb/workloadc
OUT=$(mktemp -d /tmp/rpb-calib-ycsb.XXXXXX)
trap 'rm -rf "$OUT"' EXIT

throughput() { sed -n 's/^\[OVERALL\], Throughput(ops\/sec), //p' "$1/ycsb.txt"; }
median() { sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }

"$BIN/rpbench-leveldb" load "$WL" --quiet --dir "$OUT/store" --out "$OUT/load" \
	-p recordcount="$RECORDS" --set sync=none
ratios=()
for pair in $(seq "$PAIRS"); do
	echo "workloadc leveldb pair $pair/$PAIRS" >&2
	rm -rf "$OUT/s1" "$OUT/s2"
	cp -a "$OUT/store" "$OUT/s1"
	cp -a "$OUT/store" "$OUT/s2"
	"$BIN/rpbench-leveldb" run "$WL" --quiet --dir "$OUT/s1" --out "$OUT/run$pair" \
		-p recordcount="$RECORDS" -p operationcount="$OPS" --set sync=none
	r=$(throughput "$OUT/run$pair")
	# 9: the raw table's key prefix in rpbench's LevelDB backend (its table_byte: the
	# store's own records sort first, each table one above its enum value).
	d=$("$BIN/calibrate-ycsb-leveldb" --db "$OUT/s2" --table-byte 9 --records "$RECORDS" \
		--ops "$OPS" | sed -n 's/.* = \([0-9.]*\) ops\/sec.*/\1/p')
	echo "rpbench $r ops/s, direct $d ops/s" >&2
	ratios+=("$(awk -v r="$r" -v d="$d" 'BEGIN {printf "%.3f", r / d}')")
done
printf '%s\n' "${ratios[@]}" | median | awk '{printf "workloadc leveldb ratio (rpbench/direct, median): %.3f\n", $1}'

# The null backend: every operation costs only the harness.
ns=()
for pair in $(seq "$PAIRS"); do
	"$BIN/rpbench-null" run "$WL" --quiet --out "$OUT/null$pair" \
		-p recordcount="$RECORDS" -p operationcount="$OPS"
	ns+=("$(awk -v t="$(throughput "$OUT/null$pair")" 'BEGIN {printf "%.1f", 1e9 / t}')")
done
printf '%s\n' "${ns[@]}" | median | awk '{printf "workloadc null harness: %.1f ns/op (median)\n", $1}'
