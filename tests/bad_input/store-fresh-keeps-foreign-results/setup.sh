# A marked store that also holds results (kept there by hand, or by an
# older rpbench that allowed --out inside --dir).
"$RPB_BIN/rpbench-sqlite" run "$RPB_SRC/data/workloads/ci-ingest.ini" --set ops=10 --set probe_every=0 --dir S --out first --quiet
cp -r first S/res1
