#!/usr/bin/env bash
# Sets everything up on a fresh Debian 12 machine and runs the whole suite:
#  1. the layering of docs/architecture.md (scripts/check-layout.sh), and a
#     build with every backend switched off but null (a switched-off backend
#     must simply not be built);
#  2. a ThreadSanitizer build of the binaries, running threaded workloads of
#     every pattern and the reaper on every backend (Criterion itself cannot
#     start under TSan);
#  3. disk full on a real size-limited tmpfs, on every backend, a power cut
#     under a SQLite run (a crash image of a loop-mounted ext4, results off
#     it and on it; skipped with the reason where loop devices do not
#     work), and the calibration programs beside the raw pattern at a tiny
#     size;
#  4. the Debian package (scripts/deb-test.sh): built, unpacked into a
#     scratch root, its programs run from the installed files only;
#  5. the machine-readable outputs (result.json, compare.json, runs.csv)
#     against their schemas (scripts/schema-test.sh, data/schema/); the
#     docs as written: every sh block of README.md and docs/*.md runs in a
#     scratch directory (scripts/docs-test.sh, about 2 minutes);
#  6. 60 s of libFuzzer on every reader of untrusted input (tests/fuzz/,
#     a clang build of its own);
#  7. the Criterion suite in a normal build and in an ASan+UBSan build, all
#     built with -Werror, each against a throwaway server of every server
#     backend (its own script, backends.txt; PostgreSQL's with a hot
#     standby) that is always removed afterwards. The ASan+UBSan summary comes last.
# No stage judges speed: wall-time limits only turn a hang into a failure,
# and all of them (the suite's own, tests/timelimit.h, and the ones here)
# grow with RPB_TEST_TIME_FACTOR (default 1) for a slower machine.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

bash scripts/build.sh build
bash scripts/build.sh build-asan -DRPB_SANITIZE=address,undefined -DCMAKE_BUILD_TYPE=Debug
bash scripts/build.sh build-tsan -DRPB_SANITIZE=thread -DRPB_TESTS=OFF
# Every backend of the full build switched off but null (backends.txt).
mapfile -t all_off < <(awk '$1 != "null" { print "-DRPB_WITH_" toupper($1) "=OFF" }' build/backends.txt)
bash scripts/build.sh build-minimal "${all_off[@]}"
# The harnesses need no backend and no Criterion.
CC=clang bash scripts/build.sh build-fuzz -DRPB_FUZZ=ON -DRPB_TESTS=OFF "${all_off[@]}"

jobs=$(nproc)
status=0
# with_servers BUILD [--standby] -- CMD: CMD with a throwaway server of every
# server backend of BUILD (backends.txt), each setting its RPB_TEST_<NAME>_DSN.
# shellcheck source=scripts/servers.sh
source scripts/servers.sh

echo "== layout: one-way dependencies between files, includes by layer"
bash scripts/check-layout.sh build || status=1

echo "== minimal build: only the null backend"
ls build-minimal/bin
if ls build-minimal/bin | grep -qv '^rpbench-null$'; then
	echo "FAIL: switched-off backends were built"; status=1
fi
build-minimal/tests/rpbench-tests --jobs "$jobs" >/tmp/rpb-minimal.log 2>&1 || { cat /tmp/rpb-minimal.log; status=1; }
tail -n 1 /tmp/rpb-minimal.log

echo "== ThreadSanitizer: threaded runs on every backend"
TSAN_OPTIONS="halt_on_error=1 exitcode=66 suppressions=$top/tests/tsan.supp" with_servers build-tsan -- bash scripts/tsan-runs.sh build-tsan || status=1

echo "== several load nodes: mpirun -np 3 on null, sqlite and postgres (docs/distributed.md)"
with_servers build -- bash scripts/mpi-test.sh build || status=1

echo "== disk full on a size-limited tmpfs"
bash scripts/fault-diskfull.sh build || status=1

echo "== power cut: a crash image under a SQLite run, verified (docs/faults.md)"
bash scripts/power-cut-smoke.sh build || status=1

echo "== calibration programs against the raw pattern (tiny, format only)"
cal=$(mktemp -d /tmp/rpbcal.XXXXXX)
bash bench/calibrate.sh --build build --num 2000 --pg-num 500 --pairs 3 --ingest-ops 200 \
	--out "$cal/out" >"$cal/log" 2>&1 || { cat "$cal/log"; status=1; }
tail -n 3 "$cal/log"
# Every LevelDB and SQLite row has both ratios, by wall clock and by CPU time.
awk '$1 == "raw" && ($2 == "leveldb" || $2 == "sqlite") { n++; if ($8 !~ /^[0-9.]+$/ || $7 !~ /^[0-9.]+$/) bad++ }
	END { if (n < 16 || bad) { print "calibrate.sh: " n " rows, " bad + 0 " without both ratios"; exit 1 } }' \
	"$cal/out/summary.txt" || { cat "$cal/out/summary.txt"; status=1; }
rm -rf "$cal"

echo "== harvest memory: rpbench's heap at a small and a 3x larger corpus (smoke sizes)"
bash bench/harvest-memory.sh --build build --small 10000 --large 30000 --ops 100 || status=1

echo "== Debian package: cpack -G DEB, unpacked with dpkg -x, run from its own files"
bash scripts/deb-test.sh build || status=1

echo "== schemas: result.json and compare.json of every pattern against data/schema/"
with_servers build -- bash scripts/schema-test.sh build || status=1

echo "== docs: every sh block of README.md and docs/*.md, as written"
with_servers build -- bash scripts/docs-test.sh build || status=1

echo "== fuzzing: 60 s per reader"
bash scripts/fuzz.sh build-fuzz 60 || status=1

# A suite that hangs fails after 25 minutes (times the sanitizer build's
# factor 3, and RPB_TEST_TIME_FACTOR) instead of holding CI to its limit.
for dir in build build-asan; do
	echo "== test suite: $dir"
	build_factor=1
	[ "$dir" = build ] || build_factor=3
	limit=$(awk -v f="${RPB_TEST_TIME_FACTOR:-1}" -v b="$build_factor" 'BEGIN { printf "%d", 1500 * b * f }')
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
		LSAN_OPTIONS="suppressions=$top/tests/lsan.supp:print_suppressions=0" \
		with_servers "$dir" --standby -- \
			timeout --kill-after=30 "$limit" "$top/$dir/tests/rpbench-tests" --jobs "$jobs" || status=1
done
exit $status
