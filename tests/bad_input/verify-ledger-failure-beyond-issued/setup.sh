. "$RPB_SRC/tests/bad_input/lib/results.sh"
ingest_run
edit '.ledger.workers[1].failures = [[999, "io", false]] | .ledger.workers[1].acked = 19'
