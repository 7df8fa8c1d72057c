#!/usr/bin/env bash
# The machine-readable outputs against their schemas (data/schema/,
# docs/results.md): result.json of a tiny run of every pattern (ingest flat,
# ingest fedora under both profiles, metadata, harvest, raw, YCSB load and
# run) on null or SQLite, an ingest run on every server backend whose test
# server runs (RPB_TEST_<NAME>_DSN: scripts/test.sh's with_servers), and the golden copies (tests/golden/*/result.json,
# their masked values standing for any value). A result.json with a number
# written as text must fail, or the check proves nothing. Then compare.json
# of a compare of two backends and of a durability matrix.
# Needs python3-jsonschema (scripts/deps.sh).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
bin=$build/bin
wl=$top/data/workloads
schema=$top/data/schema
validate=(python3 "$top/tests/schema/validate.py")
limit=$(awk -v f="${RPB_TEST_TIME_FACTOR:-1}" 'BEGIN { printf "%d", 120 * f }')
scratch=$(mktemp -d /tmp/rpbschema.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "schema-test: FAIL: $*" >&2; exit 1; }
# shellcheck source=scripts/servers.sh
source "$top/scripts/servers.sh"
declare -A server_dsn=()
while read -r name _; do
	[ -n "$name" ] || continue
	var=$(rpb_server_dsn_var "$name")
	if [ -n "${!var:-}" ]; then server_dsn[$name]=${!var}; else echo "schema-test: $var is not set: no $name run"; fi
done <<<"$(rpb_server_backends "$build")"

# run NAME BACKEND VERB WORKLOAD ARGS...: one run into $scratch/NAME.
run() {
	local name=$1 backend=$2 verb=$3 workload=$4
	shift 4
	local store=()
	if [ -n "${server_dsn[$backend]:-}" ]; then
		store=(--dsn "${server_dsn[$backend]}" --schema "schema_${name//[^a-z0-9]/_}_$$")
	elif [ "$backend" != null ]; then
		store=(--dir "$scratch/store-${STORE:-$name}")
	fi
	timeout --kill-after=10 "$limit" "$bin/rpbench-$backend" "$verb" "$workload" "${store[@]}" \
		--out "$scratch/$name" -q "$@" >"$scratch/$name.log" 2>&1 ||
		{ cat "$scratch/$name.log"; fail "$name: rpbench-$backend $verb $workload"; }
	results+=("$scratch/$name/result.json")
}

results=()
run ingest-flat null run "$wl/ci-ingest.ini" --set ops=50
run ingest-fedora-durable sqlite run "$wl/ci-ingest.ini" --set ops=50 --set model=fedora --set profile=durable
run ingest-fedora-4.5 sqlite run "$wl/ci-ingest.ini" --set ops=50 --set model=fedora --set profile=fedora-4.5
run metadata sqlite run "$wl/ci-metadata.ini" --set ops=50 --set preload=5
run harvest sqlite run "$wl/ci-harvest.ini" --set records=500 --set ops=5
run raw sqlite run "$wl/raw-ci.ini" --set num=200
STORE=ycsb run ycsb-load sqlite load "$wl/ycsb/workloada" -p recordcount=100 -p operationcount=100
STORE=ycsb run ycsb-run sqlite run "$wl/ycsb/workloada" -p recordcount=100 -p operationcount=100
for b in "${!server_dsn[@]}"; do
	run "ingest-$b" "$b" run "$wl/ci-ingest.ini" --set ops=50
