"$RPB_BIN/rpbench-sqlite" run "$RPB_SRC/data/workloads/ci-ingest.ini" --set ops=20 --set probe_every=0 --out run1 --quiet
