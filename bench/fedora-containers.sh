#!/usr/bin/env bash
# The Fedora community's container scale tests, scaled (docs/reproducing.md,
# "The Fedora community's scale tests"): children created into one flat
# container (the Fedora model with pairtree_count = 0) in batches, and after
# each batch one `list` (the whole child list) and one `list-paged` (its
# first 1,000 children), per backend:
#   containers   "Large Numbers of Containers": batches of 500 children,
#                each with one 10 KB binary (in the file binary store);
#   collections  "Modeshape Unordered Collections": batches of 100 children
#                for each collection (flat, tiny, small, large, huge); the
#                report gives no content size: 1 KB binaries, inline.
# The first batch is preloaded (the verb preload, unmeasured: the chain of
# runs must start from one); each further batch is a run continuing the
# last (run --continue), whose result.json gives the batch's create
# latency, the list and list-paged latency after it, the bytes a create's
# rewrite of the container put (its document, and its bucket or block:
# pattern.fedora.parent_rewrites, steady where latency is noisy) and the
# store's bytes.
# Writes DIR/<recipe>.md (a table per batch), DIR/<recipe>-<series>.dat and
# DIR/<recipe>.png (gnuplot), the runs under DIR/runs/. PostgreSQL runs
# when RPB_TEST_PG_DSN or PGHOST names a server (a schema per series).
# A long measurement at the reports' sizes (30,000+ children); not a test.
#
# usage: bench/fedora-containers.sh [--build DIR] [--recipe containers|collections|both]
#          [--children N] [--batch N] [--collections LIST] [--backends LIST] [--set K=V]... --out DIR
set -euo pipefail
prog=$(basename "$0")
usage="usage: $prog [--build DIR] [--recipe containers|collections|both] [--children N] [--batch N] [--collections LIST] [--backends LIST] [--set K=V]... --out DIR"
build=build recipe=both children= batch= collections=flat,tiny,small,large,huge out= sets=()
backends=leveldb,sqlite
dsn=${RPB_TEST_PG_DSN:-}
[ -n "$dsn" ] || [ -z "${PGHOST:-}" ] || dsn="host=$PGHOST"
[ -z "$dsn" ] || backends+=,postgres
while [ $# -gt 0 ]; do
	case "$1" in
	--build) build=$2; shift 2 ;;
	--recipe) recipe=$2; shift 2 ;;
	--children) children=$2; shift 2 ;;
	--batch) batch=$2; shift 2 ;;
	--collections) collections=$2; shift 2 ;;
	--backends) backends=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--set) sets+=(--set "$2"); shift 2 ;;
	*) echo "$usage" >&2; exit 1 ;;
	esac
done
[ -n "$out" ] || { echo "$prog: give --out DIR (a new directory)" >&2; exit 1; }
[ ! -e "$out" ] || { echo "$prog: $out exists; give a new directory" >&2; exit 1; }
case "$recipe" in containers|collections|both) ;; *) echo "$prog: --recipe takes containers, collections or both, not '$recipe'" >&2; exit 1 ;; esac
for n in "$children" "$batch"; do
	[ -z "$n" ] || [[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "$prog: --children and --batch take a count, not '$n'" >&2; exit 1; }
done
case ",$backends," in *,postgres,*) [ -n "$dsn" ] || { echo "$prog: postgres needs a server: set RPB_TEST_PG_DSN or PGHOST" >&2; exit 1; } ;; esac
here=$(cd "$(dirname "$0")/.." && pwd)
workload=$here/data/workloads/fedora-test2.ini
mkdir -p "$out/runs"

# The result.json of a batch as a table row and a data line.
row() {
	python3 - "$1" "$2" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
lab, t = r["labels"], r["totals"]
ms = lambda k: "%.3f" % (lab[k]["mean_us"] / 1000) if k in lab and lab[k]["samples"] else "-"
children = r["pattern"]["continues"]["objects_before"] + t["acked"]
store = t.get("store_bytes")
# parent_rewrites: what each rewrite of the container put (its document,
# and its bucket or block), by its children before it
sig = r["pattern"]["fedora"].get("parent_rewrites", [])
n = sum(x["rewrites"] for x in sig)
per = "%.0f" % (sum(x["rewrites"] * x["mean_bytes"] for x in sig) / n) if n else "-"
cells = [str(children), ms("create"), ms("list"), ms("list-paged"), per,
         str(store if store is not None else "-")]
if sys.argv[2] == "md":
    print("| " + " | ".join(cells) + " |")
else:
    print(" ".join(c if c != "-" else "NaN" for c in cells))
PY
}

