. "$RPB_SRC/tests/bad_input/lib/results.sh"
ingest_run
edit '.ledger.workers[0].failures = [[3, "bogus", false]] | .ledger.workers[0].acked = 19'
