#!/usr/bin/env bash
# Runs the documentation as written: every ```sh block (```bash and
# ```shell alike, indented ones too) of README.md and docs/*.md, in file order, each with `bash -euo pipefail`, so a block passes
# only when each of its commands does.
#
#   scripts/docs-test.sh [BUILD] [FILE...]   (default: build, every file)
#
# Each file gets a scratch directory holding a copy of the source tree and
# BUILD linked as build/, where its blocks run one after another (a later
# block may use what an earlier one made; shell variables do not carry
# over); BUILD/bin is on PATH. A block starts any server it needs itself
# (a server backend's script, scripts/pg-throwaway, inside the scratch
# directory) or uses the test servers of scripts/test.sh's with_servers
# (RPB_TEST_<NAME>_DSN); servers a failed block left running (each server
# backend's script marks its directory .rpbench-<script name>), and
# processes a block left in the background, are stopped once the file's
# blocks are done.
#
# Commands that cannot run here (they install packages, build or run the
# whole suite) are fenced ```console right after a comment line
#   <!-- not run: REASON -->
# They are listed with their reason; one without a reason fails the test.
# First it checks that README.md links every docs page and lists every
# pattern, and that docs/architecture.md names every pattern's files.
# Each block has a wall-time limit of 180 s times RPB_TEST_TIME_FACTOR
# (default 1): only a hang reaches it. The failing block is named by
# file:line, with the tail of its output.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
build=$(cd "${1:-build}" && pwd) || { echo "docs-test: no build directory ${1:-build}; build first: bash scripts/build.sh build" >&2; exit 2; }
shift $(($# > 0 ? 1 : 0))
[ -x "$build/bin/rpbench" ] || { echo "docs-test: $build/bin has no rpbench; build first: bash scripts/build.sh build" >&2; exit 2; }
if [ $# -gt 0 ]; then files=("$@"); else files=(README.md docs/*.md); fi
limit=$(awk -v f="${RPB_TEST_TIME_FACTOR:-1}" 'BEGIN { printf "%d", 180 * f }')

# shellcheck source=scripts/servers.sh
source scripts/servers.sh
scratch=$(mktemp -d /tmp/rpbdocs.XXXXXX)
chmod 755 "$scratch" # as root, the servers run as the postgres user: it must reach their sockets
# Servers a block started and did not stop, then any other process still
# working in the scratch directory (a run a block left in the background).
cleanup() {
	local mark p name script
	while read -r name script; do
		[ -n "$name" ] || continue
		while IFS= read -r mark; do
			"$script" stop "$(dirname "$mark")" >/dev/null 2>&1 || true
		done < <(find "$scratch" -name ".rpbench-${script##*/}" -not -path '*/standby/*' 2>/dev/null | sort -r)
	done <<<"$(rpb_server_backends "$build")"
	for p in /proc/[0-9]*; do
		case "$(readlink "$p/cwd" 2>/dev/null)" in
		"$scratch"/*) kill -9 "${p#/proc/}" 2>/dev/null || true ;;
		esac
	done
}
trap 'cleanup; rm -rf "$scratch"' EXIT

# Splits FILE into $scratch/blocks/<n>.sh with <n>.where ("file:line");
# prints "file:line: reason" for each ```console block, "file:line: NO
# REASON" when its comment is missing.
extract() {
	awk -v file="$1" -v dir="$2" '
		/^[ \t]*```/ && !inblock {
			inblock = 1; kind = $0; sub(/^[ \t]*```[ \t]*/, "", kind); sub(/[ \t].*/, "", kind)
			if (kind == "bash" || kind == "shell") kind = "sh"
			if (kind == "sh") { n++; out = sprintf("%s/%03d.sh", dir, n)
				printf "%s:%d\n", file, FNR > sprintf("%s/%03d.where", dir, n)
				printf "" > out }
			else if (kind == "console") {
				if (match(prev, /^<!-- not run: .* -->$/))
					printf "%s:%d: %s\n", file, FNR, substr(prev, 15, length(prev) - 18)
				else printf "%s:%d: NO REASON (put <!-- not run: REASON --> on the line before)\n", file, FNR }
			next }
		/^[ \t]*```/ && inblock { inblock = 0; kind = ""; next }
		inblock && kind == "sh" { print >> out }
		!inblock && NF { prev = $0 }
	' "$1"
}

# The source tree's files (NUL-separated), without builds and results.
source_files() {
	if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git ls-files -z --cached --others --exclude-standard | grep -zv '^build'
	else
		find . \( -path './build*' -o -path ./results -o -path ./.git \) -prune -o -type f -print0
	fi
}

status=0
ran=0
failed=()

# What the docs must name, so they keep up with the tree: README links
# every docs page and lists every pattern; architecture.md names every
# pattern's source files.
echo "-- the docs name every page, pattern and pattern file"
missing() {
	echo "FAIL $1"
	failed+=("$2")
	status=1
}
for page in docs/*.md; do
	grep -qF "]($page)" README.md || missing "README.md does not link $page" "README.md:$page"
done
for dir in src/patterns/*/; do
	name=$(basename "$dir")
	grep -q "^| \`$name\` |" README.md ||
		missing "README.md's workloads table has no row for the pattern $name" "README.md:$name"
	for src in "$dir"*.[ch]; do
		grep -qF "\`$(basename "$src")\`" docs/architecture.md ||
			missing "docs/architecture.md does not name $src" "docs/architecture.md:$src"
	done
done
echo "-- commands in the docs that are not run (console blocks), and why:"
for f in "${files[@]}"; do
	ws="$scratch/$(basename "$f" .md)"
	mkdir -p "$ws/.blocks"
	extract "$f" "$ws/.blocks" >"$ws/.console"
	sed 's/^/   /' "$ws/.console"
	while IFS= read -r line; do
		failed+=("${line%%: NO REASON*}")
		status=1
	done < <(grep 'NO REASON' "$ws/.console")
done

for f in "${files[@]}"; do
	ws="$scratch/$(basename "$f" .md)"
	blocks=("$ws"/.blocks/*.sh)
	[ -e "${blocks[0]}" ] || continue
	# The source tree as a fresh checkout has it, and the build.
	source_files | xargs -0 cp --parents -t "$ws"
	ln -s "$build" "$ws/build"
	for b in "${blocks[@]}"; do
		where=$(cat "${b%.sh}.where")
		ran=$((ran + 1))
		t0=$(date +%s)
		if (cd "$ws" && PATH="$build/bin:$PATH" timeout --kill-after=10 "$limit" \
			bash -euo pipefail "$b") >"${b%.sh}.log" 2>&1 </dev/null; then
			echo "ok   $where ($(($(date +%s) - t0)) s)"
		else
			rc=$?
			echo "FAIL $where (exit $rc after $(($(date +%s) - t0)) s); the block:"
			sed 's/^/   | /' "$b"
			echo "   its output (last 25 lines):"
			tail -n 25 "${b%.sh}.log" | sed 's/^/   > /'
			failed+=("$where")
			status=1
		fi
	done
	cleanup
done
if [ $status -eq 0 ]; then
	echo "docs: all $ran sh blocks ran as written"
else
	echo "docs: FAILED: ${failed[*]}"
fi
exit $status
