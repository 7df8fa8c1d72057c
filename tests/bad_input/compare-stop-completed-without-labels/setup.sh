. "$RPB_SRC/tests/bad_input/lib/results.sh"
ingest_run
edit 'del(.labels)'
