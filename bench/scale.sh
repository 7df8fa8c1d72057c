#!/usr/bin/env bash
# The repository-scale benchmark of docs/scaling.md: rpbench scale grows one
# store per backend through the sizes (preload, then a measured window of
# creates and probes at each size, preload --continue to the next) and
# writes scale.json, scale.txt and the figures; this script adds the
# machine's facts and the command, so the page's tables can be traced back.
set -euo pipefail

prog=bench/scale.sh
top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build
backends=leveldb,sqlite,postgres
objects=1e4,1e5,1e6
window=2000
workload=fedora-test2
out=
sets=()

usage() {
	cat <<USAGE
usage: $prog [--build DIR] [--backends LIST] [--objects LIST] [--window OPS]
                     [--workload FILE] [--set KEY=VALUE]... [--out DIR]

Runs rpbench scale WORKLOAD on each backend (a throwaway PostgreSQL server
when postgres is listed) and writes into OUT: scale.json, scale.txt,
index.html and figures/ (rpbench scale's), runs/ and logs/, machine.txt (the
machine, the libraries, the command) and the time each backend took.

Options:
  --build DIR       build directory (default: build in the repository top)
  --backends LIST   comma-separated (default: $backends)
  --objects LIST    store sizes, increasing (default: $objects)
  --window OPS      creates measured at each size (default: $window)
  --workload FILE   default: $workload
  --set KEY=VALUE   passed on to every run (repeatable)
  --out DIR         a new or empty directory (default: a new one under /tmp)
  --help            this text
USAGE
}

while [ $# -gt 0 ]; do
	case $1 in
	--build) build=$2; shift 2 ;;
	--backends) backends=$2; shift 2 ;;
	--objects) objects=$2; shift 2 ;;
	--window) window=$2; shift 2 ;;
	--workload) workload=$2; shift 2 ;;
	--set) sets+=(--set "$2"); shift 2 ;;
	--out) out=$2; shift 2 ;;
	--help | -h) usage; exit 0 ;;
	*) echo "$prog: unknown option '$1'; see $prog --help" >&2; exit 2 ;;
	esac
done
rpbench=$build/bin/rpbench
[ -x "$rpbench" ] || { echo "$prog: no $rpbench; build first (scripts/build.sh $build)" >&2; exit 2; }
[ -n "$out" ] || out=$(mktemp -d "${TMPDIR:-/tmp}/rpbench-scale.XXXXXX")
start=()
case ",$backends," in *,postgres,*) start=(--start-postgres) ;; esac

cmd=("$rpbench" scale "$workload" -b "$backends" --objects "$objects" --window "$window"
	"${sets[@]}" "${start[@]}" -o "$out")
t0=$(date +%s)
"${cmd[@]}"
t1=$(date +%s)
{
	echo "command: ${cmd[*]}"
	echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ), $((t1 - t0)) s in all"
	echo "machine: $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)," \
		"$(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo), $(uname -sr)"
	echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "store file system: $(df -T "$out" | awk 'NR == 2 { print $2 " on " $1 }')"
	"$build/bin/rpbench-null" --version 2>/dev/null | head -n 1 || true
} >"$out/machine.txt"
cat "$out/scale.txt"
echo "$prog: results in $out"
