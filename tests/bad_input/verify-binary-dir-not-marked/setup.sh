# A result.json may name any directory as its binary store: verify walks
# only one its run marked, never one like / with files of its own.
. "$RPB_SRC/tests/bad_input/lib/results.sh"
"$RPB_BIN/rpbench-sqlite" run "$RPB_SRC/data/workloads/fedora-seed-run.ini" --set ops=10 --out r --quiet
mkdir -p foreign/aa/bb/cc
echo mine > foreign/aa/bb/cc/aabbcc0000000000000000000000000000000000
edit --arg d "$PWD/foreign" '.manifest.options["ingest.binary_dir"] = $d'
