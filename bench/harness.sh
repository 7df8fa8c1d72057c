#!/usr/bin/env bash
# Measures rpbench's own cost per operation: the ingest create with empty
# payloads against the null backend, at 1 and 2 threads, repeats interleaved
# so drift on the machine hits every thread count alike. docs/performance.md
# explains the figures and the targets they are held to.
set -euo pipefail

prog=bench/harness.sh
top=$(cd "$(dirname "$0")/.." && pwd)

usage() {
	cat <<EOF
usage: $prog [--build DIR] [--rebuild] [--threads LIST] [--repeat N]
                         [--duration SECONDS] [--set KEY=VALUE]... [--ranks N] [--keep]

Runs DIR/bin/rpbench-null on data/workloads/bench-null.ini (ingest creates of
0-byte objects, no probes, sync = none, no samples.jtl) once per thread count
per repeat, interleaved (1T 2T 1T 2T ...), and prints per thread count the
medians of: total ops/s, ops/s per thread, ns per op per thread from the wall
time and from each thread's own active time, and the timed create latency;
then the scaling of each thread count against the first.

Options:
  --build DIR         build directory (default: build in the repository top)
  --rebuild           run scripts/build.sh DIR first (default build type)
  --threads LIST      comma-separated thread counts (default: 1,2)
  --repeat N          runs per thread count (default: 3)
  --duration SECONDS  length of each run (default: 2.5)
  --set KEY=VALUE     passed on to rpbench-null run (repeatable), e.g.
                      --set size_max=4096 to add payload generation
  --ranks N           run every point under mpirun -np N (Open MPI; N load
                      nodes of the thread count each, docs/distributed.md):
                      the figures are of all ranks' threads, merged, so
                      --ranks 1 against no --ranks is MPI's cost per op
  --keep              keep the run directories (printed at the end)
  --help              this text

Needs jq. Exit codes: 0 done, 1 usage, 2 environment (no binary, no jq),
3 a run failed.
EOF
}

die() { # code message
	echo "$prog: $2" >&2
	exit "$1"
}

build=$top/build
threads=1,2
repeat=3
duration=2.5
keep=false
ranks=
rebuild=false
sets=()
while [ $# -gt 0 ]; do
	case $1 in
	--help | -h) usage; exit 0 ;;
	--build | --threads | --repeat | --duration | --set | --ranks)
		[ $# -ge 2 ] || die 1 "$1 needs a value; see $prog --help"
		case $1 in
		--build) build=$2 ;;
		--threads) threads=$2 ;;
		--repeat) repeat=$2 ;;
		--duration) duration=$2 ;;
		--set) sets+=(--set "$2") ;;
		--ranks) ranks=$2 ;;
		esac
		shift 2 ;;
	--rebuild) rebuild=true; shift ;;
	--keep) keep=true; shift ;;
	*) die 1 "unknown argument '$1'; see $prog --help" ;;
	esac
done

