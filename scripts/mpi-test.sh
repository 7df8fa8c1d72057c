#!/usr/bin/env bash
# Runs of several load nodes under mpirun, 3 ranks on this machine
# (docs/distributed.md): null, sqlite (a store per rank) and every server
# backend whose RPB_TEST_<NAME>_DSN is set (scripts/test.sh's with_servers;
# one server);
# a stop on one rank stops all; a rank killed with SIGKILL loses nothing
# acknowledged. Usage: mpi-test.sh BUILD_DIR. No check judges speed; every
# run is bounded by a limit that grows with RPB_TEST_TIME_FACTOR. On an
# ASan build, LeakSanitizer needs ASAN_OPTIONS=fast_unwind_on_malloc=0 and
# tests/lsan.supp to tell Open MPI's own allocations (kept past
# MPI_Finalize, from components it has unloaded by then) from rpbench's.
set -euo pipefail
build=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
limit=$(awk -v f="${RPB_TEST_TIME_FACTOR:-1}" 'BEGIN { printf "%d", 300 * f }')
mpmd=(mpirun --oversubscribe) # then -np N PROGRAM ARGS : -np N ...
[ "$(id -u)" -ne 0 ] || mpmd+=(--allow-run-as-root)
mpi=("${mpmd[@]}" -np 3)
work=$(mktemp -d /tmp/rpbmpi.XXXXXX)
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
wl=data/workloads/ci-ingest.ini
# shellcheck source=scripts/servers.sh
source scripts/servers.sh

# The merged figures against the ranks' own: counts and sums add up, the
# extremes are the ranks' extremes, the median lies between the ranks'
# medians, the mean is the ranks' means weighted by their counts (the sums
# are exact), run tags and seeds differ by rank.
check_merge() {
	local out=$1 what=$2
	jq -e -s '
		.[0] as $t | .[1:] as $r |
		($t.nodes | length) == 3 and
		$t.totals.acked == ($r | map(.totals.acked) | add) and
		$t.totals.samples == ($r | map(.totals.samples) | add) and
		$t.labels.create.measured == ($r | map(.labels.create.measured) | add) and
		$t.labels.create.min_us == ($r | map(.labels.create.min_us) | min) and
		$t.labels.create.max_us == ($r | map(.labels.create.max_us) | max) and
		$t.labels.create.p50_us >= ($r | map(.labels.create.p50_us) | min) * 0.99 and
		$t.labels.create.p50_us <= ($r | map(.labels.create.p50_us) | max) * 1.01 and
		(($t.labels.create.mean_us - (($r | map(.labels.create.mean_us * .labels.create.measured) | add)
			/ $t.labels.create.measured)) | fabs) <= 1e-6 * $t.labels.create.mean_us + 1e-9 and
		($r | map(.manifest.run_tag) | unique | length) == 3 and
		($r | map(.manifest.seed) | unique | length) == 3 and
		($r | map(.node.rank)) == [0, 1, 2]
	' "$out/result.json" "$out"/rank-{0,1,2}/result.json >/dev/null || fail "$what: merged figures"
}

# A sweep's efficiency figures, recomputed from each point's result.json:
# ops/s per unit of concurrency over the smallest point's.
check_sweep() {
	local out=$1 what=$2 line conc tput eff base=""
	[ -s "$out/sweep.svg" ] && grep -q '<svg' "$out/sweep.svg" || fail "$what: no sweep.svg"
	[ -s "$out/sweep.txt" ] || fail "$what: no sweep.txt"
	while IFS=, read -r threads ranks conc _ _ _ _ result; do
		[ "$threads" = threads ] && continue
		tput=$(jq -e '.totals.throughput_per_s' "$out/$result/result.json") || { fail "$what: $result"; continue; }
		[ -n "$base" ] || base=$(awk -v t="$tput" -v c="$conc" 'BEGIN { print t / c }')
		eff=$(awk -F, -v c="$conc" -v r="$ranks" -v t="$threads" \
			'$1 == c && $2 == t && $3 == r { print $6 }' "$out/sweep-points.csv")
		awk -v t="$tput" -v c="$conc" -v b="$base" -v e="$eff" \
			'BEGIN { d = t / c / b - e; exit !(e != "" && d < 1e-3 && d > -1e-3) }' ||
			fail "$what: efficiency at concurrency $conc is $eff, not $tput / $conc / $base"
	done < <(sort -t, -k3,3n "$out/sweep.csv")
}

