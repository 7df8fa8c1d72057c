#!/usr/bin/env bash
# The Debian package, tested from its own files: builds it with CPack from
# BUILD_DIR (default build), unpacks it into a scratch root (dpkg -x), checks
# its dependencies and man pages, and runs the installed programs with
# nothing else to lean on: rpbench-sqlite --version, a 1-second run of the
# installed ci-ingest workload (found by name in share/rpbench/workloads),
# its verify, YCSB's workloada by name (load, run, verify), every server
# backend's throwaway-server script installed (backends.txt) and rpbench
# compare --start-servers, which starts the
# installed pg-throwaway and the installed rpbench-postgres. No step judges
# speed; the time limits only turn a hang into a failure
# (RPB_TEST_TIME_FACTOR scales them).
#
#   scripts/deb-test.sh [BUILD_DIR]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
limit=$(awk -v f="${RPB_TEST_TIME_FACTOR:-1}" 'BEGIN { printf "%d", 300 * f }')
scratch=$(mktemp -d /tmp/rpbdeb.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
fail() {
	echo "deb-test: FAIL: $*" >&2
	exit 1
}

cpack --config "$build/CPackConfig.cmake" -G DEB -B "$scratch/pkg" >"$scratch/cpack.log" 2>&1 ||
	{ cat "$scratch/cpack.log"; fail "cpack -G DEB"; }
deb=$(ls "$scratch"/pkg/rpbench_*.deb)
echo "deb-test: built $(cd "$scratch/pkg" && echo *.deb)"

# rpbench and one rpbench-<backend> per backend built (but null, which is
# rpbench's), each depending on rpbench of its version; a server backend's
# package recommends its server and holds its throwaway-server script.
depends=$(dpkg-deb -f "$deb" Depends)
for lib in libjansson4 libinih1 libxxhash0 libssl3 gnuplot-nox; do
	grep -q "$lib" <<<"$depends" || fail "rpbench's Depends lacks $lib: $depends"
done
while read -r b kind script; do
	[ "$b" = null ] && continue
	pkg=$(ls "$scratch"/pkg/rpbench-"$b"_*.deb 2>/dev/null) || fail "no package rpbench-$b"
	# Fields read whole first: grep -q leaving a pipe early fails it under pipefail.
	fields=$(dpkg-deb -f "$pkg" Depends)
	grep -q "rpbench (= " <<<"$fields" || fail "rpbench-$b does not depend on rpbench"
	dpkg-deb -c "$pkg" >"$scratch/files"
	grep -q "/usr/bin/rpbench-$b\$" "$scratch/files" || fail "rpbench-$b lacks its program"
	if [ "$kind" = server ]; then
		[ -n "$(dpkg-deb -f "$pkg" Recommends)" ] || fail "rpbench-$b recommends no server"
		grep -q "/usr/share/rpbench/$script\$" "$scratch/files" ||
			fail "rpbench-$b lacks its server script $script"
	fi
	fields=$(dpkg-deb -f "$deb" Recommends Suggests)
	grep -q "rpbench-$b" <<<"$fields" || fail "rpbench neither recommends nor suggests rpbench-$b"
done <"$build/backends.txt"
for lib in libleveldb1d libsqlite3-0 libpq5; do
	case $lib in
	libleveldb1d) b=leveldb ;; libsqlite3-0) b=sqlite ;; libpq5) b=postgres ;;
	esac
	[ -e "$build/bin/rpbench-$b" ] || continue
	fields=$(dpkg-deb -f "$scratch"/pkg/rpbench-"$b"_*.deb Depends)
	grep -q "$lib" <<<"$fields" || fail "rpbench-$b's Depends lacks $lib"
done