done
"${validate[@]}" "$schema/result.schema.json" "${results[@]}" || fail "a run's result.json does not match result.schema.json"
"${validate[@]}" --golden "$schema/result.schema.json" "$top"/tests/golden/*/result.json ||
	fail "a golden result.json does not match result.schema.json"

# The schema holds numbers to be numbers: the same file with one count and
# one latency written as text is refused, naming both.
jq '.totals.acked = "50" | .labels.create.p99_us = "1.5"' "$scratch/ingest-flat/result.json" >"$scratch/text-numbers.json"
if "${validate[@]}" "$schema/result.schema.json" "$scratch/text-numbers.json" >"$scratch/neg.log"; then
	fail "a result.json with numbers as text passed the schema"
fi
grep -q "totals/acked: '50' is not of type 'integer'" "$scratch/neg.log" &&
	grep -q "labels/create/p99_us: '1.5' is not of type 'number'" "$scratch/neg.log" ||
	{ cat "$scratch/neg.log"; fail "the schema's refusal does not name both fields"; }
# ... and a pattern object is checked by manifest.pattern: raw's benchmarks are required.
jq 'del(.pattern.benchmarks)' "$scratch/raw/result.json" >"$scratch/raw-nobench.json"
if "${validate[@]}" "$schema/result.schema.json" "$scratch/raw-nobench.json" >"$scratch/neg.log"; then
	fail "a raw result.json without pattern.benchmarks passed the schema"
fi

# compare.json of two backends, and of a durability matrix (a column per
# backend and profile, profile and sync null at the top).
compare() {
	local name=$1
	shift
	timeout --kill-after=10 "$limit" "$bin/rpbench" compare "$wl/ci-ingest.ini" --backends null,sqlite \
		--set ops=50 --out "$scratch/$name" -q "$@" >"$scratch/$name.log" 2>&1 ||
		{ cat "$scratch/$name.log"; fail "rpbench compare $name"; }
}
compare cmp-two
compare cmp-matrix --profiles durable,fedora-4.5 --set model=fedora
[ "$(jq -r '.matrix, (.backends | length)' "$scratch/cmp-matrix/compare.json" | tr '\n' ' ')" = "true 4 " ] ||
	fail "the matrix compare did not give 4 columns"
"${validate[@]}" "$schema/compare.schema.json" "$scratch/cmp-two/compare.json" "$scratch/cmp-matrix/compare.json" ||
	fail "a compare.json does not match compare.schema.json"
jq '.backends[0].throughput_per_s.median = "12.5"' "$scratch/cmp-two/compare.json" >"$scratch/text-median.json"
if "${validate[@]}" "$schema/compare.schema.json" "$scratch/text-median.json" >"$scratch/neg.log"; then
	fail "a compare.json with a median as text passed the schema"
fi

# runs.csv: one record per run, every record as long as the header, read by
# Python's csv module; a results directory whose name holds a comma, a quote
# and a line break comes back whole.
odd="$scratch/odd/a,\"b\"
c"
mkdir -p "$odd" && cp -r "$scratch/cmp-two/runs/null" "$odd/null"
timeout --kill-after=10 "$limit" "$bin/rpbench" compare --results "$odd/null" "$scratch/cmp-two/runs/sqlite" \
	--out "$scratch/cmp-odd" -q >"$scratch/cmp-odd.log" 2>&1 || { cat "$scratch/cmp-odd.log"; fail "compare --results"; }
python3 - "$scratch" <<'PY' || fail "runs.csv does not read back as one record per run"
import csv, json, sys
top = sys.argv[1]
for name, want_dirs in (("cmp-two", None), ("cmp-matrix", None), ("cmp-odd", ["../odd/a,\"b\"\nc/null", "../cmp-two/runs/sqlite"])):
    with open(f"{top}/{name}/runs.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    head, body = rows[0], rows[1:]
    cmp = json.load(open(f"{top}/{name}/compare.json"))
    runs = sum(len(b["runs"]) for b in cmp["backends"]) + len(cmp["incomplete"])
    assert len(body) == runs, f"{name}: {len(body)} rows for {runs} runs"
    assert all(len(r) == len(head) for r in body), f"{name}: a row is not as long as the header"
    assert head[:10] == ["run", "backend", "profile", "sync", "repeat", "pattern", "workload", "completed", "exit_code", "acked"], head
    assert head[-4:] == ["store_bytes", "bytes_per_object", "stop", "dir"], head
    assert "throughput_per_s:create" in head and "p99.9_us:create" in head, head
    for r in body:
        float(r[head.index("throughput_per_s:create")])
    if want_dirs:
        got = [r[head.index("dir")] for r in body]
        assert got == want_dirs, got
print("schema-test: runs.csv of three compares reads back, one record per run")
PY
echo "schema-test: ${#results[@]} runs and the golden copies match result.schema.json, two compares compare.schema.json"