if [ -x "$build/bin/rpbench" ]; then # not in a build of the null backend alone
	echo "-- sweep of threads, no MPI needed"
	timeout "$limit" "$build/bin/rpbench" sweep "$wl" --backend null -s threads=1,2,3 -s ops=300 \
		-o "$work/sweep" -q || fail "thread sweep"
	check_sweep "$work/sweep" "thread sweep"
	[ "$(grep -c ',runs/t' "$work/sweep/sweep.csv")" = 3 ] || fail "thread sweep: not 3 runs"
fi

if ! grep -q '^RPB_WITH_MPI:BOOL=ON' "$build/CMakeCache.txt"; then
	echo "mpi-test: $build has no MPI (RPB_WITH_MPI); runs of several ranks skipped"
	[ "$fails" = 0 ] && exit 0 || exit 1
fi

# Ranks that disagree: refused before the first operation with one line
# from the first rank that differs, exit 1, and nothing written by any rank
# (docs/distributed.md, "Every rank runs the same run").
refused() {
	local what=$1 want=$2 dir=$3 err
	shift 3
	err=$(timeout "$limit" "${mpmd[@]}" "$@" 2>&1 >/dev/null) && { fail "$what: exit 0"; return; }
	[ "$(grep -c 'differs from rank 0' <<<"$err")" = 1 ] || fail "$what: not one refusal line: $err"
	grep -q "^rpbench-[a-z]*: rank 1 differs from rank 0 in $want" <<<"$err" ||
		fail "$what: the line does not name rank 1 and $want: $err"
	[ -z "$(ls -A "$dir")" ] || fail "$what: the refused run wrote $(ls -A "$dir")"
}
echo "-- ranks that disagree are refused"
for case in backend out set; do mkdir "$work/refuse-$case"; done
n=$build/bin/rpbench-null
other=$build/bin/rpbench-sqlite
[ -x "$other" ] || other=$build/bin/rpbench-leveldb
if [ -x "$other" ]; then
	refused "differing backend" "the backend: [a-z]* here, null at rank 0" "$work/refuse-backend" \
		-np 1 "$n" run "$wl" -s ops=20 -o "$work/refuse-backend/o" \
		: -np 1 "$other" run "$wl" -s ops=20 -o "$work/refuse-backend/o"
fi
refused "differing --out" "--out: $work/refuse-out/o2 here, $work/refuse-out/o at rank 0" \
	"$work/refuse-out" \
	-np 1 "$n" run "$wl" -s ops=20 -o "$work/refuse-out/o" \
	: -np 1 "$n" run "$wl" -s ops=20 -o "$work/refuse-out/o2"
refused "differing --set" 'option.run.ops: "30" here, "20" at rank 0' "$work/refuse-set" \
	-np 1 "$n" run "$wl" -s ops=20 -o "$work/refuse-set/o" \
	: -np 2 "$n" run "$wl" -s ops=30 -o "$work/refuse-set/o"

echo "-- sweep of threads and ranks"
timeout "$limit" "$build/bin/rpbench" sweep "$wl" --backend null -s threads=1,2 --ranks 1,3 \
	-s ops=300 -o "$work/sweepr" -q || fail "rank sweep"
check_sweep "$work/sweepr" "rank sweep"
jq -e '.nodes | length == 3' "$work/sweepr/runs/t2-r3-1/result.json" >/dev/null ||
	fail "rank sweep: the 3-rank point has no merged result"

