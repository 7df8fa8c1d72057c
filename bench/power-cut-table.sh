#!/usr/bin/env bash
# The durability table of docs/faults.md ("Power cut"): bench/quota-run
# --power-cut at random moments under runs of the Fedora model and of YCSB
# workload D (the Fedora model under profile = durable), on every backend at
# sync = commit and none, verified on the
# crash image, with the results kept off it (default) or on it (--on-image).
# One line per run, then a table per backend x sync x workload: runs,
# acknowledged, lost (verify's missing), corrupt, unexpected, in doubt,
# unprovable, and the independent count of what the crash image holds
# (SQLite's sqlite3, PostgreSQL's psql: the run's records in the store's
# own tables, and for the Fedora model its file on disk; none for LevelDB,
# which has no tool of its own) with whether verify's missing agrees with
# it (acknowledged - present, up to the operations in doubt, which may be
# present or not). With --on-image the acknowledged are those of the ledger
# as it reached the disk, and the store holds more (its note says so).
#
#   bench/power-cut-table.sh [--build DIR] [--runs N] [--max S] [--on-image]
#                            [--backends LIST] [--syncs LIST] [--workloads LIST]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build runs=5 max=4 on_image= backends="leveldb sqlite postgres" syncs="commit none"
workloads="fedora ycsbd"
while [ $# -gt 0 ]; do
	case $1 in
	--build) build=$(realpath "$2"); shift 2 ;;
	--runs) runs=$2; shift 2 ;;
	--max) max=$2; shift 2 ;;
	--on-image) on_image=1; shift ;;
	--backends) backends=${2//,/ }; shift 2 ;;
	--syncs) syncs=${2//,/ }; shift 2 ;;
	--workloads) workloads=${2//,/ }; shift 2 ;;
	*) echo "usage: $0 [--build DIR] [--runs N] [--max S] [--on-image] [--backends L] [--syncs L] [--workloads L]" >&2; exit 2 ;;
	esac
done
bin=$build/bin
work=$(mktemp -d /tmp/rpbcuttab.XXXXXX)
trap '[ -n "${KEEP_WORK-}" ] || rm -rf "$work"' EXIT
lines=$work/lines.tsv
: >"$lines"

# The independent count, run on the crash image (a --then command): the
# run's records present in the store, by the backend's own tool.
count_script=$(cat <<'END'
set -euo pipefail
backend=$1 workload=$2 out=$3 dest=$4
tag=$(jq -r .manifest.run_tag "$out/result.json")
case $workload in
fedora) where="CAST(k AS TEXT) >= 'f/$tag/' AND CAST(k AS TEXT) < 'f/${tag}0'" ;;
ycsbd) where="1 = 1" ;;
esac
# Fedora: one line per binary node a create made, "inline" or its file's
# SHA-1; present when inline or when its file is there.
case $backend in
sqlite)
	bins=$RPB_QUOTA_DIR/store/binaries
	if [ "$workload" = fedora ]; then
		q="SELECT CASE WHEN instr(CAST(v AS TEXT), 'store=file') > 0 THEN substr(CAST(v AS TEXT), instr(CAST(v AS TEXT), 'sha1=') + 5, 40) ELSE 'inline' END FROM descriptions WHERE $where AND CAST(v AS TEXT) LIKE 'type=binary%' AND instr(CAST(v AS TEXT), char(10) || 'op=') > 0"
	else q="SELECT count(*) FROM raw"; fi
	sqlite3 "file:$RPB_QUOTA_DIR/store/rpbench.sqlite?mode=ro" "$q" >"$dest.rows" ;;
postgres)
	bins=$RPB_QUOTA_DIR/binaries
	if [ "$workload" = fedora ]; then
		q="SELECT CASE WHEN position('store=file' in t) > 0 THEN substring(t from position('sha1=' in t) + 5 for 40) ELSE 'inline' END FROM (SELECT convert_from(v, 'UTF8') AS t FROM rpbench.descriptions WHERE convert_from(k, 'UTF8') >= 'f/$tag/' AND convert_from(k, 'UTF8') < 'f/${tag}0') d WHERE position('type=binary' in t) = 1 AND position(E'\nop=' in t) > 0"
	else q="SELECT count(*) FROM rpbench.raw"; fi
	psql "$RPB_QUOTA_DSN" -qAtc "$q" >"$dest.rows" ;;
*) echo - >"$dest"; exit 0 ;;
esac
if [ "$workload" = fedora ]; then
	n=0
	while read -r d; do
		[ "$d" = inline ] || [ -f "$bins/${d:0:2}/${d:2:2}/${d:4:2}/$d" ] && n=$((n + 1))
	done <"$dest.rows"
	echo "$n" >"$dest"
else
	cp "$dest.rows" "$dest"
fi
END
)

