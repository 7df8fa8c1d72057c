# Helpers for the setup.sh of results-, verify-, report- and compare- cases:
# a real run's results in r/, then damage. Source it:
#   . "$RPB_SRC/tests/bad_input/lib/results.sh"
# (this folder has no cmd, so it is not a case).

# A short sqlite ingest run into r/; extra arguments go to the run.
ingest_run() {
	"$RPB_BIN/rpbench-sqlite" run "$RPB_SRC/data/workloads/ci-ingest.ini" --set ops=20 \
		--set probe_every=0 --out r --quiet "$@"
}

# Edits r/result.json with jq (arguments as jq takes them).
edit() {
	jq "$@" r/result.json > r/result.json.new && mv r/result.json.new r/result.json
}

# Makes r/ look like a run that was killed: result.json as written at the
# start, so verify reads the live ledger (ledger.bin, failures.log).
killed() {
	edit 'del(.ledger) | del(.manifest.end) | .stop = {"reason": "running"}'
}

# A string that runs a command, writing PWNED into a file, if it ever
# reaches gnuplot's script text (quoted gnuplot strings: '...' and "...").
hostile=$(cat <<'END'
';system("echo PWN"."ED>p")#
END
)

# A short sqlite YCSB run with inserts (workload D, half inserts) into r/,
# its store in s/ loaded first; extra arguments go to the run.
ycsb_run() {
	local wl="$RPB_SRC/data/workloads/ycsb/workloadd"
	"$RPB_BIN/rpbench-sqlite" load "$wl" --dir s --out l --quiet -p recordcount=50 &&
		"$RPB_BIN/rpbench-sqlite" run "$wl" --dir s --out r --quiet -p recordcount=50 \
			-p operationcount=100 -p insertproportion=0.5 -p readproportion=0.5 "$@"
}
