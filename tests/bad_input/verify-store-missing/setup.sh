# The store of a run is gone: verify's hint names verify's own --dir.
"$RPB_BIN/rpbench-sqlite" run "$RPB_SRC/data/workloads/ci-ingest.ini" --set ops=10 --set probe_every=0 --dir st --out r1 --quiet
rm -r st
