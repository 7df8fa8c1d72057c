. "$RPB_SRC/tests/bad_input/lib/results.sh"
ingest_run
edit --arg h "$hostile" '.labels |= with_entries(.key = $h + .key)'