echo "-- null: 3 ranks, merged exactly"
timeout "$limit" "${mpi[@]}" "$build/bin/rpbench-null" run "$wl" --out "$work/null" \
	--set ops=300 --set threads=2 --quiet >"$work/null.log" 2>&1 || { cat "$work/null.log"; fail "null run"; }
check_merge "$work/null" null

echo "-- progress: rank 0 alone prints the merged summariser lines"
timeout "$limit" "${mpi[@]}" "$build/bin/rpbench-null" run "$wl" --out "$work/prog" --set ops=0 \
	--set duration=2.5 --set threads=1 --set interval=1 >"$work/prog.log" 2>&1 || { cat "$work/prog.log"; fail "progress run"; }
# Every rank's one thread in each "summary +" line; one header, from rank 0.
grep -q '^summary + .* Started: 3 Finished: ' "$work/prog.log" &&
	! grep -q '^summary + .* Started: 1 ' "$work/prog.log" &&
	[ "$(grep -c '^rpbench .*: ingest on null' "$work/prog.log")" = 1 ] ||
	{ cat "$work/prog.log"; fail "progress: no merged summariser lines from rank 0 alone"; }

echo "-- sqlite: a store per rank, verify checks every rank"
timeout "$limit" "${mpi[@]}" "$build/bin/rpbench-sqlite" run "$wl" --out "$work/sq" \
	--set ops=200 --set threads=2 --quiet >"$work/sq.log" 2>&1 || { cat "$work/sq.log"; fail "sqlite run"; }
check_merge "$work/sq" sqlite
for r in 0 1 2; do
	[ -d "$work/sq/rank-$r/store" ] || fail "sqlite: no store of its own for rank $r"
done
"$build/bin/rpbench-sqlite" verify "$work/sq" >"$work/sq.verify" 2>&1 || { cat "$work/sq.verify"; fail "sqlite verify"; }
[ "$(grep -c '^verified 400 objects: 0 missing, 0 corrupt, 0 unexpected' "$work/sq.verify")" = 3 ] ||
	{ cat "$work/sq.verify"; fail "sqlite: verify did not check 3 ranks of 400 objects"; }
# An independent reader: sqlite3 counts every rank's objects.
stored=0
for r in 0 1 2; do
	stored=$((stored + $(sqlite3 -readonly "$work/sq/rank-$r/store/rpbench.sqlite" 'SELECT count(*) FROM objects')))
done
[ "$stored" = "$(jq .totals.acked "$work/sq/result.json")" ] ||
	fail "sqlite: the stores hold $stored objects, the merged result acknowledges $(jq .totals.acked "$work/sq/result.json")"

