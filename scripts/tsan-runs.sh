#!/usr/bin/env bash
# Runs the CI workloads of every pattern with several threads and clients on
# each backend binary of a ThreadSanitizer build (argument: the build
# directory), then verifies the store. The Fedora model covers its node
# locks and shared binary store. A background snapshot build covers
# the harvesters' hand-over to their fillers. A reaper run (txn_timeout with a
# stall that only the reaper ends) covers the reaper thread, a harvest from a hot standby of the
# PostgreSQL server (postgres.read_dsn) the split sessions and the gauge
# sampler. A YCSB load and a workload D run in four threads cover the shared
# acknowledged insert counter that latest reads. The backends are the
# build's (backends.txt: name and kind, a server's runs get --dsn, an
# embedded one's --dir, one that stores nothing has nothing to verify); each
# server backend's DSN is its RPB_TEST_<NAME>_DSN (scripts/servers.sh: set
# by its throwaway-server script's run, scripts/test.sh's with_servers), and
# PostgreSQL's replica run needs PGHOST (pg-throwaway run) too.
set -euo pipefail
dir=$1
top=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d /tmp/rpbtsan.XXXXXX)
standby_dir=
cleanup() {
	[ -z "$standby_dir" ] || "$top/scripts/pg-throwaway" stop "$standby_dir" >/dev/null 2>&1 || true
	rm -rf "$out"
}
trap cleanup EXIT
# shellcheck source=scripts/servers.sh
source "$top/scripts/servers.sh"
# Every server backend's DSN, before any run: a missing one fails at once.
declare -A dsn=()
while read -r b _; do
	[ -z "$b" ] || dsn[$b]=$(rpb_server_dsn "$b") || exit 2
done <<<"$(rpb_server_backends "$dir")"

# name workload expected-exit extra --set arguments...
cases=(
	"ingest ci-ingest.ini 0 threads=3 clients=2 ops=400 interval=0.2"
	"fedora ci-ingest.ini 0 threads=3 clients=2 ops=300 model=fedora size_max=64k probe_every=50"
	"metadata ci-metadata.ini 0 threads=3 clients=2 ops=401 interval=0.2"
	"harvest ci-harvest.ini 0 threads=3 clients=2 ops=150 interval=0.2 records=5000"
	"snapshot ci-harvest.ini 0 threads=2 ops=100 records=3000 token=snapshot"
	"background ci-harvest.ini 0 threads=2 ops=100 records=3000 token=snapshot snapshot_build=background writers=1 writer_rate=300"
	"writers ci-harvest.ini 0 threads=2 ops=100 records=3000 writers=2 writer_rate=300"
	"reaper ci-ingest.ini 3 threads=3 clients=2 ops=400 txn_timeout=100 inject=stall:3600000@150"
)
[ -f "$dir/backends.txt" ] || { echo "tsan-runs.sh: no $dir/backends.txt; configure the build first" >&2; exit 2; }
while read -r b kind _ <&3; do
	for c in "${cases[@]}"; do
		read -r name workload want sets <<<"$c"
		[ "$kind" = nothing ] && [ "$name" = reaper ] && continue
		args=(--quiet --out "$out/$b-$name")
		for s in $sets; do args+=(--set "$s"); done
		if [ "$kind" = server ]; then
			args+=(--dsn "${dsn[$b]}" --schema "tsan_${name}_$$")
		else
			args+=(--dir "$out/$b-$name-store")
		fi
		rc=0
		"$dir/bin/rpbench-$b" run "$top/data/workloads/$workload" "${args[@]}" || rc=$?
		if [ "$rc" -ne "$want" ]; then
			echo "tsan $b $name: run exited $rc, expected $want"
			cat "$out/$b-$name/summary.txt" 2>/dev/null || true
			exit 1
		fi
		[ "$kind" = nothing ] || "$dir/bin/rpbench-$b" verify "$out/$b-$name" >/dev/null
		echo "tsan $b $name: clean ($(sed -n 3p "$out/$b-$name/summary.txt" | cut -c1-110))"
	done
done 3<"$dir/backends.txt"

# YCSB: a load, then workload D (inserts and latest reads over the shared
# acknowledged insert counter) in four threads, verified; YCSB's status
# lines every 0.1 s read the threads' own measurements while they record.
while read -r b kind _ <&3; do
	loc=(--dir "$out/$b-ycsb-store")
	[ "$kind" = server ] && loc=(--dsn "${dsn[$b]}" --schema "tsan_ycsb_$$")
	for phase in load run; do
		"$dir/bin/rpbench-$b" "$phase" "$top/data/workloads/ycsb/workloadd" -s \
			-p status.interval=0.1 --out "$out/$b-ycsb-$phase" "${loc[@]}" -p threadcount=4 \
			-p recordcount=2000 -p operationcount=4000 >/dev/null 2>"$out/$b-ycsb-$phase.err" ||
			{ echo "tsan $b ycsb $phase: exited $?"; cat "$out/$b-ycsb-$phase.err"; exit 1; }
		[ "$kind" = nothing ] || "$dir/bin/rpbench-$b" verify "$out/$b-ycsb-$phase" >/dev/null
	done
	echo "tsan $b ycsb: clean"
done 3<"$dir/backends.txt"

# PostgreSQL only: a hot standby of its server (pg-throwaway standby).
if [ -x "$dir/bin/rpbench-postgres" ]; then
	standby_dir=$(mktemp -d /tmp/rpbsb.XXXXXX)
	standby=$("$top/scripts/pg-throwaway" standby "$PGHOST" "$standby_dir")
	"$dir/bin/rpbench-postgres" run "$top/data/workloads/ci-harvest.ini" --quiet \
		--out "$out/postgres-replica" --dsn "${dsn[postgres]}" --schema "tsan_replica_$$" \
		--set threads=2 --set ops=100 --set records=3000 --set writers=2 --set token=snapshot \
		--set "postgres.read_dsn=$standby"
	"$dir/bin/rpbench-postgres" verify "$out/postgres-replica" >/dev/null
	echo "tsan postgres replica: clean ($(sed -n 3p "$out/postgres-replica/summary.txt" | cut -c1-110))"
fi
