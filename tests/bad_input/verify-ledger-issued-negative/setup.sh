. "$RPB_SRC/tests/bad_input/lib/results.sh"
ingest_run
edit '.ledger.workers[0].issued = -5'
