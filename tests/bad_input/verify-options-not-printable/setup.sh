. "$RPB_SRC/tests/bad_input/lib/results.sh"
ingest_run
edit '.manifest.options["ingest.content"] = "ascii\u001b[2J"'
