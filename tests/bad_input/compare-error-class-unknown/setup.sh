. "$RPB_SRC/tests/bad_input/lib/results.sh"
ingest_run
edit '.errors = {"disk-full | x": {"count": 1}}'
