# A result.json as older rpbench wrote it: the store recorded as given on the
# command line (st, relative to the run's working directory, sub/), and
# another store at the same relative path from where verify runs.
w="$RPB_SRC/data/workloads/ci-ingest.ini"
mkdir sub
(cd sub && "$RPB_BIN/rpbench-sqlite" run "$w" --set ops=10 --set probe_every=0 --dir st --out r1 --quiet)
sed -i -e 's|"dir": "[^"]*"|"dir": "st"|' -e '/"out": /d' -e '/"workload": /d' sub/r1/result.json
"$RPB_BIN/rpbench-sqlite" run "$w" --set ops=30 --set probe_every=0 --dir st --out decoy --quiet