[[ $threads =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] ||
	die 1 "--threads takes a list like 1,2 of counts >= 1, not '$threads'"
[[ $repeat =~ ^[1-9][0-9]*$ ]] || die 1 "--repeat takes a count >= 1, not '$repeat'"
[[ $duration =~ ^[0-9]*\.?[0-9]+$ && ! $duration =~ ^[0.]+$ ]] ||
	die 1 "--duration takes seconds > 0 like 2.5, not '$duration'"
[ -z "$ranks" ] || [[ $ranks =~ ^[1-9][0-9]*$ ]] || die 1 "--ranks takes a count >= 1, not '$ranks'"
IFS=, read -r -a tlist <<<"$threads"
launch=()
if [ -n "$ranks" ]; then
	command -v mpirun >/dev/null || die 2 "mpirun not found; install openmpi-bin (scripts/deps.sh)"
	launch=(mpirun --oversubscribe -np "$ranks")
	[ "$(id -u)" -ne 0 ] || launch+=(--allow-run-as-root)
fi

command -v jq >/dev/null || die 2 "jq not found; install it with: apt-get install jq (scripts/deps.sh)"
if $rebuild; then
	bash "$top/scripts/build.sh" "$build" || die 2 "scripts/build.sh $build failed; see its output above"
fi
bin=$build/bin/rpbench-null
[ -x "$bin" ] || die 2 "$bin not found; build first (scripts/build.sh), pass --build DIR, or add --rebuild"
workload=$top/data/workloads/bench-null.ini
[ -r "$workload" ] || die 2 "$workload not readable; run from a complete checkout"

# What the figures came from: they mean little without it.
cache=$build/CMakeCache.txt
btype=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$cache" 2>/dev/null || true)
sanit=$(sed -n 's/^RPB_SANITIZE:[A-Z]*=//p' "$cache" 2>/dev/null || true)
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
echo "rpbench harness overhead: null backend, ingest of 0-byte objects, ${duration}s per run${ranks:+, $ranks rank(s) under mpirun}"
echo "date $(date -u +%Y-%m-%dT%H:%MZ); $(nproc) CPUs, ${cpu:-unknown CPU}; build ${btype:-unknown}${sanit:+, sanitizers $sanit}; $bin"
[ ${#sets[@]} -eq 0 ] || echo "workload overrides: ${sets[*]}"
[ -z "$sanit" ] || echo "warning: a sanitizer build; its figures say nothing about the harness in a normal build" >&2

tmp=$(mktemp -d "${TMPDIR:-/tmp}/rpbench-harness.XXXXXX")
$keep || trap 'rm -rf "$tmp"' EXIT

# Busy jiffies of all CPUs from /proc/stat, steal included: what the machine
# spent beyond rpbench-null's own CPU time was taken by something else.
busy_jiffies() {
	awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9; exit }' /proc/stat
}
hz=$(getconf CLK_TCK)
TIMEFORMAT='%R %U %S'

# One line per run: threads, total ops/s, ops/s per thread, wall ns/op per
# thread, active ns/op per thread, mean timed create latency (ns), CPUs that
# something else kept busy during the run, CPU ns per op (the process's user
# + system time / ops: unlike the wall figures, not inflated when something
# else preempts the workers).
runs=$tmp/runs.tsv
: >"$runs"
for ((r = 1; r <= repeat; r++)); do
	for t in "${tlist[@]}"; do
		out=$tmp/run-$r-${t}t
		rc=0
		busy0=$(busy_jiffies)
		{ time "${launch[@]}" "$bin" run "$workload" --set threads="$t" --set duration="$duration" "${sets[@]}" \
			--dir "$tmp/store-$r-${t}t" --out "$out" --quiet 2>"$tmp/err" || rc=$?; } 2>"$tmp/time"
		busy1=$(busy_jiffies)
		[ "$rc" -eq 0 ] || die 3 "run $r with $t thread(s) exited $rc: $(head -n 1 "$tmp/err")"
		read -r real user sys <"$tmp/time"
		others=$(awk -v b=$((busy1 - busy0)) -v hz="$hz" -v r="$real" -v u="$user" -v s="$sys" \
			'BEGIN { o = r > 0 ? (b / hz - u - s) / r : 0; printf "%.2f", o < 0 ? 0 : o }')
		cpu_s=$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')
		# Under mpirun: OUT/result.json is the merge, each rank's threads in
		# its nodes (time counts every rank's CPU: they are mpirun's children).
		jq -r --arg others "$others" --arg cpu "$cpu_s" '
			(if .nodes then [.nodes[].thread_figures[]] else .threads end) as $th
			| ($th | length) as $n
			| [ $n,
			    .totals.acked / .totals.measured_s,
			    (.totals.acked / .totals.measured_s / $n),
			    (.totals.measured_s * 1e9 * $n / .totals.acked),
			    ([$th[] | .active_s * 1e9 / .acked] | add / $n),
			    .labels.create.mean_us * 1e3,
			    ($others | tonumber),
			    ($cpu | tonumber) * 1e9 / .totals.acked ]
			| .[0] = (.[0] / ('"${ranks:-1}"'))
			| @tsv' "$out/result.json" >>"$runs"
		printf '  run %d, %d thread(s): %.0f ops/s, other load %s CPUs\n' "$r" "$t" \
			"$(tail -n 1 "$runs" | cut -f2)" "$others" >&2
	done
done

# Median of column $2 over the runs with $1 threads.
median() {
	awk -F'\t' -v t="$1" -v c="$2" '$1 == t { print $c }' "$runs" | sort -g |
		awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
extreme() { # threads column min|max
	awk -F'\t' -v t="$1" -v c="$2" '$1 == t { print $c }' "$runs" | sort -g |
		if [ "$3" = min ]; then head -n 1; else tail -n 1; fi
}

echo
printf '%7s %10s %10s %7s %7s %7s %7s %6s  %s\n' threads 'ops/s' 'ops/s/thr' 'ns/op' 'ns/op' 'ns/op' 'timed' 'other' 'ops/s min-max'
printf '%7s %10s %10s %7s %7s %7s %7s %6s  %s\n' '' total '' wall active cpu 'ns/op' CPUs total
for t in "${tlist[@]}"; do
	printf '%7d %10.0f %10.0f %7.0f %7.0f %7.0f %7.0f %6.2f  %.0f-%.0f\n' "$t" \
		"$(median "$t" 2)" "$(median "$t" 3)" "$(median "$t" 4)" "$(median "$t" 5)" \
		"$(median "$t" 8)" "$(median "$t" 6)" "$(extreme "$t" 7 max)" \
		"$(extreme "$t" 2 min)" "$(extreme "$t" 2 max)"
done
base=${tlist[0]}
for t in "${tlist[@]:1}"; do
	awk -v a="$(median "$t" 2)" -v b="$(median "$base" 2)" -v t="$t" -v s="$base" \
		-v ca="$(median "$t" 8)" -v cb="$(median "$base" 8)" \
		'BEGIN { printf "scaling %dT/%dT: %.2fx by ops/s, %.2fx by CPU time per op (ideal %.2fx)\n",
			t, s, a / b, t / s * cb / ca, t / s }'
done
echo "medians of $repeat run(s) each; ns/op: per op of one thread (cpu: CPU time per op); timed: mean create latency;"
echo "other CPUs: the most that other processes (or the hypervisor) took during one run"
awk -F'\t' '$7 > m { m = $7 } END { if (m > 0.2) printf "warning: other processes kept up to %.1f CPUs busy during a run; the figures are not reliable\n", m }' "$runs" >&2
if $keep; then echo "runs kept in $tmp"; fi
