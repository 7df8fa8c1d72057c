#!/usr/bin/env bash
# A power cut in seconds (docs/faults.md, "Power cut"): SQLite runs of the
# Fedora model at sync = commit under bench/quota-run --power-cut, one with
# the results outside the crashed image, one with them on it, each cut 1 s
# after its start and verified on the crash image. Asserts what a power cut
# must leave: fsck finds no damage, verify exits 0 with nothing missing,
# corrupt or unexpected, result.json records the cut, and with the results
# on the image verify says in its note what the durable ledger cannot
# prove (never "malformed JSON"). Needs root and a free loop device: where
# there are none it says so and exits 0 (skipped), as CI does where loop
# devices cannot be used.
#
#   scripts/power-cut-smoke.sh [BUILD_DIR]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(realpath "${1:-build}")
bin=$build/bin
why=
if [ "$(id -u)" -ne 0 ]; then why="not root"
elif ! losetup -f >/dev/null 2>&1; then why="no free loop device (losetup -f)"
elif ! command -v fsfreeze >/dev/null || ! command -v mkfs.ext4 >/dev/null; then why="no fsfreeze or mkfs.ext4"
fi
if [ -n "$why" ]; then
	echo "power-cut smoke: SKIPPED: $why; a power cut needs a loop-mounted image"
	exit 0
fi
work=$(mktemp -d /tmp/rpbcut.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail=0
run() { # NAME OUT: one cut run, then verify; OUT may be in {quota}
	local name=$1 out=$2 res
	"$top/bench/quota-run" --size 128M --power-cut 1 --status "$work/$name.status" -- \
		"$bin/rpbench-sqlite" run "$top/data/workloads/fedora-test2.ini" --set size_min=4096 \
		--set size_max=8192 --set profile=durable --set sync=commit --set threads=2 --set ops=0 --set duration=60 --set interval=0.3 \
		--out "$out" --quiet --then "$bin/rpbench-sqlite" verify "$out" \
		--then bash -c 'cp -r "$1" "$2"' _ "$out" "$work/$name.kept" \
		>"$work/$name.out" 2>"$work/$name.err" || true
	res=$work/$name.kept
	local verdict
	verdict=$(sed -n 2p "$work/$name.status" | cut -f1)
	if [ "$verdict" != 0 ] || ! grep -q "^verified [0-9]* objects: 0 missing, 0 corrupt, 0 unexpected" "$work/$name.out" ||
		grep -q "malformed JSON" "$work/$name.out" "$work/$name.err" ||
		[ "$(jq -r '.power_cut.fsck' "$res/result.json")" = damaged ] ||
		[ "$(jq -r '.power_cut.verify.exit' "$res/result.json")" != 0 ]; then
		echo "FAIL: power cut, $name:"; cat "$work/$name.out" "$work/$name.err"; fail=1
		return
	fi
	echo "power cut, $name: $(jq -r '.power_cut | "at \(.moment_s) s, fsck \(.fsck), verify \(.verify.checked) checked, \(.verify.missing) missing, \(.verify.in_doubt) in doubt, \(.verify.unprovable) unprovable (ledger \(.verify.ledger))"' "$res/result.json")"
	grep "^note: the ledger on disk" "$work/$name.out" || true
}
run outside "$work/outside"
run on-image '{quota}/results'
exit $fail
