# A store with data inside the directory later given as --out.
"$RPB_BIN/rpbench-sqlite" run "$RPB_SRC/data/workloads/ci-ingest.ini" --set ops=10 --set probe_every=0 --dir res/st --out first --quiet
