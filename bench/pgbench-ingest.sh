# Sourced by bench/calibrate.sh and bench/pg-wakeup.sh: the pgbench baseline
# of the ingest create (bench/calibrate/ingest.pgbench) in a schema of its
# own, made and dropped around the run. Needs DSN and SRC set.

# pgbench_ingest_us SCHEMA SYNC(none|commit) OPS: prints µs per transaction.
pgbench_ingest_us() {
	local s=$1 pgsync tps
	pgsync=$([ "$2" = none ] && echo off || echo on)
	psql -q "$DSN" -c "SET client_min_messages = warning; CREATE SCHEMA $s;
		CREATE TABLE $s.objects (k bytea PRIMARY KEY, v bytea NOT NULL);
		CREATE TABLE $s.descriptions (k bytea PRIMARY KEY, v bytea NOT NULL);
		CREATE TABLE $s.members (k bytea PRIMARY KEY, v bytea NOT NULL);" >/dev/null
	tps=$(PGOPTIONS="-c search_path=$s,public -c synchronous_commit=$pgsync" pgbench -n -M prepared \
		-c 1 -t "$3" -f "$SRC/bench/calibrate/ingest.pgbench" "$DSN" 2>&1 |
		sed -n 's/^tps = \([0-9.]*\) (without initial connection time)/\1/p')
	psql -q "$DSN" -c "SET client_min_messages = warning; DROP SCHEMA $s CASCADE" >/dev/null
	if [ -z "$tps" ]; then
		echo "pgbench printed no tps; run it by hand to see why" >&2
		return 1
	fi
	awk -v t="$tps" 'BEGIN { printf "%.3f", 1e6 / t }'
}
