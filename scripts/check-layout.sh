#!/usr/bin/env bash
# Checks the layering that docs/architecture.md describes, on a build:
#  1. no dependency cycle between source files: file A depends on file B when
#     A's object uses a symbol B's object defines (nm), across the core, the
#     patterns, report, the backends and the driver; every pair goes one way;
#  2. the core names no pattern and no report file, a pattern no other
#     pattern's and no report file, report no pattern's (includes by path
#     are refused too: the include directories already keep bare names apart);
#  3. a backend is its folder: no backend includes another backend's header
#     (nor src/ or cli/ any backend's), and no C file of src/ or cli/
#     names a backend in a string literal ("sqlite") but those of the
#     allow-list below;
#  4. only src/core/dist_mpi.c and dist_mpi_merge.c include <mpi.h>: everything
#     else reaches MPI through src/core/dist.h (dist_none.c without MPI);
#  5. a backend of the tests only (a folder under tests/ with rpb_add_backend,
#     such as tests/example_backend/) is its folder and one line: no file
#     outside the folder but the docs names the backend, one add_subdirectory line names
#     the folder (docs and comments may point to it), and the build ships
#     nothing of it (backends.txt, bin/, man/).
# Usage: scripts/check-layout.sh [BUILD_DIR]   (default: build)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
prog=scripts/check-layout.sh
[ -d "$build" ] || { echo "$prog: no build directory $build; build first (scripts/build.sh)" >&2; exit 2; }
command -v nm >/dev/null || { echo "$prog: nm is missing; install binutils" >&2; exit 2; }
status=0

