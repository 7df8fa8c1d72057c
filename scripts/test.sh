#!/usr/bin/env bash
# Sets everything up on a fresh Debian 12 machine and runs the whole suite:
# a normal build and an ASan+UBSan build, each built with -Werror and each
# run against a throwaway PostgreSQL server that this script starts and
# always removes.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

bash scripts/build.sh build
bash scripts/build.sh build-asan -DRPB_SANITIZE=address,undefined -DCMAKE_BUILD_TYPE=Debug

jobs=$(nproc)
run_suite() { # run_suite BUILD_DIR
	local dir=$1
	echo "== test suite: $dir"
	scripts/pg-throwaway run "$(mktemp -d /tmp/rpbpg.XXXXXX)" -- \
		env RPB_BUILD_DIR="$top/$dir" "$top/$dir/tests/rpbench-tests" --jobs "$jobs"
}

status=0
run_suite build || status=1
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
	run_suite build-asan || status=1
exit $status
