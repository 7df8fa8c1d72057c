. "$RPB_SRC/tests/bad_input/lib/results.sh"
ingest_run
edit '.manifest.backend_version = "SQLite\u001b]0;owned\u0007"'
