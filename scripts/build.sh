#!/usr/bin/env bash
# Installs what is missing and builds rpbench into build/ (or the directory
# given as $1, with any further arguments passed to cmake).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
bash scripts/deps.sh
dir=${1:-build}
shift || true
cmake -S . -B "$dir" -DRPB_WERROR=ON "$@" >/dev/null
cmake --build "$dir" -j "$(nproc)" >/dev/null
