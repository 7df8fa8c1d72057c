# A store moved after its run: verify --dir names where it is now.
"$RPB_BIN/rpbench-sqlite" run "$RPB_SRC/data/workloads/ci-ingest.ini" --set ops=10 --set probe_every=0 --dir st --out r1 --quiet
mv st moved-store
