# An older result.json (the store recorded relative to the run's working
# directory) copied away from where its run wrote it: verify cannot tell
# where st was, and must not take the st beside it.
w="$RPB_SRC/data/workloads/ci-ingest.ini"
mkdir sub
(cd sub && "$RPB_BIN/rpbench-sqlite" run "$w" --set ops=10 --set probe_every=0 --dir st --out r1 --quiet)
sed -i -e 's|"dir": "[^"]*"|"dir": "st"|' -e '/"out": /d' -e '/"workload": /d' sub/r1/result.json
cp -r sub/r1 moved
"$RPB_BIN/rpbench-sqlite" run "$w" --set ops=30 --set probe_every=0 --dir st --out decoy --quiet