one() { # backend sync workload k
	local b=$1 sync=$2 wl=$3 k=$4 name=$1-$2-$3-$4 out size=256M args=() pre=()
	out=$work/$name
	[ -z "$on_image" ] || out='{quota}/results'
	[ "$b" != postgres ] || size=512M
	case $wl in
	fedora)
		args=("$bin/rpbench-$b" run "$top/data/workloads/fedora-test2.ini" --set size_min=0
			--set size_max=8192 --set threads=2 --set interval=0.5 --set profile=durable)
		[ "$b" != postgres ] || args+=(--set 'binary_dir={quota}/binaries') ;;
	ycsbd)
		pre=("$bin/rpbench-$b" load "$top/data/workloads/ycsb/workloadd" -p recordcount=2000
			-p sync=commit --out "$work/$name-load" --quiet --then)
		args=("$bin/rpbench-$b" run "$top/data/workloads/ycsb/workloadd" -p recordcount=2000
			-p operationcount=100000000 -p insertproportion=0.5 -p readproportion=0.5
			-p threadcount=2 --set interval=0.5) ;;
	esac
	local kept=$work/$name.kept
	"$top/bench/quota-run" --size "$size" --power-cut "random:$max" --status "$work/$name.status" -- \
		"${pre[@]}" "${args[@]}" --set sync="$sync" --set ops=0 --set duration=60 --out "$out" --quiet \
		--then "$bin/rpbench-$b" verify "$out" \
		--then bash -c "$count_script" _ "$b" "$wl" "$out" "$work/$name.count" \
		--then bash -c 'cp -r "$1" "$2"' _ "$out" "$kept" \
		>"$work/$name.out" 2>"$work/$name.err" || true
	local v pc present
	v=$(grep -m1 '^verified ' "$work/$name.out" || echo "verified ? objects: ? missing, ? corrupt, ? unexpected")
	present=$(cat "$work/$name.count" 2>/dev/null || echo -)
	pc=$(jq -r '.power_cut // {} | "\(.moment_s)\t\(.fsck)\t\(.verify.exit)\t\(.verify.checked)\t\(.verify.missing)\t\(.verify.corrupt)\t\(.verify.unexpected)\t\(.verify.in_doubt)\t\(.verify.unprovable)"' \
		"$kept/result.json" 2>/dev/null || echo "-")
	local acked
	acked=$(echo "$pc" | cut -f4)
	if [ "$wl" = ycsbd ]; then # acknowledged: the run's inserts (verify's note)
		acked=$(sed -n 's/.*run inserts: \([0-9]*\) acknowledged.*/\1/p' "$work/$name.out")
		[ "$present" = - ] || present=$((present - 2000))
	fi
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$b" "$sync" "$wl" "$k" "$pc" "${acked:--}" "$present" | tee -a "$lines"
	grep -h '^note: the ledger on disk\|malformed\|first problem\|rpbench-[a-z]*: ' "$work/$name.out" "$work/$name.err" |
		sed 's/^/    /' | tee -a "$work/notes" || true
}

echo "backend	sync	workload	run	moment_s	fsck	verify_exit	checked	missing	corrupt	unexpected	in_doubt	unprovable	acked	present"
for b in $backends; do
	for sync in $syncs; do
		for wl in $workloads; do
			for k in $(seq "$runs"); do one "$b" "$sync" "$wl" "$k"; done
		done
	done
done

# The table: per backend x sync x workload, summed over the runs; lost is
# verify's missing, independent is acknowledged - present (- when there is
# no tool), agree when missing lies in [independent, independent + in doubt].
echo
echo "| backend | sync | workload | runs | acknowledged | lost (missing) | corrupt | unexpected | in doubt | unprovable | independent: acknowledged − present | agrees | fsck |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
awk -F'\t' '{
	key = $1 " | " $2 " | " ($3 == "fedora" ? "Fedora model" : "YCSB D")
	if (!(key in runs)) order[n++] = key
	runs[key]++; acked[key] += $14; miss[key] += $9; cor[key] += $10; unx[key] += $11
	doubt[key] += $12; unp[key] += $13; fs[key] = fs[key] (fs[key] ? "," : "") $6
	if ($7 != 0 && $7 != 4) unread[key]++
	if ($15 == "-" || $15 == "" || $7 != 0 && $7 != 4) noind[key] = 1
	else { ind = $14 - $15; indep[key] += ind
		if (!($9 >= ind && $9 <= ind + $12)) bad[key]++ }
} END {
	for (i = 0; i < n; i++) { k = order[i]; split(fs[k], f, ",")
		delete seen; fl = ""
		for (j in f) if (!(f[j] in seen)) { seen[f[j]] = 1; fl = fl (fl ? ", " : "") f[j] }
		printf "| %s | %d | %d | %d | %d | %d | %d | %d | %s | %s | %s%s |\n", k, runs[k], acked[k],
			miss[k], cor[k], unx[k], doubt[k], unp[k], noind[k] ? "-" : indep[k],
			noind[k] ? "-" : (bad[k] ? bad[k] " runs off" : "yes"), fl,
			unread[k] ? "; store unreadable in " unread[k] " runs" : "" }
}' "$lines"
