. "$RPB_SRC/tests/bad_input/lib/results.sh"
ingest_run
edit --arg h "$hostile" '.manifest.options["run.seed"] = "42" + $h'
