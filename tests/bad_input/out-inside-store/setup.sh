# A store with data, made by an earlier run.
"$RPB_BIN/rpbench-sqlite" run "$RPB_SRC/data/workloads/ci-ingest.ini" --set ops=10 --set probe_every=0 --dir st --out first --quiet
