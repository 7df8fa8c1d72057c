#!/usr/bin/env bash
# Bytes per create of the Fedora model under profile = fedora-4.5, as the
# seed's disk-full run measured them (~70 GB / 1,019,512 creates = 68.7 KB,
# 1.37x the content): fedora-test3.ini's sizes, N creates per backend, the
# store (backend files plus the binary store) measured by the run itself
# (result.json totals.store_bytes, and intervals.csv's store_bytes column
# as it grows), projected to 10^6 creates from the growth over the second
# half of the run. A long measurement (10^5 creates: about 5 GB and tens
# of minutes per backend); not a test.
#
# Bytes on disk do not depend on when they are synced: --set
# sqlite.synchronous=off or postgres.synchronous_commit=off measures the
# same bytes in a fraction of the time on a slow disk (say so with the
# figures).
#
# usage: bench/fedora-bytes.sh [--build DIR] [--creates N] [--backends LIST] [--set K=V]... --out DIR
set -euo pipefail
prog=$(basename "$0")
build=build creates=100000 backends=leveldb,sqlite,postgres out= sets=()
while [ $# -gt 0 ]; do
	case "$1" in
	--build) build=$2; shift 2 ;;
	--creates) creates=$2; shift 2 ;;
	--backends) backends=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--set) sets+=(--set "$2"); shift 2 ;;
	*) echo "usage: $prog [--build DIR] [--creates N] [--backends LIST] [--set K=V]... --out DIR" >&2; exit 1 ;;
	esac
done
[ -n "$out" ] || { echo "$prog: give --out DIR (a new directory)" >&2; exit 1; }
[ ! -e "$out" ] || { echo "$prog: $out exists; give a new directory" >&2; exit 1; }
here=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
pg=
cleanup() { [ -z "$pg" ] || "$here/scripts/pg-throwaway" stop "$pg" >/dev/null 2>&1 || true; }
trap cleanup EXIT
printf '| backend | creates | content MB | store MB | bytes/create | x content | projected bytes/create at 10^6 |\n|---|---|---|---|---|---|---|\n' >"$out/table.md"
for b in ${backends//,/ }; do
	args=(run "$here/data/workloads/fedora-test3.ini" -q -o "$out/$b" -s "ops=$creates" -s interval=5
	      -s probe_every=1000 "${sets[@]}")
	if [ "$b" = postgres ]; then
		pg=$(mktemp -d /tmp/rpbpg.XXXXXX)
		dsn=$("$here/scripts/pg-throwaway" start "$pg")
		args+=(--dsn "$dsn")
	fi
	"$build/bin/rpbench-$b" "${args[@]}"
	python3 - "$out/$b" "$b" >>"$out/table.md" <<'PY'
import csv, json, sys
d, b = sys.argv[1], sys.argv[2]
r = json.load(open(d + "/result.json"))
t = r["totals"]
acked, store, content = t["acked"], t["store_bytes"], t["acked_bytes"]
rows = [x for x in csv.DictReader(open(d + "/intervals.csv")) if x.get("store_bytes")]
proj = ""
if len(rows) >= 4:
    # objects vs store bytes over the second half: the marginal bytes per create
    half = rows[len(rows) // 2:]
    o0, o1 = float(half[0]["acked"]), float(half[-1]["acked"])
    s0, s1 = float(half[0]["store_bytes"]), float(half[-1]["store_bytes"])
    if o1 > o0:
        marginal = (s1 - s0) / (o1 - o0)
        proj = "%.0f" % ((store + marginal * (1e6 - acked)) / 1e6)
print("| %s | %d | %.1f | %.1f | %.0f | %.2f | %s |" % (b, acked, content / 1e6, store / 1e6,
      store / acked, store / content, proj))
PY
	cleanup; pg=
done
cat "$out/table.md"