# ---- 1. symbol dependencies between objects ----
# The objects of the project's libraries as the build has them now (not
# stale objects of files that moved), named by folder/file.
mapfile -t archives < <(find "$build/src" "$build/backends" "$build/cli" -name 'librpb_*.a' | sort)
registry=$(find "$build/src/patterns" -path '*rpb_patterns.dir/*' -name 'registry.c.o' | head -1)
[ ${#archives[@]} -gt 0 ] && [ -n "$registry" ] || {
	echo "$prog: no libraries under $build; build first (scripts/build.sh)" >&2; exit 2; }
work=$(mktemp -d /tmp/rpblayout.XXXXXX)
trap '[ -n "${RPB_LAYOUT_KEEP:-}" ] || rm -rf "$work"' EXIT
# "object kind symbol" for every symbol of every object, the object named
# by its source: the archive's folder (the build mirrors the source tree)
# and the member's file name. An archive whose folder's CMakeLists.txt no
# longer makes it is a stale leftover and is skipped.
for a in "${archives[@]}" "$registry"; do
	dir=$(dirname "${a#"$build"/}")
	dir=${dir%%/CMakeFiles/*}
	lib=$(basename "$a" .a)
	lib=${lib#lib}
	[ "$a" = "$registry" ] ||
		grep -qE "add_library\\($lib( |$)|rpb_add_pattern\\(${lib#rpb_pattern_}( |$)|rpb_add_backend\\(${lib#rpb_backend_}( |$)|rpb_backend_registry\\($lib( |$)" \
		"$top/$dir/CMakeLists.txt" 2>/dev/null || continue
	nm -A "$a" 2>/dev/null | awk -v dir="$dir" '{
		file = $1; sub(/:[^:]*$/, "", file); n = split(file, p, ":"); obj = p[n]
		sub(/^.*\//, "", obj); sub(/\.c\.o$/, "", obj); obj = dir "/" obj
		if (NF == 3) print obj, $2, $3; else if (NF == 2) print obj, $1, $2 }'
done >"$work/all"
nobjects=$(awk '{ print $1 }' "$work/all" | sort -u | wc -l)
awk '$2 == "U" { print $3, $1 > "'"$work"'/uses" }
     $2 ~ /^[TDRBCG]$/ { print $3, $1 > "'"$work"'/defs" }' "$work/all"
# "user definer" pairs, self-references dropped.
sort -k1,1 "$work/defs" >"$work/defs.s"
sort -k1,1 "$work/uses" >"$work/uses.s"
join "$work/uses.s" "$work/defs.s" | awk '$2 != $3 { print $2, $3 }' | sort -u >"$work/edges"
if ! tsort "$work/edges" >/dev/null 2>"$work/loops"; then
	echo "$prog: files that depend on each other (a cycle; make it one way):" >&2
	grep -v 'input contains a loop' "$work/loops" | sed 's/^tsort: /  /' >&2
	status=1
fi

# ---- 2. includes across folders ----
check_includes() { # folder, pattern of forbidden include paths, what
	local hits
	hits=$(grep -rnE "#include \"[^\"]*($2)" "$top/$1" || true)
	if [ -n "$hits" ]; then
		echo "$prog: $1 must not include $3:" >&2
		echo "$hits" | sed "s|$top/||; s/^/  /" >&2
		status=1
	fi
}
patterns=$(cd "$top/src/patterns" && ls -d */ | tr -d / | paste -sd'|')
pattern_headers=$(cd "$top/src/patterns" && find . -name '*.h' -printf '%f\n' | sed 's/\./\\./' | paste -sd'|')
report_headers=$(cd "$top/src/report" && ls ./*.h | xargs -n1 basename | sed 's/\./\\./' | paste -sd'|')
check_includes src/core "\.\./|$pattern_headers|$report_headers" "pattern or report headers"
check_includes src/report "\.\./|$pattern_headers" "pattern headers"
for p in ${patterns//|/ }; do
	others=$(cd "$top/src/patterns" && find . -name '*.h' ! -path "./$p/*" -printf '%f\n' |
		sed 's/\./\\./' | paste -sd'|')
	check_includes "src/patterns/$p" "\.\./|${others:-^$}|$report_headers" \
		"another pattern's or report headers"
done
# ---- 3. backends are folders: their names and headers stay inside ----
backends=$(cd "$top/backends" && ls -d */ | tr -d / | paste -sd'|')
backend_headers=$(cd "$top/backends" && find . -mindepth 2 -name '*.h' -printf '%f\n' |
	sed 's/\./\\./' | paste -sd'|')
check_includes src "$backend_headers" "a backend's header (use struct rpb_backend and its flags)"
check_includes cli "$backend_headers" "a backend's header (use struct rpb_backend and its flags)"
for b in ${backends//|/ }; do
	others=$(cd "$top/backends" && find . -mindepth 2 -name '*.h' ! -path "./$b/*" -printf '%f\n' |
		sed 's/\./\\./' | paste -sd'|')
	check_includes "backends/$b" "\.\./|${others:-^$}" "another backend's headers"
done
# Where user-facing text or a fixed look must name a backend (file: why):
#   src/report/figure.c: each known backend's fixed colour in every report;
#   src/report/compare.c: the server's product name in the version row;
#   cli/rpbench.c: --start-postgres, the older spelling of --start-servers
#   for postgres alone.
name_allowed='^src/report/(figure|compare)\.c:|^cli/rpbench\.c:[0-9]+:.*start_pg \? "postgres"'
names=$(cd "$top" && grep -rnE "\"($backends)\"" --include='*.c' --include='*.h' src cli |
	grep -vE "$name_allowed" || true)
if [ -n "$names" ]; then
	echo "$prog: a backend's name outside backends/ (ask its flags or hooks instead; docs/architecture.md):" >&2
	echo "$names" | sed 's/^/  /' >&2
	status=1
fi
# ---- 4. MPI stays behind src/core/dist.h: only dist_mpi*.c include it ----
mpi_users=$(cd "$top" && grep -rlE '^#include <mpi\.h>' src backends cli bench tests 2>/dev/null |
	grep -vE '^src/core/dist_mpi(_merge)?\.[ch]$' || true)
if [ -n "$mpi_users" ]; then
	echo "$prog: MPI is used outside src/core/dist_mpi*.c (call dist.h instead):"
	echo "$mpi_users" | sed 's/^/  /'
	status=1
fi
# ---- 5. a backend of the tests only: its folder and one line, nothing shipped ----
ntest=0
while IFS= read -r cml; do
	folder=${cml%/CMakeLists.txt}
	sub=${folder#tests/}
	name=$(sed -nE 's/^[[:space:]]*rpb_add_backend\(([a-z0-9]+).*/\1/p' "$top/$cml" | head -1)
	ntest=$((ntest + 1))
	files=$(cd "$top" && git ls-files --cached --others --exclude-standard | grep -v "^$folder/" || true)
	named=$(cd "$top" && echo "$files" | grep -v '\.md$' | xargs -d '\n' grep -lw -- "$name" 2>/dev/null || true)
	if [ -n "$named" ]; then
		echo "$prog: the test-only backend $name of $folder/ is named outside its folder:" >&2
		echo "$named" | sed 's/^/  /' >&2
		status=1
	fi
	# Docs and comments may point to the folder; code reaches it once.
	lines=$(cd "$top" && echo "$files" | grep -v '\.md$' | xargs -d '\n' grep -nw -- "$sub" 2>/dev/null |
		grep -vE '^[^:]+:[0-9]+:[[:space:]]*(#|//|/\*|\*)' || true)
	if [ "$(echo "$lines" | grep -c .)" != 1 ] || ! echo "$lines" | grep -q "^tests/CMakeLists.txt:[0-9]*:add_subdirectory($sub)\$"; then
		echo "$prog: $folder/ must be reached by one line, add_subdirectory($sub) in tests/CMakeLists.txt; it is by:" >&2
		echo "${lines:-  (none)}" | sed 's/^/  /' >&2
		status=1
	fi
	shipped=$(grep -wl -- "$name" "$build/backends.txt" 2>/dev/null || true)
	for f in "$build/bin/rpbench-$name" "$build/man/rpbench-$name.1"; do
		[ -e "$f" ] && shipped="$shipped $f"
	done
	if [ -n "$shipped" ]; then
		echo "$prog: the test-only backend $name ships: $shipped" >&2
		status=1
	fi
done < <(cd "$top" && grep -lE '^[[:space:]]*rpb_add_backend\(' tests/*/CMakeLists.txt 2>/dev/null)
[ $status -eq 0 ] && echo "layout: $ntest test-only backend(s), each its folder and one line"
[ $status -eq 0 ] && echo "layout: $nobjects objects, $(wc -l <"$work/edges") dependencies, no cycle; includes follow the layers"
exit $status