# Every server backend whose test server runs (its RPB_TEST_<NAME>_DSN,
# scripts/servers.sh): one server, all ranks, each rank's schema its own.
while read -r b _; do
	[ -n "$b" ] || continue
	var=$(rpb_server_dsn_var "$b")
	if [ -z "${!var:-}" ]; then
		echo "-- $b: $var is not set (scripts/test.sh's with_servers sets it); no $b runs"
		continue
	fi
	dsn=${!var}
	echo "-- $b: one server, all ranks"
	timeout "$limit" "${mpi[@]}" "$build/bin/rpbench-$b" run "$wl" --out "$work/$b" \
		--dsn "$dsn" --set ops=100 --set threads=1 --quiet >"$work/$b.log" 2>&1 ||
		{ cat "$work/$b.log"; fail "$b run"; }
	check_merge "$work/$b" "$b"
	"$build/bin/rpbench-$b" verify "$work/$b" --dsn "$dsn" >"$work/$b.verify" 2>&1 ||
		{ cat "$work/$b.verify"; fail "$b verify"; }
	[ "$(grep -c '^verified 100 objects: 0 missing' "$work/$b.verify")" = 3 ] ||
		{ cat "$work/$b.verify"; fail "$b: verify did not check 3 ranks"; }
	[ "$b" = postgres ] || continue
	# An independent reader: psql counts every rank's schema on the one server.
	stored=$(psql "$dsn" -Atc 'SELECT (SELECT count(*) FROM rpbench_rank0.objects)
		+ (SELECT count(*) FROM rpbench_rank1.objects) + (SELECT count(*) FROM rpbench_rank2.objects)')
	[ "$stored" = "$(jq .totals.acked "$work/$b/result.json")" ] ||
		fail "postgres: the server holds $stored objects, the merged result acknowledges $(jq .totals.acked "$work/$b/result.json")"
done <<<"$(rpb_server_backends "$build")"

echo "-- metadata: report.txt in tachyon-perf's multi-node layout, 3 node rows"
timeout "$limit" "${mpi[@]}" "$build/bin/rpbench-sqlite" run data/workloads/ci-metadata.ini \
	--out "$work/md" --set ops=50 --quiet >"$work/md.log" 2>&1 || { cat "$work/md.log"; fail "metadata run"; }
# The seed's layout (tachyon-perf's Connect total report), line by line,
# with three nodes where the seed shows one: NAME<TAB>NUMBER rows, then
# Total, the sum of the rows above it.
awk -F'\t' '
	function rows(want, what,   i, sum) {
		sum = 0
		for (i = 1; i <= 3; i++) {
			getline
			if (NF != 2 || $2 !~ /^[0-9.]+$/) { print what ": not a node row: " $0; bad = 1 }
			names[what, i] = $1; sum += $2
		}
		getline
		if ($1 != "Total" || ($2 - sum) > 0.01 || (sum - $2) > 0.01) { print what ": Total is not the sum: " $0; bad = 1 }
	}
	NR == 1 { if ($0 !~ /^Connect Test - ID : [0-9]+$/) { print "line 1: " $0; bad = 1 } }
	NR == 2 { if ($0 != "Finished Successfully") { print "line 2: " $0; bad = 1 } }
	NR == 3 { if ($0 != "********** System Configuratiom **********") { print "line 3: " $0; bad = 1 }
		getline; if ($0 != "NodeName\tCores") { print "line 4: " $0; bad = 1 }
		rows(3, "cores")
		getline; if ($0 != "********** Connect Test Settings **********") { print "settings: " $0; bad = 1 }
		for (k = 0; k < 4; k++) getline
		getline; if ($0 != "********** Metadata Operation Performace **********") { print "perf: " $0; bad = 1 }
		getline; if ($0 != "NodeName\tMetadataOperationPerformance(ops/sec)") { print "perf header: " $0; bad = 1 }
		rows(3, "rates")
		getline; if ($0 != "********** Node Details **********") { print "details: " $0; bad = 1 }
		for (i = 1; i <= 3; i++) {
			getline
			if ($0 != names["cores", i] "\x27s metadata operation performance(ops/sec) for each threads:") { print "details " i ": " $0; bad = 1 }
			if (names["rates", i] != names["cores", i]) { print "node " i " named twice differently"; bad = 1 }
			getline; if ($0 !~ /^\t(\[ [0-9.]+ \])+$/) { print "details rates " i ": " $0; bad = 1 }
		}
	}
	END { exit bad }' "$work/md/report.txt" || { cat "$work/md/report.txt"; fail "metadata: multi-node layout"; }
[ "$(awk -F'\t' '/^NodeName\tCores/ { getline; a = $1; getline; b = $1; getline; c = $1; print (a != b && b != c && a != c) }' "$work/md/report.txt")" = 1 ] ||
	fail "metadata: two node rows share a name"

echo "-- report: per-node bars next to the total"
"$build/bin/rpbench" report "$work/md" -o "$work/mdrep" -q || fail "report of a run of 3 ranks"
[ "$(wc -l <"$work/mdrep/data/nodes.dat")" = 4 ] && grep -q '<svg' "$work/mdrep/figures/nodes.svg" ||
	fail "report: no bars of 3 nodes and the total"
awk '$4 == 0 { s += $2 } $4 == 1 { t = $2 } END { exit !(s > 0 && t > 0) }' "$work/mdrep/data/nodes.dat" ||
	fail "report: node or total bars are empty"

# The pid of rank R among mpirun's children, once its live ledger exists.
rank_pid() {
	local mp=$1 r=$2 p
	for p in $(pgrep -P "$mp"); do
		if tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$r"; then
			echo "$p"
			return
		fi
	done
}
# Waits (bounded) until rank R's run has written some operations.
wait_ops() {
	local out=$1 r=$2 i
	for ((i = 0; i < limit * 10; i++)); do
		[ -s "$out/rank-$r/failures.log" ] || [ "$(stat -c %s "$out/rank-$r/ledger.bin" 2>/dev/null || echo 0)" -gt 0 ] &&
			[ -s "$out/rank-$r/result.json" ] && sleep 1 && return 0
		sleep 0.1
	done
	return 1
}

echo "-- merged percentiles are those of all ranks' samples, not averages of the ranks' own"
# Each rank stalls every create for its own time (10, 30, 50 ms), so the
# merged p90 (the 50 ms rank) is far from the mean of the ranks' p90s (30
# ms). samples.jtl keeps whole milliseconds: nearest-rank percentiles of all
# ranks' rows are compared within 1.5 ms plus the histogram's 1%.
pct=(run "$wl" --out "$work/pct" --set ops=30 --set threads=1 --set clients=1 --set probe_every=0
	--set warmup=0 --set jtl=on --quiet)
timeout "$limit" "${mpmd[@]}" \
	-np 1 "$build/bin/rpbench-null" "${pct[@]}" --set inject=stall:10@1 : \
	-np 1 "$build/bin/rpbench-null" "${pct[@]}" --set inject=stall:30@1 : \
	-np 1 "$build/bin/rpbench-null" "${pct[@]}" --set inject=stall:50@1 >"$work/pct.log" 2>&1 ||
	{ cat "$work/pct.log"; fail "percentiles: mpirun"; }
for q in 50 90 99; do
	merged=$(jq -r ".labels.create.p${q}_us / 1000" "$work/pct/result.json")
	from_jtl=$(awk -F, 'FNR > 1 && $3 == "create" { print $2 }' "$work"/pct/rank-{0,1,2}/samples.jtl |
		sort -n | awk -v q="$q" '{ v[NR] = $1 } END { if (NR) print v[int((q * NR + 99) / 100)] }')
	[ -n "$from_jtl" ] || { fail "percentiles: no create rows in samples.jtl"; continue; }
	awk -v m="$merged" -v j="$from_jtl" 'BEGIN { d = m - j; if (d < 0) d = -d; exit !(d <= 1.5 + 0.01 * j) }' ||
		fail "percentiles: merged p$q is $merged ms, all ranks' samples give $from_jtl ms"
done
ranks_mean=$(jq -s 'map(.labels.create.p90_us) | add / length / 1000' "$work"/pct/rank-{0,1,2}/result.json)
awk -v m="$(jq -r '.labels.create.p90_us / 1000' "$work/pct/result.json")" -v a="$ranks_mean" \
	'BEGIN { exit !(m - a > 10) }' || fail "percentiles: the merged p90 is the ranks' mean p90 ($ranks_mean ms)"

echo "-- an error injected on rank 1 alone stops every rank; every rank's results are complete"
# mpirun's MPMD form: rank 1 alone stalls a transaction past txn_timeout.
inj=(run "$wl" --out "$work/inj" --set ops=0 --set duration="$limit" --set threads=1
	--set size_max=64 --set txn_timeout=200 --quiet)
rc=0
timeout "$limit" "${mpmd[@]}" \
	-np 1 "$build/bin/rpbench-sqlite" "${inj[@]}" : \
	-np 1 "$build/bin/rpbench-sqlite" "${inj[@]}" --set inject=stall:1000@100 : \
	-np 1 "$build/bin/rpbench-sqlite" "${inj[@]}" >"$work/inj.log" 2>&1 || rc=$?
[ "$rc" = 3 ] || { cat "$work/inj.log"; fail "error: mpirun ended $rc, not 3 (stopped by an error)"; }
jq -e '.stop.reason == "error" and .stop.class == "txn-timeout" and .stop.rank == 1' \
	"$work/inj/result.json" >/dev/null || fail "error: the merged stop is not rank 1's txn-timeout"
for r in 0 1 2; do
	jq -e '.stop.reason == "error" and (.totals.acked > 0)' "$work/inj/rank-$r/result.json" >/dev/null ||
		fail "error: rank $r did not stop on rank 1's error with complete results"
done
for r in 0 2; do
	jq -e '(.status | startswith("Test stopped with the other ranks")) and (.stop | has("class") | not)' \
		"$work/inj/rank-$r/result.json" >/dev/null || fail "error: rank $r does not say rank 1 stopped it"
done
if [ -x "$build/bin/rpbench" ]; then
	"$build/bin/rpbench" report "$work/inj/rank-0" "$work/inj" -o "$work/injrep" -q ||
		fail "error: report of a rank that another rank stopped"
fi
"$build/bin/rpbench-sqlite" verify "$work/inj" >"$work/inj.verify" 2>&1 || { cat "$work/inj.verify"; fail "error: verify"; }
[ "$(grep -c '^verified .* 0 missing, 0 corrupt, 0 unexpected' "$work/inj.verify")" = 3 ] ||
	{ cat "$work/inj.verify"; fail "error: verify did not pass on 3 ranks"; }

# Runs 3 sqlite ranks into $work/NAME until the limit, sends SIG to rank R
# once it has written operations; mpirun's exit status in signal_rc.
signal_rank() {
	local name=$1 r=$2 sig=$3 mp
	signal_rc=0
	"${mpi[@]}" "$build/bin/rpbench-sqlite" run "$wl" --out "$work/$name" --set ops=0 \
		--set duration="$limit" --set threads=1 --set size_max=64 --quiet >"$work/$name.log" 2>&1 &
	mp=$!
	wait_ops "$work/$name" "$r" || fail "$name: rank $r never started"
	kill -"$sig" "$(rank_pid "$mp" "$r")"
	wait "$mp" || signal_rc=$?
}

echo "-- a signal on rank 1 stops every rank; every rank's results are complete"
signal_rank sig 1 TERM
rc=$signal_rc
[ "$rc" = 5 ] || { cat "$work/sig.log"; fail "signal: mpirun ended $rc, not 5"; }
for r in 0 1 2; do
	jq -e '.stop.reason == "signal" and (.totals.acked > 0)' "$work/sig/rank-$r/result.json" >/dev/null ||
		fail "signal: rank $r did not stop on the signal with complete results"
done
jq -e '.stop.rank == 1 and .stop.reason == "signal"' "$work/sig/result.json" >/dev/null ||
	fail "signal: the merged result does not name rank 1's signal"
"$build/bin/rpbench-sqlite" verify "$work/sig" >"$work/sig.verify" 2>&1 || { cat "$work/sig.verify"; fail "signal: verify"; }

echo "-- rank 2 killed: nothing acknowledged is lost, its in-doubt operations are reported"
signal_rank kill 2 KILL
rc=$signal_rc
[ "$rc" != 0 ] || fail "kill: mpirun ended 0 after a rank was killed"
"$build/bin/rpbench-sqlite" verify "$work/kill" >"$work/kill.verify" 2>&1 || { cat "$work/kill.verify"; fail "kill: verify"; }
[ "$(grep -c '^verified .* 0 missing, 0 corrupt, 0 unexpected' "$work/kill.verify")" = 3 ] ||
	{ cat "$work/kill.verify"; fail "kill: verify did not pass on 3 ranks"; }

[ "$fails" = 0 ] && echo "mpi-test: all passed" || { echo "mpi-test: $fails failed"; exit 1; }
