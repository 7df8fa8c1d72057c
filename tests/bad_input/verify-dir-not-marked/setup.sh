# --dir may name any directory: verify opens only a store rpbench marked.
. "$RPB_SRC/tests/bad_input/lib/results.sh"
ingest_run
cp -r r/store other && rm other/.rpbench-store