# One series: recipe $1, backend $2, collection $3, batch $4, children $5.
series() {
	local rec=$1 b=$2 coll=$3 per=$4 total=$5 name="$2-$3"
	local dir=$out/runs/$rec/$name store=$out/runs/$rec/$name/store
	local size=(--set size_min=10240 --set size_max=10240)
	[ "$rec" = containers ] || size=(--set size_min=1024 --set size_max=1024)
	local common=(--quiet --set ingest.pairtree_count=0 --set ingest.probe_every=0
		      --set ingest.read_at=root --set ingest.list_page=1000 --set "ingest.collection=$coll"
		      "${size[@]}" "${sets[@]}")
	local where=(--dir "$store")
	if [ "$b" = postgres ]; then
		where=(--dsn "$dsn" --schema "rpb_fc_${rec}_${coll}_$$")
	fi
	mkdir -p "$dir"
	"$build/bin/rpbench-$b" preload "$workload" --objects "$per" --out "$dir/batch-1" "${where[@]}" "${common[@]}" >/dev/null
	printf '\n### %s, %s, collection = %s\n\n| children | create ms/op | list ms | list-paged ms | parent bytes put/create | store bytes |\n|---|---|---|---|---|---|\n' \
		"$rec" "$b" "$coll" >>"$out/$rec.md"
	printf '# children create_ms list_ms list_paged_ms parent_bytes_per_create store_bytes\n' >"$out/$rec-$name.dat"
	local prev=$dir/batch-1 k=2 done_=$per
	while [ $((done_ + per)) -le "$total" ]; do
		"$build/bin/rpbench-$b" run "$workload" --continue "$prev" --out "$dir/batch-$k" "${where[@]}" \
			"${common[@]}" --set run.ops="$per" --set "ingest.read_mix=list:1/$per,list-paged:1/$per" >/dev/null
		row "$dir/batch-$k/result.json" md >>"$out/$rec.md"
		row "$dir/batch-$k/result.json" dat >>"$out/$rec-$name.dat"
		prev=$dir/batch-$k
		k=$((k + 1))
		done_=$((done_ + per))
	done
	rm -rf "$store"
}

# recipe $1: one figure, list and list-paged (containers) or create (collections) against children.
figure() {
	local rec=$1 plots=() f
	for f in "$out/$rec"-*.dat; do
		local s
		s=$(basename "$f" .dat)
		s=${s#"$rec"-}
		if [ "$rec" = containers ]; then
			plots+=("'$f' using 1:3 with linespoints title '$s list'"
				"'$f' using 1:4 with linespoints title '$s list-paged'")
		else
			plots+=("'$f' using 1:2 with linespoints title '$s create'")
		fi
	done
	local joined
	joined=$(IFS=,; echo "${plots[*]}")
	command -v gnuplot >/dev/null || { echo "$prog: no gnuplot: $out/$rec-*.dat are the data" >&2; return 0; }
	gnuplot <<EOF
set terminal png size 1000,600
set output '$out/$rec.png'
set xlabel 'children in the container'
set ylabel 'ms (mean)'
set key outside right
plot $joined
EOF
}

run_recipe() {
	local rec=$1 per=$2 total=$3 colls=$4
	printf '# %s: %s children in batches of %s (%s)\n' "$rec" "$total" "$per" \
		"$("$build/bin/rpbench" --version 2>/dev/null | head -1)" >"$out/$rec.md"
	for b in ${backends//,/ }; do
		for c in ${colls//,/ }; do
			series "$rec" "$b" "$c" "$per" "$total"
		done
	done
	figure "$rec"
}

if [ "$recipe" != collections ]; then
	run_recipe containers "${batch:-500}" "${children:-30000}" flat
fi
if [ "$recipe" != containers ]; then
	run_recipe collections "${batch:-100}" "${children:-20000}" "$collections"
fi
echo "$prog: tables in $out/*.md, figures in $out/*.png"
