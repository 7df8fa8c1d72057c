# A binary store marked as store a's own.
"$RPB_BIN/rpbench-sqlite" run "$RPB_SRC/data/workloads/fedora-seed-run.ini" --set ops=10 --set ingest.binary_dir=bins --dir a --out first --quiet
