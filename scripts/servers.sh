# Sourced by the test scripts: the server backends of a build and their
# throwaway servers, from BUILD/backends.txt ("<name> server <script>", the
# script's path under the source tree; cmake/backend.cmake). Every server
# backend's script has pg-throwaway's interface (docs/architecture.md,
# "Adding a backend"): `start [--durable] DIR` prints the DSN, `stop DIR`
# removes it, `run DIR -- CMD` runs CMD with RPB_TEST_<NAME>_DSN set, and it
# marks DIR with .rpbench-<script name>.
rpb_servers_top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# rpb_server_backends BUILD: "<name> <script>" for each server backend, the
# script as an absolute path.
rpb_server_backends() {
	local name kind script
	[ -f "$1/backends.txt" ] || { echo "no $1/backends.txt; configure the build first" >&2; return 2; }
	while read -r name kind script _; do
		[ "$kind" = server ] && echo "$name $rpb_servers_top/$script"
	done <"$1/backends.txt"
	return 0
}

# rpb_server_dsn_var NAME: the variable its script's `run` sets (as
# tests/testutil.c's rpbt_server_dsn reads it): RPB_TEST_<NAME>_DSN, and
# RPB_TEST_PG_DSN for postgres.
rpb_server_dsn_var() {
	if [ "$1" = postgres ]; then echo RPB_TEST_PG_DSN; else echo "RPB_TEST_${1^^}_DSN"; fi
}

# rpb_server_dsn NAME: its DSN from that variable; fails, naming the
# variable and how it is set, when the variable is empty.
rpb_server_dsn() {
	local var
	var=$(rpb_server_dsn_var "$1")
	[ -n "${!var:-}" ] || {
		echo "$var is not set: run under scripts/test.sh's with_servers (each server backend's script, run DIR -- CMD)" >&2
		return 2
	}
	echo "${!var}"
}

# with_servers BUILD [--standby] [--] CMD...: CMD with a throwaway server of
# every server backend of BUILD, each started by its own script (run DIR
# -- ..., nested), so each sets its RPB_TEST_<NAME>_DSN; every one is
# removed again, CMD's exit status is kept. --standby: postgres's server
# gets a hot standby too (pg-throwaway's own option, RPB_TEST_PG_STANDBY_DSN).
with_servers() {
	local build=$1 standby= name script
	shift
	[ "${1:-}" != --standby ] || { standby=1; shift; }
	[ "${1:-}" != -- ] || shift
	local -a chain=() extra
	local list
	list=$(rpb_server_backends "$build") || return
	while read -r name script; do
		[ -n "$name" ] || continue
		extra=()
		[ "$name" != postgres ] || [ -z "$standby" ] || extra=(--standby)
		chain+=("$script" run "$(mktemp -d "/tmp/rpb$name.XXXXXX")" "${extra[@]}" --)
	done <<<"$list"
	"${chain[@]}" "$@"
}
