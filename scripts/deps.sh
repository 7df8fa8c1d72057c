#!/usr/bin/env bash
# Installs the Debian 12 packages rpbench needs to build, test and plot
# (clang and libclang-rt-14-dev, which holds libFuzzer, for tests/fuzz/;
# jmeter, Debian's JMeter 2.13, for the test that has JMeter read samples.jtl:
# 51 packages, 38 MB to fetch, 53 MB installed, about 20 s, plus the Java
# runtime it depends on where none is installed, openjdk-17-jre-headless:
# 44 MB to fetch, 190 MB installed; dpkg-dev and man-db for the Debian
# package and its man pages, scripts/deb-test.sh; libopenmpi-dev and
# openmpi-bin for runs of several load nodes under mpirun, docs/distributed.md;
# python3-jsonschema for scripts/schema-test.sh, result.json and compare.json
# against data/schema/);
# with --test also chromium, for scripts/screenshots.sh.
# As root it runs apt-get; otherwise it prints the exact command and exits 2.
# Each backend's own packages are its folder's backends/<name>/packages.txt
# (this runs before CMake on a fresh machine, so it reads the files itself).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)

packages=(
	build-essential cmake pkg-config libpq-dev
	libxxhash-dev libcriterion-dev libinih-dev libjansson-dev libssl-dev
	gnuplot-nox libxml2-utils jq util-linux procps e2fsprogs man-db dpkg-dev strace
	clang libclang-rt-14-dev jmeter libopenmpi-dev openmpi-bin python3-jsonschema
)
for f in "$top"/backends/*/packages.txt; do
	while read -r p _; do
		case "$p" in '' | '#'*) continue ;; esac
		case " ${packages[*]} " in *" $p "*) ;; *) packages+=("$p") ;; esac
	done <"$f"
done
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
# Another apt (an unattended upgrade on a fresh machine) may hold dpkg's
# lock for a while: wait for it instead of failing.
lock=(-o DPkg::Lock::Timeout=600)
apt-get "${lock[@]}" update -q
apt-get "${lock[@]}" install -y -q --no-install-recommends "${missing[@]}"
