#!/usr/bin/env bash
# Runs every libFuzzer harness of a fuzzing build (tests/fuzz/, built with
# CC=clang and -DRPB_FUZZ=ON) for SECONDS each, two at a time, each on a
# fresh copy of its seed corpus in a temporary directory (the source tree
# is never written). Prints one line per harness; a crash, leak, timeout
# or failed property prints the input that caused it and the first lines
# of its report, keeps the temporary directory, and exits 1.
# Usage: scripts/fuzz.sh BUILD_DIR [SECONDS]   (default 60)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
prog=scripts/fuzz.sh
build=${1:?usage: $prog BUILD_DIR [SECONDS]}
secs=${2:-60}
[[ $secs =~ ^[1-9][0-9]*$ ]] || { echo "$prog: SECONDS must be a whole number > 0, not '$secs'" >&2; exit 2; }
mapfile -t harnesses < <(find "$build/fuzz" -maxdepth 1 -type f -name 'fuzz-*' -perm -u+x 2>/dev/null | sort)
[ ${#harnesses[@]} -gt 0 ] || {
	echo "$prog: no harnesses in $build/fuzz; build with: CC=clang bash scripts/build.sh $build -DRPB_FUZZ=ON" >&2
	exit 2; }
work=$(mktemp -d /tmp/rpbfuzz.XXXXXX)
# libFuzzer stops itself after SECONDS; this limit only catches a hang
# outside a single input (which -timeout catches), scaled like every limit.
limit=$(awk -v s="$secs" -v f="${RPB_TEST_TIME_FACTOR:-1}" 'BEGIN { printf "%d", (s + 120) * f }')

# The seeds of one harness: its own corpus, and inputs of the same kind
# the bad-input corpus and the shipped workloads hold.
seed() { # name, directory
	cp "$top/tests/fuzz/corpus/$1"/* "$2"/ 2>/dev/null || true
	local f i=0
	case $1 in
	workload) for f in "$top"/data/workloads/*.ini "$top"/data/workloads/ycsb/* "$top"/tests/bad_input/*/files/*.ini; do
			[ -f "$f" ] && cp "$f" "$2/seed-$((i++)).ini"; done ;;
	result | result_check)
		while IFS= read -r f; do cp "$f" "$2/seed-$((i++)).json"; done < <(
			find "$top/tests/bad_input" -path '*/files/*' -name result.json -type f) ;;
	esac
}

run() { # harness
	local name=${1##*/fuzz-} dir=$work/${1##*/fuzz-}
	mkdir -p "$dir/corpus" "$dir/artifacts"
	seed "$name" "$dir/corpus"
	local rc=0
	ASAN_OPTIONS=detect_leaks=1 \
		LSAN_OPTIONS="suppressions=$top/tests/lsan.supp:print_suppressions=0" \
		timeout --kill-after=30 "$limit" "$1" -max_total_time="$secs" -rss_limit_mb=2048 -timeout=10 \
		-detect_leaks=1 -print_final_stats=1 -artifact_prefix="$dir/artifacts/" "$dir/corpus" \
		>"$dir/log" 2>&1 || rc=$?
	echo "$rc" >"$dir/rc"
}

# Two at a time: CI has two cores.
running=0
for h in "${harnesses[@]}"; do
	if [ $running -ge 2 ]; then
		wait -n || true
		running=$((running - 1))
	fi
	run "$h" &
	running=$((running + 1))
done
wait

status=0
for h in "${harnesses[@]}"; do
	name=${h##*/fuzz-}
	dir=$work/$name
	rc=$(cat "$dir/rc" 2>/dev/null || echo 1)
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log" | tail -1)
	crash=$(find "$dir/artifacts" -type f | head -1)
	if [ "$rc" = 0 ] && [ -z "$crash" ]; then
		echo "fuzz $name: ${runs:-?} runs, no crash"
		continue
	fi
	status=1
	echo "fuzz $name: FAILED (exit $rc) after ${runs:-?} runs; input: ${crash:-none saved}; log: $dir/log"
	# The report and its first frames in rpbench's code (not libFuzzer's,
	# the sanitizers' or libc's).
	grep -E 'ERROR: |property failed|runtime error|^ *#[0-9]+ ' "$dir/log" |
		grep -vE 'fuzzer::|__sanitizer|__asan|__ubsan|libc\.so|/nptl/|raise\.c|abort\.c' |
		head -12 | sed 's/^/  /'
done
if [ $status -eq 0 ]; then
	rm -rf "$work"
else
	echo "fuzz: inputs and logs kept in $work"
fi
exit $status
