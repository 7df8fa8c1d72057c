# The run tag builds every key verify looks up: a long one must not overflow them.
. "$RPB_SRC/tests/bad_input/lib/results.sh"
ingest_run
edit '.manifest.run_tag = ("a" * 300)'
