"$RPB_BIN/rpbench-sqlite" run "$RPB_SRC/data/workloads/ci-ingest.ini" --set ops=5 --set probe_every=0 --out run1 --quiet
jq '.manifest.command = "rpbench-postgres run w.ini --dsn host=db password=hunter2 --set postgres.read_dsn=postgresql://u:hunter2@r/db"' run1/result.json > run1/result.json.new
mv run1/result.json.new run1/result.json
