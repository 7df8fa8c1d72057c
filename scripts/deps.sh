#!/usr/bin/env bash
# Installs the Debian 12 packages rpbench needs to build, test and plot
# (clang and libclang-rt-14-dev, which holds libFuzzer, for tests/fuzz/);
# with --test also chromium, for scripts/screenshots.sh.
# As root it runs apt-get; otherwise it prints the exact command and exits 2.
set -euo pipefail

packages=(
	build-essential cmake pkg-config
	libleveldb-dev libsnappy-dev libsqlite3-dev sqlite3 libpq-dev postgresql postgresql-client
	libxxhash-dev libcriterion-dev libinih-dev libjansson-dev libssl-dev
	gnuplot-nox libxml2-utils jq util-linux procps e2fsprogs
	clang libclang-rt-14-dev
)
# --test: also what scripts/screenshots.sh needs to look at the reports
# (optional; no test or CI stage depends on it).
if [ "${1:-}" = "--test" ]; then
	packages+=(chromium)
fi

missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "rpbench: missing packages: ${missing[*]}" >&2
	echo "rpbench: install them with: sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
	exit 2
fi
echo "rpbench: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends "${missing[@]}"