root=$scratch/root
for pkg in "$scratch"/pkg/*.deb; do
	dpkg -x "$pkg" "$root"
done
bin=$root/usr/bin
# Installed files must not lean on the source or build tree.
if grep -rlF -e "$top" -e "$build" "$root" >"$scratch/leaks"; then
	fail "installed files name the source or build tree: $(tr '\n' ' ' <"$scratch/leaks")"
fi
# Every server backend's script, where rpbench --start-servers looks for it.
while read -r name kind script _; do
	[ "$kind" = server ] || continue
	[ -x "$root/usr/share/rpbench/$script" ] || fail "$name's throwaway-server script $script is not installed in share/rpbench"
	[ -L "$bin/rpbench-${script##*/}" ] || fail "bin/rpbench-${script##*/} (a link to $name's script) is not installed"
done <"$build/backends.txt"
for page in man1/rpbench.1.gz man1/rpbench-null.1.gz man1/rpbench-sqlite.1.gz \
	man1/rpbench-leveldb.1.gz man1/rpbench-postgres.1.gz man5/rpbench-workload.5.gz; do
	f=$root/usr/share/man/$page
	[ -s "$f" ] || fail "man page $page is missing"
	gzip -t "$f" || fail "man page $page is not a gzip file"
	# gzip -n: no file name or time stamp in the header (flags byte 0, mtime 0).
	[ "$(od -An -tx1 -j3 -N5 "$f" | tr -d ' ')" = 0000000000 ] ||
		fail "man page $page was gzipped with a name or time stamp (use gzip -9n)"
	if command -v man >/dev/null; then
		warnings=$(MANWIDTH=80 man --warnings -E UTF-8 -l "$f" 2>&1 >/dev/null) || fail "man -l $page"
		[ -z "$warnings" ] || fail "man -l $page warns: $warnings"
	fi
done
echo "deb-test: man pages present and clean"

# From here on only the unpacked tree: a working directory of its own.
cd "$scratch"
"$bin/rpbench-sqlite" --version | grep -q '^rpbench ' || fail "rpbench-sqlite --version"
timeout --kill-after=10 "$limit" "$bin/rpbench-sqlite" run ci-ingest -s duration=1 -s ops=0 \
	-o "$scratch/run" -q || fail "a 1-second run of the installed ci-ingest"
workload=$(jq -r .manifest.workload "$scratch/run/result.json")
[ "$workload" = "$root/usr/share/rpbench/workloads/ci-ingest.ini" ] ||
	fail "the run read $workload, not the installed workload"
timeout --kill-after=10 "$limit" "$bin/rpbench-sqlite" verify "$scratch/run" >"$scratch/verify.log" ||
	{ cat "$scratch/verify.log"; fail "verify of the installed run"; }
echo "deb-test: installed rpbench-sqlite ran ci-ingest for 1 s: $(cat "$scratch/verify.log")"
python3 "$top/tests/schema/validate.py" "$root/usr/share/rpbench/schema/result.schema.json" \
	"$scratch/run/result.json" >/dev/null || fail "the installed run against the installed result.schema.json"

# YCSB's workloads by name, as YCSB's users name them: the installed
# workloads/ycsb/workloada, loaded, run and verified.
for verb in load run; do
	timeout --kill-after=10 "$limit" "$bin/rpbench-sqlite" "$verb" workloada -p recordcount=100 \
		-p operationcount=200 --dir "$scratch/ycsb" -o "$scratch/ycsb-$verb" -q ||
		fail "rpbench-sqlite $verb workloada from the installed files"
	workload=$(jq -r .manifest.workload "$scratch/ycsb-$verb/result.json")
	[ "$workload" = "$root/usr/share/rpbench/workloads/ycsb/workloada" ] ||
		fail "$verb workloada read $workload, not the installed YCSB workload"
	grep -q '^\[OVERALL\], Throughput(ops/sec), ' "$scratch/ycsb-$verb/ycsb.txt" ||
		fail "$verb workloada wrote no YCSB output"
done
timeout --kill-after=10 "$limit" "$bin/rpbench-sqlite" verify "$scratch/ycsb-run" >"$scratch/verify.log" ||
	{ cat "$scratch/verify.log"; fail "verify of the installed YCSB run"; }
echo "deb-test: installed rpbench-sqlite loaded and ran workloada by name: $(head -1 "$scratch/verify.log")"

if command -v pg_ctlcluster >/dev/null || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
	env -u RPB_PG_THROWAWAY timeout --kill-after=30 "$limit" "$bin/rpbench" compare ci-ingest -b sqlite,postgres \
		--start-servers -s duration=1 -s ops=0 -o "$scratch/cmp" -q >"$scratch/cmp.log" 2>&1 ||
		{ cat "$scratch/cmp.log"; fail "rpbench compare --start-servers from the installed files"; }
	[ -f "$scratch/cmp/runs/postgres/result.json" ] || fail "compare wrote no postgres run"
	echo "deb-test: installed rpbench compare started the installed pg-throwaway and rpbench-postgres"
else
	echo "deb-test: no PostgreSQL server programs; compare --start-servers not tried"
fi
echo "deb-test: ok"
