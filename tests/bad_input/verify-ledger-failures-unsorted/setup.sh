. "$RPB_SRC/tests/bad_input/lib/results.sh"
ingest_run
edit '.ledger.workers[0].failures = [[5, "io", false], [3, "io", false]] | .ledger.workers[0].acked = 18'
