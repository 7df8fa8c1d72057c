# Another run's store (marked .rpbench-store, not as a binary store).
"$RPB_BIN/rpbench-sqlite" run "$RPB_SRC/data/workloads/ci-ingest.ini" --set ops=10 --set probe_every=0 --dir st --out first --quiet
