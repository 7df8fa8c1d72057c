#!/usr/bin/env bash
# Screenshots of two HTML reports, to look at what a reader sees: the
# README's compare example (leveldb, sqlite and a throwaway PostgreSQL,
# three runs each) and the report of a run that ended on a real disk full
# (bench/quota-run). Each page is drawn by headless Chromium (Debian package
# chromium; scripts/deps.sh --test installs it) into a PNG.
#
#   scripts/screenshots.sh [OUT_DIR] [BUILD_DIR]   (defaults: a new /tmp/rpbshots.*, build)
#
# Prints the PNGs' paths, each with its page's height. Extra --set for the compare example come from
# RPB_SHOT_SET (e.g. "interval=0.1"), word-split.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$(mktemp -d /tmp/rpbshots.XXXXXX)}
build=$(realpath -- "${2:-$top/build}")
mkdir -p "$out"
out=$(realpath -- "$out")

browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
	echo "screenshots: chromium not found; install it with scripts/deps.sh --test (Debian package chromium)" >&2
	exit 2
fi

sets=()
for s in ${RPB_SHOT_SET:-}; do sets+=(--set "$s"); done

# 1. The README's compare example. Exit 3 (a run did not complete) still
# leaves a report to look at.
rc=0
"$build/bin/rpbench" compare "$top/data/workloads/ci-ingest.ini" --backends leveldb,sqlite,postgres \
	--start-servers --repeat 3 --set ops=0 --set duration=3 --set interval=0.2 "${sets[@]}" --out "$out/compare" --quiet >"$out/compare.txt" || rc=$?
[ "$rc" -eq 0 ] || [ "$rc" -eq 3 ] || { echo "screenshots: compare exited $rc" >&2; exit 1; }

# 2. A run that fills a 24 MiB file system, paced so it spans several
# intervals, and its report.
rc=0
"$top/bench/quota-run" --size 24M -- "$build/bin/rpbench-sqlite" run "$top/data/workloads/ci-ingest.ini" \
	--set ops=0 --set size_max=64k --set rate=400 --set interval=0.1 --set jtl=on \
	--quiet --out "$out/diskfull-run" 2>"$out/diskfull-run.log" || rc=$?
[ "$rc" -eq 3 ] || { echo "screenshots: the disk-full run exited $rc, not 3; see $out/diskfull-run.log" >&2; exit 1; }
"$build/bin/rpbench" report "$out/diskfull-run" --out "$out/diskfull" >/dev/null

# --no-sandbox: Chromium's sandbox refuses to start as root. The page's
# height is measured first (a copy of the page with a line of script that
# puts it in the title, read back with --dump-dom), so the screenshot holds
# the whole page; the script never enters the report itself.
for page in compare/report diskfull; do
	png="$out/${page%%/*}.png"
	probe="$out/$page/height-probe.html"
	sed 's#</body>#<script>addEventListener("load",()=>{document.title="H="+document.documentElement.scrollHeight})</script></body>#' \
		"$out/$page/index.html" >"$probe"
	height=$("$browser" --headless --no-sandbox --disable-gpu --window-size=1400,3000 \
		--virtual-time-budget=5000 --dump-dom "file://$probe" 2>>"$out/chromium.log" |
		grep -o 'H=[0-9]*' | head -1 | cut -c3-)
	rm -f "$probe"
	"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--window-size=1400,"${height:-3000}" --screenshot="$png" "file://$out/$page/index.html" \
		>/dev/null 2>>"$out/chromium.log"
	echo "$png (page height ${height:-unknown} px at 1400 px wide)"
done
